// Sealing secret values with AES-256-GCM under the instance key. The key comes
// from AION_SECRET_KEY, or for the embedded store from a file the first start
// generates in the data folder (mode 0600).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The embedded store's key file, made on first use when AION_SECRET_KEY is not set. */
export function keyFile(dataDir: string): string {
  return path.join(dataDir, 'secret.key');
}

export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    /** Where the key came from, for sentences: AION_SECRET_KEY or the key file. */
    readonly source: string,
  ) {}

  static fromBase64(text: string, source: string): SecretBox {
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new ConfigError(`${source} must be 32 bytes in base64 (openssl rand -base64 32)`);
    return new SecretBox(key, source);
  }

  static generate(source: string): SecretBox {
    return new SecretBox(randomBytes(32), source);
  }

  /**
   * The instance key: AION_SECRET_KEY when set; else, for the embedded store,
   * the data folder's key file, made on first use. PostgreSQL needs the
   * setting, since its servers share no folder.
   */
  static async load(options: { secretKey: string | null; dataDir: string; databaseUrl: string | null }): Promise<SecretBox> {
    if (options.secretKey) return SecretBox.fromBase64(options.secretKey, 'AION_SECRET_KEY');
    if (options.databaseUrl) {
      throw new ConfigError('AION_SECRET_KEY is required with DATABASE_URL; make one with: openssl rand -base64 32');
    }
    const file = keyFile(options.dataDir);
    try {
      return SecretBox.fromBase64(await readFile(file, 'utf8'), file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const box = SecretBox.generate(file);
    // `wx`: never overwrite a key that appeared meanwhile.
    await writeFile(file, box.exported(), { mode: 0o600, flag: 'wx' });
    return box;
  }

  /** The key in base64 with a newline, as the key file and AION_SECRET_KEY hold it. */
  exported(): string {
    return this.key.toString('base64') + '\n';
  }

  /** Whether `sealed` was sealed under this key. */
  opens(sealed: string): boolean {
    try {
      this.open(sealed);
      return true;
    } catch {
      return false;
    }
  }

  seal(value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

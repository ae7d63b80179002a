// Sealing secret values with AES-256-GCM under the instance key. The key comes
// from AION_SECRET_KEY, or for the embedded store from a file the first start
// generates in the data folder (mode 0600).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromBase64(text: string, source: string): SecretBox {
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new ConfigError(`${source} must be 32 bytes in base64 (openssl rand -base64 32)`);
    return new SecretBox(key);
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
    const file = path.join(options.dataDir, 'secret.key');
    try {
      return SecretBox.fromBase64(await readFile(file, 'utf8'), file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const key = randomBytes(32);
    // `wx`: never overwrite a key that appeared meanwhile.
    await writeFile(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    return new SecretBox(key);
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

// What services read at the live endpoint, computed once: a deployment's
// document with its secrets resolved, as JSON (YAML and the compressed forms
// made on first demand), kept per environment and path until a change notice
// touches the environment (a deploy, a secret set) or its project, here or on
// another server.
// Everyone asking while a read is under way shares it, so a deployment wakes
// all waiters of a path with one read.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { stringify } from 'yaml';
import { parseDocument, resolveSecrets, secretReferences } from '../documents/index.js';
import type { Changes, Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { environments, liveDocuments, projects, revisions } from '../store/schema.js';
import { openSecrets } from './secrets.js';
import type { SecretBox } from './secret-box.js';

export type Format = 'json' | 'yaml';
export type Encoding = 'identity' | 'gzip' | 'br';

/** Below this many bytes compressing saves less than it costs. */
const WORTH_COMPRESSING_BYTES = 1024;
/** Brotli's default (11) takes seconds on a large document; 5 compresses nearly as well. */
const BROTLI_QUALITY = 5;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * One deployment's body, as served. Its version names the deployment and,
 * when the document refers to secrets, the versions of those secrets: a
 * rotation gives a new version, so the bytes behind one ETag never change.
 */
export class LiveBody {
  private readonly forms = new Map<string, Promise<Buffer>>();

  constructor(
    readonly version: string,
    private readonly value: unknown,
    private readonly json: Buffer,
  ) {}

  /** Whether this body is large enough to send compressed. */
  get compressible(): boolean {
    return this.json.length >= WORTH_COMPRESSING_BYTES;
  }

  /** The ETag of one form: each form has its own, so a cache never serves one for another. */
  etag(format: Format, encoding: Encoding): string {
    const suffix = (format === 'json' ? '' : `-${format}`) + (encoding === 'identity' ? '' : `-${encoding}`);
    return `"${this.version}${suffix}"`;
  }

  /** The bytes of one form, made on first demand and kept. */
  bytes(format: Format, encoding: Encoding): Promise<Buffer> {
    const key = `${format} ${encoding}`;
    let made = this.forms.get(key);
    if (!made) {
      made = this.make(format, encoding);
      this.forms.set(key, made);
    }
    return made;
  }

  private async make(format: Format, encoding: Encoding): Promise<Buffer> {
    if (encoding !== 'identity') {
      const plain = await this.bytes(format, 'identity');
      if (encoding === 'gzip') return gzip(plain);
      return brotli(plain, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
      });
    }
    return format === 'json' ? this.json : Buffer.from(stringify(this.value), 'utf8');
  }
}

/** What a service token's environment holds at one path: whose it is, and the body live there (null when nothing is). */
export interface LiveEntry {
  projectId: string;
  project: string;
  environment: string;
  body: LiveBody | null;
}

interface Kept {
  entry: Promise<LiveEntry | null>;
  /** Known once the read is done; a notice about any project drops reads still under way. */
  projectId: string | null;
}

export class LiveBodies {
  private readonly kept = new Map<string, Kept>();
  private loads = 0;

  /** How many times an entry was read from the store (operations and tests read it). */
  get reads(): number {
    return this.loads;
  }

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly changes: Changes,
  ) {
    changes.subscribe((topic) => this.forget(topic));
  }

  /** The entry at one path of an environment (null: no such environment), from memory when it is there. */
  read(environmentId: string, path: string): Promise<LiveEntry | null> {
    const key = `${environmentId}\n${path}`;
    const known = this.kept.get(key);
    if (known) return known.entry;
    this.loads++;
    const kept: Kept = { entry: load(this.db, this.box, environmentId, path), projectId: null };
    // While notices may be missed, nothing is kept beyond the read itself;
    // those who ask while it is under way share it all the same.
    const keep = this.changes.hearing;
    this.kept.set(key, kept);
    kept.entry.then(
      (entry) => {
        kept.projectId = entry?.projectId ?? null;
        if (!entry || !keep) this.drop(key, kept);
      },
      () => this.drop(key, kept),
    );
    return kept.entry;
  }

  private drop(key: string, kept: Kept): void {
    if (this.kept.get(key) === kept) this.kept.delete(key);
  }

  private forget(topic: Topic): void {
    if (topic === '*') return this.kept.clear();
    if (topic.startsWith('environment:')) {
      const prefix = `${topic.slice('environment:'.length)}\n`;
      for (const key of this.kept.keys()) if (key.startsWith(prefix)) this.kept.delete(key);
    } else if (topic.startsWith('project:')) {
      const id = topic.slice('project:'.length);
      for (const [key, kept] of this.kept) if (kept.projectId === id || kept.projectId === null) this.kept.delete(key);
    }
  }
}

async function load(db: Db, box: SecretBox, environmentId: string, path: string): Promise<LiveEntry | null> {
  const [row] = await db
    .select({
      projectId: projects.id,
      project: projects.slug,
      environment: environments.name,
      deployment: liveDocuments.deploymentNumber,
      text: revisions.text,
    })
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .leftJoin(liveDocuments, and(eq(liveDocuments.environmentId, environments.id), eq(liveDocuments.path, path)))
    .leftJoin(revisions, and(eq(revisions.documentId, liveDocuments.documentId), eq(revisions.number, liveDocuments.revision)))
    .where(eq(environments.id, environmentId))
    .limit(1);
  if (!row) return null;
  const { deployment, text, ...names } = row;
  if (deployment === null || text === null) return { ...names, body: null };

  const value = parseDocument(text);
  const referenced = [...secretReferences(value)].sort();
  const opened = await openSecrets(db, box, environmentId, referenced);
  let version = String(deployment);
  if (referenced.length > 0) {
    const covered = referenced.map((name) => `${name}:${opened.get(name)?.version ?? 0}`).join(',');
    version += `.${createHash('sha256').update(covered).digest('hex').slice(0, 12)}`;
  }
  const resolved = resolveSecrets(value, (name) => opened.get(name)?.value);
  return { ...names, body: new LiveBody(version, resolved, Buffer.from(JSON.stringify(resolved), 'utf8')) };
}

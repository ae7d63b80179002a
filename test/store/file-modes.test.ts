// The data folder is its owner's alone: folders 0700, files 0600, when a
// start creates it, when a start finds it looser (repaired, and said), after
// ops restore; a backup is 0600. Where the tests run as root, `nobody` tries
// to read the key, the write-ahead log and the restored store, beside a file
// it can read, so a denial shows the modes at work, not an unreachable path.
import { execFile, spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateToken } from '../../src/access/tokens.js';
import { startServer } from '../../src/cli/serve.js';
import { readConfig } from '../../src/config.js';
import { ops, serveFolder } from '../helpers/ops.js';
import { freshDataDir } from '../helpers/store.js';

const run = promisify(execFile);
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const WAL = /^[0-9A-F]{24}$/;

let parent: string;
let control: string;

beforeAll(async () => {
  // Outside the run's scratch folder (0700): here only the modes under test stand between nobody and the files.
  parent = await mkdtemp(path.join(os.tmpdir(), 'aion-modes-'));
  await chmod(parent, 0o755);
  control = path.join(parent, 'control');
  await writeFile(control, 'anyone may read this', { mode: 0o644 });
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** Every entry under `folder` (itself included) that its group or other users may use, with its mode. */
async function looseEntries(folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (entry: string) => {
    const stats = await lstat(entry);
    if (stats.mode & 0o077) found.push(`${path.relative(folder, entry) || '.'} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of await readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(folder);
  return found;
}

/** The paths under `target` (itself included) that `nobody` may read, as `find -readable` run as nobody sees them. */
async function readableByNobody(target: string): Promise<string[]> {
  const child = spawn('find', [target, '-readable'], { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  await new Promise((resolve) => child.once('close', resolve));
  return out.split('\n').filter(Boolean);
}

async function walFile(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, 'pgdata', 'pg_wal');
  const name = (await readdir(folder)).find((entry) => WAL.test(entry));
  if (!name) throw new Error(`no WAL segment in ${folder}`);
  return path.join(folder, name);
}

async function modeOf(entry: string): Promise<number> {
  return (await stat(entry)).mode & 0o777;
}

describe.skipIf(!AS_ROOT)('nobody, beside these tests', () => {
  it('reads a file others may read, so a denial below is the modes at work', async () => {
    expect(await readableByNobody(control)).toEqual([control]);
  });
});

describe('file modes of the data folder', () => {
  it('a new data folder is owner-only: the store, its write-ahead log, the instance key, the demo tokens', async () => {
    const dataDir = path.join(parent, 'created');
    const server = await serveFolder(dataDir, { demo: true });
    await server.close();
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, 'demo-tokens.json'))).toBe(0o600);
    expect(await modeOf(await walFile(dataDir))).toBe(0o600);
    expect(await looseEntries(dataDir)).toEqual([]);
    if (AS_ROOT) {
      for (const file of ['secret.key', 'demo-tokens.json']) expect(await readableByNobody(path.join(dataDir, file))).toEqual([]);
      expect(await readableByNobody(await walFile(dataDir))).toEqual([]);
      expect(await readableByNobody(dataDir)).toEqual([]);
    }
  }, 180_000); // A store made from nothing (initdb, migrations, the demo): up to a minute on a loaded two-core machine.

  it('a start repairs a data folder others could read, and says how many entries it repaired', async () => {
    const dataDir = path.join(parent, 'older');
    await run('cp', ['-R', inject('pgliteTemplate'), dataDir]);
    // As an older Aion left it: folders 0755, PGlite's files 0666.
    await run('chmod', ['-R', 'go+rX', dataDir]);
    await chmod(await walFile(dataDir), 0o666);
    const loose = (await looseEntries(dataDir)).length;
    expect(loose).toBeGreaterThan(100);
    if (AS_ROOT) expect(await readableByNobody(dataDir)).toContain(await walFile(dataDir));

    const logs: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = readConfig({ host: '127.0.0.1', port: 0, data: dataDir, demo: false }, { AION_LOG_LEVEL: 'info', AION_ADMIN_TOKEN: generateToken('operator') });
    const server = await startServer(config, () => {}, logStream);
    await server.close();

    const said = logs.map((line) => JSON.parse(line) as { msg: string; repaired?: number }).filter((line) => line.repaired !== undefined);
    expect(said).toEqual([
      expect.objectContaining({ repaired: loose, msg: `${loose} entries of the data folder were open to other users; each is owner-only now (folders 0700, files 0600)` }),
    ]);
    expect(await looseEntries(dataDir)).toEqual([]);
    if (AS_ROOT) expect(await readableByNobody(dataDir)).toEqual([]);
  });

  it('a backup is 0600, and a restored store is owner-only, every table in it', async () => {
    const source = await freshDataDir();
    const file = path.join(parent, 'aion.backup');
    expect((await ops(['backup', file, '--data', source])).code).toBe(0);
    expect(await modeOf(file)).toBe(0o600);
    if (AS_ROOT) expect(await readableByNobody(file)).toEqual([]);

    // A folder made by hand for it, as mkdir leaves it (0755).
    const restored = path.join(parent, 'restored');
    await mkdir(restored);
    await chmod(restored, 0o755);
    expect((await ops(['restore', file, '--data', restored])).code).toBe(0);
    expect(await modeOf(restored)).toBe(0o700);
    expect(await looseEntries(restored)).toEqual([]);
    if (AS_ROOT) {
      expect(await readableByNobody(restored)).toEqual([]);
      expect(await readableByNobody(await walFile(restored))).toEqual([]);
    }
    await rm(source, { recursive: true, force: true });
  });
});

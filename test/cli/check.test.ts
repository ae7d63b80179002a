// `ops check` as an operator runs it: the built command on files on disk.
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_BIN } from '../helpers/paths.js';
import { scratchFolder } from '../helpers/scratch.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await scratchFolder('check');
  await writeFile(path.join(dir, 'schema.yaml'), 'type: object\nrequired: [port]\nproperties:\n  port: {type: integer}\n');
  await writeFile(path.join(dir, 'good.yaml'), 'port: 8080\ndsn: ${secret:DB}\n');
  await writeFile(path.join(dir, 'bad.yaml'), 'port: "80"\ndsn: ${secret:DB}\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function ops(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [OPS_BIN, 'check', ...args], { cwd: dir });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('ops check', () => {
  it('prints ok and exits 0 for a clean document', async () => {
    expect(await ops('good.yaml', '--schema', 'schema.yaml', '--secrets', 'DB')).toEqual({ code: 0, stdout: 'ok: good.yaml\n' });
  });

  it('prints compiler-style diagnostics and exits 1', async () => {
    const result = await ops('bad.yaml', '--schema', 'schema.yaml', '--secrets', 'OTHER');
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      'bad.yaml:1:7: error: port must be an integer, not the string "80"',
      'bad.yaml:2:6: error: secret DB is not set in this environment; set it with set_secret or remove the reference',
    ]);
  });
});

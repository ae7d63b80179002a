import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFiles } from '../../src/cli/check.js';
import type { CheckFilesOptions } from '../../src/cli/check.js';

let folder = '';
const file = (name: string): string => path.join(folder, name);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'aion-check-'));
  await mkdir(file('folder.yaml'));
  await mkdir(file('project'));
  const files: Record<string, string> = {
    'good.yaml': 'name: shop\nport: 8080\n',
    'broken.yaml': 'name: shop\nname: cart\n',
    'secret.yaml': 'name: shop\nurl: ${secret:DB_URL}\n',
    'wrong-port.yaml': 'name: shop\nport: "80"\n',
    'schema.yaml': 'type: object\nrequired: [name]\nproperties:\n  port: { type: integer }\n',
    'bad-schema.yaml': 'type: objekt\n',
    'project/aion.schema.yaml': 'type: strin\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(file(name), text);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function run(files: string[], options: CheckFilesOptions = {}): Promise<{ status: number; lines: string[] }> {
  const lines: string[] = [];
  const status = await checkFiles(files, options, (line) => lines.push(line));
  return { status, lines };
}

describe('checkFiles (ops check)', () => {
  it('prints ok and exits 0 for a clean file', async () => {
    expect(await run([file('good.yaml')])).toEqual({ status: 0, lines: [`ok: ${file('good.yaml')}`] });
  });

  it('prints compiler-style lines and exits 1 for diagnostics', async () => {
    expect(await run([file('good.yaml'), file('broken.yaml')])).toEqual({
      status: 1,
      lines: [
        `ok: ${file('good.yaml')}`,
        `${file('broken.yaml')}:2:1: error: duplicate key "name"; a mapping holds each key once, so remove or rename one of them`,
      ],
    });
  });

  it('checks secrets only with --secrets', async () => {
    expect(await run([file('secret.yaml')])).toEqual({ status: 0, lines: [`ok: ${file('secret.yaml')}`] });
    expect(await run([file('secret.yaml')], { secrets: ['DB_URL'] })).toEqual({ status: 0, lines: [`ok: ${file('secret.yaml')}`] });
    expect(await run([file('secret.yaml')], { secrets: ['OTHER', ' '] })).toEqual({
      status: 1,
      lines: [
        `${file('secret.yaml')}:2:6: error: secret DB_URL is not set in this environment; set it with set_secret or remove the reference`,
      ],
    });
  });

  it('checks against a schema with --schema', async () => {
    expect(await run([file('good.yaml'), file('wrong-port.yaml')], { schema: file('schema.yaml') })).toEqual({
      status: 1,
      lines: [
        `ok: ${file('good.yaml')}`,
        `${file('wrong-port.yaml')}:2:7: error: port must be an integer, not the string "80"`,
      ],
    });
  });

  it('checks a file named aion.schema.yaml as a schema', async () => {
    expect(await run([file('project/aion.schema.yaml')])).toEqual({
      status: 1,
      lines: [
        `${file('project/aion.schema.yaml')}:1:7: error: type must be one of "array", "boolean", "integer", "null", "number", "object", "string"`,
      ],
    });
  });

  it('exits 2 when a file cannot be read, and still checks the others', async () => {
    expect(await run([file('missing.yaml'), file('folder.yaml'), file('broken.yaml')])).toEqual({
      status: 2,
      lines: [
        `cannot read ${file('missing.yaml')}: no such file`,
        `cannot read ${file('folder.yaml')}: it is a directory`,
        `${file('broken.yaml')}:2:1: error: duplicate key "name"; a mapping holds each key once, so remove or rename one of them`,
      ],
    });
  });

  it('exits 2 without checking when the schema cannot be read or is not a valid schema', async () => {
    expect(await run([file('good.yaml')], { schema: file('missing.yaml') })).toEqual({
      status: 2,
      lines: [`cannot read ${file('missing.yaml')}: no such file`],
    });
    expect(await run([file('good.yaml')], { schema: file('bad-schema.yaml') })).toEqual({
      status: 2,
      lines: [
        `${file('bad-schema.yaml')}:1:7: error: type must be one of "array", "boolean", "integer", "null", "number", "object", "string"`,
        `${file('bad-schema.yaml')} is not a usable schema; fix it, then check again`,
      ],
    });
  });

  it('exits 2 when given no file', async () => {
    expect(await run([])).toEqual({ status: 2, lines: ['name at least one file to check, e.g. ops check app.yaml'] });
  });
});

// The check CI runs on `npm install`'s output (scripts/check-install-output.ts,
// issue 37): the one engine warning the README explains passes where the
// running Node is below the sandbox runtime's declared engine and fails where
// it is not, and any other warning or notice fails with the lines it found.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const belowRuntimeEngine = major < 22 || (major === 22 && minor < 12);

const engineBlock = (pkg: string, required: string) => [
  'npm warn EBADENGINE Unsupported engine {',
  `npm warn EBADENGINE   package: '${pkg}',`,
  `npm warn EBADENGINE   required: { node: '${required}' },`,
  `npm warn EBADENGINE   current: { node: 'v${process.versions.node}', npm: '11.19.1' }`,
  'npm warn EBADENGINE }',
];
const SANDBOX = engineBlock('@anthropic-ai/sandbox-runtime@0.0.83', '>=22.12.0');
const TAIL = ['', 'added 500 packages in 8m'];

/** The check's exit code and what it said, on `lines` as npm's output. */
async function check(lines: string[]): Promise<{ code: number; said: string }> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'aion-install-')), 'npm.log');
  await writeFile(file, lines.join('\n'));
  try {
    const { stderr } = await run(TSX, [path.join(ROOT, 'scripts/check-install-output.ts'), file], { cwd: ROOT });
    return { code: 0, said: stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, said: failed.stderr };
  }
}

describe("the check of npm install's output", () => {
  it('passes a quiet install', async () => {
    expect(await check(TAIL)).toMatchObject({ code: 0, said: expect.stringContaining('no warning') as unknown });
  });

  it(`${belowRuntimeEngine ? 'passes' : 'fails'} the sandbox runtime's engine warning on Node ${process.versions.node}`, async () => {
    expect((await check([...SANDBOX, ...TAIL])).code).toBe(belowRuntimeEngine ? 0 : 1);
  });

  it('fails any other engine warning, naming it', async () => {
    const { code, said } = await check([...SANDBOX, ...engineBlock('content-disposition@3.1.0', '>=22'), ...TAIL]);
    expect(code).toBe(1);
    expect(said).toContain("package: 'content-disposition@3.1.0'");
  });

  it('fails a notice the README does not explain', async () => {
    const { code, said } = await check(['npm notice a script was not run: esbuild (see allowScripts)', ...TAIL]);
    expect(code).toBe(1);
    expect(said).toContain('npm notice a script was not run');
  });
});

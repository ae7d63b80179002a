// A failed test prints the logs of the servers it spawned (issue 30): a 500
// in a two-server test says its cause below the failure.
import { execFile } from 'node:child_process';
import { expect, it } from 'vitest';

it('prints the log of each server a failed test spawned', async () => {
  const printed = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/vitest.config.ts'],
      { env: { ...process.env, FORCE_COLOR: '0' } },
      (_error, stdout, stderr) => resolve(stdout + stderr),
    );
  });
  expect(printed).toContain('1 failed');
  expect(printed).toMatch(/--- log of ops serve at http:\/\/127\.0\.0\.1:\d+ \(pid \d+, 0\), last \d+ lines ---/);
  // One of its lines, as the server wrote it.
  expect(printed).toMatch(/\{"level":30,.*"pid":\d+/);
}, 180_000); // A whole vitest run of its own, which starts a server.

// A setup file of every test file: when a test fails, the logs of the servers
// it spawned (test/helpers/process.ts) are printed below its failure, so a
// 500 or a crash in another process says why.
import { afterAll, beforeEach } from 'vitest';
import { spawnedServers } from './process.js';

/** The last lines of each server's log: enough for the failure, not a flood. */
const LAST_LINES = 300;

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const server of spawnedServers) {
      const lines = server.stderr.slice(-LAST_LINES);
      const status = server.child.exitCode ?? server.child.signalCode ?? 'running';
      console.error([`--- log of ops serve at ${server.url} (pid ${server.child.pid}, ${status}), last ${lines.length} lines ---`, ...lines].join('\n'));
    }
  });
});

// Test files share their worker's modules (isolate: false): the next file starts with none.
afterAll(() => spawnedServers.clear());

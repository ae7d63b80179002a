import { defineConfig } from 'vitest/config';
import LongestFirst from './test/helpers/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real ACP agents (test/acp/real) run apart, in .ci/run (DESIGN §11): `npm test` stays within five minutes.
    exclude: process.env.AION_REAL_AGENTS ? [] : ['test/acp/real/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Prints the spawned servers' logs below a failed test.
    setupFiles: ['test/helpers/server-logs.ts'],
    pool: 'forks',
    // Three workers on two cores: a worker spends most of its time waiting (on
    // the servers, agents and browser it started, on timers and polls), so two
    // left the cores idle (docs/decisions.md, "The test suite's time").
    maxWorkers: 3,
    // Test files share their worker's loaded modules instead of importing
    // Fastify, PGlite and the MCP SDK afresh each (a third of the run's time).
    // No file relies on module state of its own; each opens its own store.
    isolate: false,
    // Longest files first, also on a clean clone (test/helpers/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    // expect.poll waits for what a page or a server does next: 1 s (the
    // default) was once too short for a browser under the full suite's load.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});

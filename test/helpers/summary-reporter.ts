// Ends the run with one plain line, `tests: N passed, N failed, N skipped`,
// which CI reads as the runner's summary; before it, why the PostgreSQL half
// did not run, when it did not.
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of modules) {
      // A file that failed to load, or a hook that failed, fails without a failed test.
      if (module.errors().length > 0) failed++;
      for (const suite of module.children.allSuites()) if (suite.errors().length > 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    if (!process.env.AION_TEST_DATABASE_URL) {
      process.stdout.write(
        '\nPostgreSQL tests skipped: AION_TEST_DATABASE_URL is not set. To run them, point it at a server the suite may create databases on:\n' +
          '  AION_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test\n',
      );
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

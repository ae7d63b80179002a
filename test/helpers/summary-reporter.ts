// Ends the run with one plain line, `tests: N passed, N failed, N skipped`,
// which CI reads as the runner's summary; before it, the failed tests by name
// (a CI log may keep only its tail, so a failure must be named there too,
// with the first line of why it failed),
// and why the PostgreSQL half did not run, when it did not.
import path from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** How many failed tests the tail names; the default reporter above shows them all. */
const NAMED_FAILURES = 20;
/** How much of a failure's first line the tail keeps. */
const WHY_LENGTH = 240;

/** A failed test's name, and below it the first line of its first error. */
function named(name: string, errors: ReadonlyArray<{ message?: string }> | undefined): string {
  const why = errors?.[0]?.message?.split('\n').find((line) => line.trim())?.trim();
  return why ? `${name}\n    ${why.slice(0, WHY_LENGTH)}` : name;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const failures: string[] = unhandledErrors.map((error) => `an unhandled error: ${error.message ?? error.name ?? 'unknown'}`);
    for (const module of modules) {
      const file = path.relative(process.cwd(), module.moduleId);
      // A file that failed to load, or a hook that failed, fails without a failed test.
      if (module.errors().length > 0) {
        failed++;
        failures.push(named(`${file} (the file failed to load or its hooks failed)`, module.errors()));
      }
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) {
          failed++;
          failures.push(named(`${file} > ${suite.fullName} (a hook failed)`, suite.errors()));
        }
      }
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(named(`${file} > ${test.fullName}`, result.errors));
        } else skipped++;
      }
    }
    if (failures.length > 0) {
      const more = failures.length > NAMED_FAILURES ? `\n  … and ${failures.length - NAMED_FAILURES} more (above)` : '';
      process.stdout.write(`\nfailed:\n${failures.slice(0, NAMED_FAILURES).map((name) => `  ${name}`).join('\n')}${more}\n`);
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

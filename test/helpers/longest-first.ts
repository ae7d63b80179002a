// Orders test files longest first, so the last minute of a run is not one
// long file on one worker while the others sit idle. Vitest does this itself
// from its results cache, which a clean clone (CI) does not have; there the
// committed table test/durations.json, written by `npm run test:durations`
// from a run's cache, stands in. A file in neither runs first: it may be long.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Milliseconds each file took, by its path from the repository's root. */
function committedDurations(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(path.join(root, 'test', 'durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const table = committedDurations(root);
    const durationOf = (file: TestSpecification): number => {
      const relative = path.relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative}`)?.duration;
      return cached ?? table[relative] ?? Number.MAX_SAFE_INTEGER;
    };
    return [...files].sort((a, b) => durationOf(b) - durationOf(a));
  }
}

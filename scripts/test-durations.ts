// Writes test/durations.json, the table test/helpers/longest-first.ts orders a
// clean clone's run by, from the durations vitest's cache kept of the last
// full run on this checkout (`npm test` first). Rounded to 100 ms: only the
// order matters.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/package-root.js';

const CACHE = path.join(PACKAGE_ROOT, 'node_modules', '.vite', 'vitest');
const TABLE = path.join(PACKAGE_ROOT, 'test', 'durations.json');

interface CachedResults {
  results: Array<[string, { duration: number; failed: boolean }]>;
}

const durations: Record<string, number> = {};
for (const project of await readdir(CACHE).catch(() => [])) {
  const file = path.join(CACHE, project, 'results.json');
  const cached = JSON.parse(await readFile(file, 'utf8').catch(() => '{"results":[]}')) as CachedResults;
  for (const [key, { duration }] of cached.results) {
    const relative = key.slice(key.indexOf(':') + 1);
    if (relative.startsWith('test/')) durations[relative] = Math.round(duration / 100) * 100;
  }
}
const files = Object.entries(durations).sort(([, a], [, b]) => b - a);
const longest = files[0];
if (!longest) {
  process.stderr.write(`No durations in ${CACHE}: run \`npm test\` first, then this again.\n`);
  process.exit(1);
}
await writeFile(TABLE, `${JSON.stringify(Object.fromEntries(files), null, 2)}\n`);
process.stdout.write(`Wrote ${files.length} files' durations to test/durations.json (longest: ${longest[0]}, ${longest[1]} ms).\n`);

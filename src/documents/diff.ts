import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** Lines of context around each change, as `diff -u` and git show. */
const CONTEXT_LINES = 3;

/**
 * A unified diff of one document between two versions, headed
 * `--- PATH<TAB>FROM` / `+++ PATH<TAB>TO` (e.g. `--- app.yaml	r3`);
 * the empty string when the texts are equal.
 */
export function unifiedDiff(path: string, fromLabel: string, fromText: string, toLabel: string, toText: string): string {
  if (fromText === toText) return '';
  return createTwoFilesPatch(path, path, fromText, toText, fromLabel, toLabel, {
    context: CONTEXT_LINES,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

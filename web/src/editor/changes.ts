// Edits between texts as CodeMirror change sets, and the agent's edits
// rebased over the operator's own: both start from the text the server last
// shared, so the agent's changes map through the operator's and the result
// keeps both (and the operator's cursor, which the transaction maps).
import { diff } from '@codemirror/merge';
import { ChangeSet } from '@codemirror/state';

export function changesBetween(a: string, b: string): ChangeSet {
  return ChangeSet.of(
    diff(a, b).map((c) => ({ from: c.fromA, to: c.toA, insert: b.slice(c.fromB, c.toB) })),
    a.length,
  );
}

/** The agent's edits (`base` → `theirs`), applicable to `mine` (which also started at `base`). */
export function agentChangesOver(base: string, theirs: string, mine: string): ChangeSet {
  return changesBetween(base, theirs).map(changesBetween(base, mine));
}

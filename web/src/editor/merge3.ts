// A three-way merge by lines: the operator's text and another operator's
// revision, both changed from the revision the operator started on. Changes
// to different lines are both kept; where both changed the same lines
// differently, the merge holds a conflict and the caller picks a side.
import { diffArrays } from 'diff';

export interface Conflict {
  base: string;
  mine: string;
  theirs: string;
  /** Where it starts in their text (1-based line). */
  theirsLine: number;
}

/** The merged text, in order: agreed text, and the conflicts between. */
export type Merged = (string | Conflict)[];

export type Side = 'mine' | 'theirs';

interface Change {
  side: Side;
  /** The base lines [from, to) it replaces. */
  from: number;
  to: number;
  lines: string[];
}

/** Lines with their line breaks, so a text without a final newline merges back as it was. */
const linesOf = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

function changesFrom(base: string[], text: string[], side: Side): Change[] {
  const changes: Change[] = [];
  let at = 0;
  let open: Change | null = null;
  for (const part of diffArrays(base, text)) {
    if (!part.added && !part.removed) {
      at += part.value.length;
      open = null;
      continue;
    }
    if (!open) changes.push((open = { side, from: at, to: at, lines: [] }));
    if (part.removed) open.to = at += part.value.length;
    else open.lines.push(...part.value);
  }
  return changes;
}

/** One side's version of base lines [from, to), with its changes in that range applied. */
function versionOf(base: string[], from: number, to: number, changes: Change[]): string {
  const out: string[] = [];
  let at = from;
  for (const change of changes) {
    out.push(...base.slice(at, change.from), ...change.lines);
    at = change.to;
  }
  out.push(...base.slice(at, to));
  return out.join('');
}

export function merge3(baseText: string, mineText: string, theirsText: string): Merged {
  const base = linesOf(baseText);
  const changes = [...changesFrom(base, linesOf(mineText), 'mine'), ...changesFrom(base, linesOf(theirsText), 'theirs')].sort(
    (a, b) => a.from - b.from,
  );
  const merged: Merged = [];
  const agree = (text: string) => {
    const last = merged[merged.length - 1];
    if (typeof last === 'string') merged[merged.length - 1] = last + text;
    else if (text) merged.push(text);
  };
  let at = 0;
  /** How far their text has come, in lines, for the conflicts' line numbers. */
  let theirsLines = 0;
  for (let i = 0; i < changes.length; ) {
    // A hunk: changes that overlap (or start together) over the base, from either side.
    const first = changes[i] as Change;
    const hunk = [first];
    let to = first.to;
    for (i++; i < changes.length; i++) {
      const next = changes[i] as Change;
      if (!(next.from < to || next.from === first.from)) break;
      hunk.push(next);
      to = Math.max(to, next.to);
    }
    const unchanged = versionOf(base, at, first.from, []);
    agree(unchanged);
    theirsLines += first.from - at;
    const mine = versionOf(base, first.from, to, hunk.filter((c) => c.side === 'mine'));
    const theirs = versionOf(base, first.from, to, hunk.filter((c) => c.side === 'theirs'));
    const baseLines = versionOf(base, first.from, to, []);
    if (mine === theirs || theirs === baseLines) agree(mine);
    else if (mine === baseLines) agree(theirs);
    else merged.push({ base: baseLines, mine, theirs, theirsLine: theirsLines + 1 });
    theirsLines += linesOf(theirs).length;
    at = to;
  }
  agree(versionOf(base, at, base.length, []));
  return merged;
}

export function conflictsOf(merged: Merged): Conflict[] {
  return merged.filter((part): part is Conflict => typeof part !== 'string');
}

/** The merged text with each conflict resolved to the side chosen for it (theirs unless chosen otherwise). */
export function resolve(merged: Merged, chosen: readonly Side[]): string {
  let conflict = 0;
  return merged.map((part) => (typeof part === 'string' ? part : part[chosen[conflict++] ?? 'theirs'])).join('');
}

// A compact line diff (removed and added lines, a little context), for the
// proposal cards and the save conflict.
import { diffLines } from 'diff';

const CONTEXT = 2;

export function LineDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const lines: { kind: ' ' | '-' | '+'; text: string }[] = [];
  for (const part of diffLines(before, after)) {
    const kind = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  const near = (i: number) => lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.kind !== ' ');
  const shown = lines.map((line, i) => (line.kind !== ' ' || near(i) ? line : null));
  if (!lines.some((l) => l.kind !== ' ')) return <p className="muted small">No difference.</p>;
  return (
    <pre className="line-diff" aria-label={label}>
      {shown.map((line, i) =>
        line ? (
          <div key={i} className={line.kind === '+' ? 'added' : line.kind === '-' ? 'removed' : undefined}>
            {line.kind} {line.text}
          </div>
        ) : shown[i - 1] ? (
          <div key={i} className="gap">
            ⋯
          </div>
        ) : null,
      )}
    </pre>
  );
}

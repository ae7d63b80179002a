// Someone saved while the operator was typing: who, and a three-way merge of
// the operator's text with theirs over the revision both started from.
// Changes to different lines are both kept; where both changed the same
// lines, their lines are kept unless the operator chooses theirs own. The
// diff shows what the merge makes of their revision — a choice that drops
// their lines shows them removed. Nothing is saved here: Merge puts the
// result in the editor (Ctrl+Z undoes it) for the operator to check and save.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { RevisionView } from '../../../src/wire/document';
import { LineDiff } from '../ui/LineDiff';
import { conflictsOf, merge3, resolve, type Conflict, type Side } from './merge3';

interface Props {
  theirs: RevisionView;
  /** The revision the operator's text started from, and its text (null while it is read). */
  base: number | null;
  baseText: string | null;
  mine: string;
  onMerge: (text: string) => void;
  onTakeTheirs: () => void;
}

export function MergePanel({ theirs, base, baseText, mine, onMerge, onTakeTheirs }: Props) {
  const titleId = useId();
  const who = theirs.author ?? 'someone';
  const merged = useMemo(() => (baseText === null ? null : merge3(baseText, mine, theirs.text)), [baseText, mine, theirs.text]);
  const conflicts = merged ? conflictsOf(merged) : [];
  const [chosen, setChosen] = useState<Side[]>([]);
  const result = merged ? resolve(merged, chosen) : null;

  // The question is here now: the focus comes to it (and a screen reader reads its title).
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), []);

  return (
    <section ref={panel} className="merge-panel" aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId}>
        {who} saved r{theirs.revision}
        {theirs.message ? ` (“${theirs.message}”)` : ''} while you were editing{base === null ? '' : ` r${base}`}
      </h2>
      <p>
        Nothing is saved yet. Merge puts their changes and yours together in the editor, to check and save; Take theirs replaces your text with
        r{theirs.revision}. Ctrl+Z undoes either.
      </p>
      {result === null ? (
        <p className="muted">Reading r{base}, where you started…</p>
      ) : (
        <>
          {conflicts.length === 0 ? (
            <p>Your changes and theirs touch different lines: Merge keeps both.</p>
          ) : (
            <p>
              You both changed {conflicts.length === 1 ? 'the same lines' : `the same lines in ${conflicts.length} places`}: Merge keeps {who}&apos;s unless you
              choose yours.
            </p>
          )}
          {conflicts.map((conflict, i) => (
            <ConflictChoice
              key={i}
              conflict={conflict}
              revision={theirs.revision}
              who={who}
              side={chosen[i] ?? 'theirs'}
              onChoose={(side) => setChosen((all) => conflicts.map((_, j) => (j === i ? side : (all[j] ?? 'theirs'))))}
            />
          ))}
          {result === theirs.text ? (
            <p className="muted">With these choices, Merge gives r{theirs.revision} as {who} saved it.</p>
          ) : (
            <div className="merge-result">
              <p className="muted small">What Merge makes of r{theirs.revision} (+ added, − taken out):</p>
              <LineDiff before={theirs.text} after={result} label={`What Merge makes of r${theirs.revision}`} />
            </div>
          )}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onTakeTheirs}>
          Take theirs
        </button>
        <button type="button" className="primary" disabled={result === null} onClick={() => result !== null && onMerge(result)}>
          Merge
        </button>
      </div>
    </section>
  );
}

interface ChoiceProps {
  conflict: Conflict;
  revision: number;
  who: string;
  side: Side;
  onChoose: (side: Side) => void;
}

function ConflictChoice({ conflict, revision, who, side, onChoose }: ChoiceProps) {
  const name = useId();
  const option = (value: Side, label: string, text: string) => (
    <label className={side === value ? 'merge-side chosen' : 'merge-side'}>
      <span>
        <input type="radio" name={name} checked={side === value} onChange={() => onChoose(value)} /> {label}
      </span>
      <pre>{text || '(nothing: the lines are removed)'}</pre>
    </label>
  );
  return (
    <fieldset className="merge-conflict">
      <legend>
        Both changed line {conflict.theirsLine} of r{revision}
      </legend>
      {option('theirs', `Keep ${who}'s`, conflict.theirs)}
      {option('mine', 'Keep yours', conflict.mine)}
    </fieldset>
  );
}

// Someone saved while the operator was typing: who, what differs, and the
// two ways on — take theirs, or save mine on top. The typed text stays in the
// editor (and its draft) until the operator picks.
import type { Revision } from '../api/types';
import { LineDiff } from '../ui/LineDiff';

interface Props {
  theirs: Revision;
  mine: string;
  busy: boolean;
  onTakeTheirs: () => void;
  onSaveMine: () => void;
}

export function ConflictPanel({ theirs, mine, busy, onTakeTheirs, onSaveMine }: Props) {
  return (
    <section className="conflict" role="alert" aria-label="Save conflict">
      <p>
        <strong>{theirs.author ?? 'Someone'}</strong> saved r{theirs.revision}
        {theirs.message ? ` (“${theirs.message}”)` : ''} while you were editing. Your text is kept; here is how it differs from theirs.
      </p>
      <LineDiff before={theirs.text} after={mine} label={`Your text against r${theirs.revision}`} />
      <div className="dialog-actions">
        <button type="button" onClick={onTakeTheirs} disabled={busy}>
          Take theirs
        </button>
        <button type="button" className="primary" onClick={onSaveMine} disabled={busy}>
          Save mine on top
        </button>
      </div>
    </section>
  );
}

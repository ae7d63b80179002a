// Someone else saved the open document: which revision, who, and the ways
// on. With nothing unsaved the editor already shows it (Diff shows what they
// changed); with unsaved text the text stays (Diff compares it with theirs)
// until the operator merges it with theirs, reloads theirs — Ctrl+Z undoes
// either — or saves, which meets their revision in the same merge.
import type { RevisionView } from '../../../src/wire/document';

interface Props {
  theirs: RevisionView;
  /** The editor shows their revision already (there was nothing unsaved). */
  shown: boolean;
  diffing: boolean;
  onDiff: () => void;
  onMerge: () => void;
  onReload: () => void;
  onDismiss: () => void;
}

export function SavedElsewhere({ theirs, shown, diffing, onDiff, onMerge, onReload, onDismiss }: Props) {
  return (
    <section className="saved-elsewhere" role="status" aria-label="Saved elsewhere">
      <p>
        <strong>
          r{theirs.revision} saved by {theirs.author ?? 'someone'}
        </strong>
        {theirs.message ? ` (“${theirs.message}”)` : ''}
        {shown ? ' — shown now.' : ' — your unsaved text is kept. Merge puts yours and theirs together; Reload replaces yours with theirs (Ctrl+Z brings it back).'}
      </p>
      <button type="button" aria-pressed={diffing} onClick={onDiff} title={shown ? 'What they changed' : `Your text against r${theirs.revision}`}>
        Diff
      </button>
      {!shown && (
        <>
          <button type="button" onClick={onMerge}>
            Merge
          </button>
          <button type="button" onClick={onReload}>
            Reload
          </button>
        </>
      )}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

// Sign out clears the tab, unsaved drafts too: with drafts, it first says
// which documents they are (each a link to go and save it) and asks. Keep
// drafts is the default; it gives the focus back to Sign out.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { listDrafts, type DraftPlace } from '../editor/drafts';
import { editorHref } from '../history/links';
import { Dialog } from '../ui/Dialog';
import { signOut } from './token';

export function SignOut() {
  const [drafts, setDrafts] = useState<DraftPlace[] | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  // After the dialog's own effect has opened it (children's effects run first).
  useEffect(() => {
    if (drafts) keep.current?.focus();
  }, [drafts]);

  function ask() {
    const found = listDrafts();
    if (found.length === 0) signOut();
    else setDrafts(found);
  }

  function close() {
    setDrafts(null);
    button.current?.focus();
  }

  const count = drafts?.length === 1 ? 'an unsaved draft' : `${drafts?.length ?? 0} unsaved drafts`;
  return (
    <>
      <button ref={button} type="button" onClick={ask}>
        Sign out
      </button>
      <Dialog title="Sign out and lose unsaved drafts?" open={drafts !== null} onClose={close}>
        <p>This tab holds {count}; signing out discards {drafts?.length === 1 ? 'it' : 'them'}:</p>
        <ul>
          {drafts?.map((draft) => (
            <li key={`${draft.project}/${draft.path}`}>
              <Link href={editorHref(draft.project, draft.path)} onClick={() => setDrafts(null)}>
                {draft.project} / {draft.path}
              </Link>
            </li>
          ))}
        </ul>
        <div className="dialog-actions">
          <button ref={keep} type="button" onClick={close}>
            Keep drafts
          </button>
          <button type="button" className="primary danger" onClick={signOut}>
            Discard drafts and sign out
          </button>
        </div>
      </Dialog>
    </>
  );
}

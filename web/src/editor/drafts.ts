// Unsaved text survives a reload of the tab (sessionStorage, this tab only),
// with the revision it was typed on, so Save still sends the right base.
// Closing the tab or signing out would lose it: both ask first (listDrafts).
// No CodeMirror here: the first page loads this module for those questions.
// A large text is kept as its changes from the text of the revision it was
// typed on: writing a whole 1 MiB copy into sessionStorage took 0.5–1.5 s
// of the tab's one thread on a loaded machine, so it is never written whole.
export interface Draft {
  /** The revision the text was typed on; null for a document not saved yet. */
  base: number | null;
  text: string;
}

/** A draft as kept: its text, or (a large one) CodeMirror's ChangeSet JSON from revision `base`'s text ('' when null). */
export type StoredDraft = Draft | { base: number | null; changes: unknown };

/** Texts up to this many characters are kept whole (a copy costs nothing much); longer ones as their changes. */
export const WHOLE_DRAFT_MAX = 64 * 1024;

export interface DraftPlace {
  project: string;
  path: string;
}

const PREFIX = 'aion.draft.';
const key = (project: string, path: string) => `${PREFIX}${project}/${path}`;

export function readDraft(project: string, path: string): StoredDraft | null {
  const stored = sessionStorage.getItem(key(project, path));
  if (!stored) return null;
  try {
    return JSON.parse(stored) as StoredDraft;
  } catch {
    return null;
  }
}

export function keepDraft(project: string, path: string, draft: StoredDraft | null): void {
  if (draft) sessionStorage.setItem(key(project, path), JSON.stringify(draft));
  else sessionStorage.removeItem(key(project, path));
}

/** Every document this tab holds unsaved text for (a project slug has no `/`). */
export function listDrafts(): DraftPlace[] {
  const places: DraftPlace[] = [];
  for (let i = 0; i < sessionStorage.length; i++) {
    const stored = sessionStorage.key(i);
    if (!stored?.startsWith(PREFIX)) continue;
    const rest = stored.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    places.push({ project: rest.slice(0, slash), path: rest.slice(slash + 1) });
  }
  return places.sort((a, b) => `${a.project}/${a.path}`.localeCompare(`${b.project}/${b.path}`));
}

/** Closing or reloading the tab with a draft asks first (the browser's own question; pages may not word it). */
export function warnBeforeLeavingDrafts(): void {
  window.addEventListener('beforeunload', (event) => {
    if (listDrafts().length > 0) event.preventDefault();
  });
}

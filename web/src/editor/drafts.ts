// Unsaved text survives a reload of the tab (sessionStorage, this tab only),
// with the revision it was typed on, so Save still sends the right base.
export interface Draft {
  /** The revision the text was typed on; null for a document not saved yet. */
  base: number | null;
  text: string;
}

const key = (project: string, path: string) => `aion.draft.${project}/${path}`;

export function readDraft(project: string, path: string): Draft | null {
  const stored = sessionStorage.getItem(key(project, path));
  if (!stored) return null;
  try {
    return JSON.parse(stored) as Draft;
  } catch {
    return null;
  }
}

export function keepDraft(project: string, path: string, draft: Draft | null): void {
  if (draft) sessionStorage.setItem(key(project, path), JSON.stringify(draft));
  else sessionStorage.removeItem(key(project, path));
}

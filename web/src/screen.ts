// What is on the operator's screen, for the assistant panel to share: the
// concepts the page declares and, on the editor route, the open document.
// The editor registers itself here; the panel never imports the editor.
import { useEffect } from 'react';
import type { SharedDocument } from '../../src/wire/context';

export interface OpenEditor {
  /** The document as the operator sees it now, unsaved text, selection and cursor included. */
  snapshot(): SharedDocument;
  /**
   * Applies the agent's edits (`base` → `theirs`) to the buffer as one
   * transaction, keeping the operator's cursor and own edits made since `base`.
   */
  applyAgentText(base: string, theirs: string): void;
}

interface Screen {
  concepts: string[];
  editor: OpenEditor | null;
  /** Bumped whenever something shared changes (text, selection, page). */
  version: number;
}

let screen: Screen = { concepts: [], editor: null, version: 0 };
const listeners = new Set<() => void>();

function update(next: Partial<Screen>): void {
  screen = { ...screen, ...next, version: screen.version + 1 };
  listeners.forEach((listener) => listener());
}

export function currentScreen(): Screen {
  return screen;
}

/**
 * Calls `listener` after each change of what is shared, outside React: a key
 * typed in a large document must not render the panels that share it.
 */
export function onScreenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}


/** A page declares the concepts it is about (the titles GET /api/v1/concepts lists). */
export function useConcepts(...concepts: string[]): void {
  const key = concepts.join('|');
  useEffect(() => {
    update({ concepts: key.split('|') });
  }, [key]);
}

export function registerEditor(editor: OpenEditor): () => void {
  update({ editor });
  return () => {
    if (screen.editor === editor) update({ editor: null });
  };
}

/** The open editor's text, selection or cursor moved. */
export function editorChanged(): void {
  update({});
}

import { findAllOccurrences } from './occurrences.js';
import { PieceText } from './pieces.js';

export interface TextEdit {
  /** The exact text to replace; it must occur exactly once. */
  old_string: string;
  new_string: string;
}

/** One replacement in a text: `removed` UTF-16 code units at `at` became `text`. */
export interface Replacement {
  at: number;
  removed: number;
  text: string;
}

export type EditsResult =
  /** `replacements`: where each edit landed, in order, each in the text the edits before it left. */
  | { ok: true; text: string; replacements: Replacement[] }
  /** `index` is the 1-based number of the edit that failed, as in the message. */
  | { ok: false; index: number; message: string };

/**
 * Applies the edits in order, each against the text the previous one
 * produced, all or nothing. The occurrences of every old_string in the
 * original are found in one pass; each edit then only looks at what the
 * edits before it changed, so a batch costs about one scan of the text.
 */
export function applyEdits(text: string, edits: ReadonlyArray<TextEdit>): EditsResult {
  const original = findAllOccurrences(
    text,
    edits.map((edit) => edit.old_string),
  );
  const document = new PieceText(text);
  const replacements: Replacement[] = [];
  for (const [position, edit] of edits.entries()) {
    const fail = (reason: string): EditsResult => ({ ok: false, index: position + 1, message: `edit ${position + 1}: ${reason}` });
    if (edit.old_string === '') {
      // The one place an empty string occurs exactly once: an empty document.
      if (document.size !== 0) return fail('old_string is empty; quote the text to replace (only an empty document takes an empty old_string)');
      document.replace(0, 0, edit.new_string);
      replacements.push({ at: 0, removed: 0, text: edit.new_string });
      continue;
    }
    const [at, another] = document.find(edit.old_string, original.get(edit.old_string) ?? [], 2);
    if (at === undefined) return fail(notFound(text, edit.old_string, position > 0));
    if (another !== undefined) return fail('old_string occurs more than once; quote more surrounding text to make it unique');
    document.replace(at, edit.old_string.length, edit.new_string);
    replacements.push({ at, removed: edit.old_string.length, text: edit.new_string });
  }
  return { ok: true, text: document.toString(), replacements };
}

/** The text once each replacement is made in turn, each in the text the one before left. */
export function applyReplacements(text: string, replacements: Iterable<Replacement>): string {
  const document = new PieceText(text);
  for (const { at, removed, text: inserted } of replacements) document.replace(at, removed, inserted);
  return document.toString();
}

function notFound(text: string, oldString: string, afterOtherEdits: boolean): string {
  const where = afterOtherEdits ? 'the document as the edits before it left it' : 'the document';
  const lineBreaks = /(^|[^\r])\n/.test(oldString) && text.includes('\r\n') ? ', which are \\r\\n in this document' : '';
  return `old_string does not occur in ${where}; quote the text exactly as it stands, including spaces and line breaks${lineBreaks}`;
}

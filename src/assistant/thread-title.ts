// A conversation's title: made short from its first message (the picker shows
// a line, not a pasted script), or given by the operator (PATCH …/threads/{id}).
import { invalid } from '../errors.js';

/** The longest title an operator may give. */
export const TITLE_MAX = 80;
/** A title made from a first message is cut near here, at a word. */
const SHORT = 60;

/** The first line with words in it, without Markdown's leading marks, cut at a word near 60 characters. */
export function shortTitle(message: string): string {
  const line = message.split('\n').map(plain).find((l) => l !== '') ?? '';
  if (line.length <= SHORT) return line;
  const space = line.lastIndexOf(' ', SHORT);
  return `${line.slice(0, space > SHORT / 2 ? space : SHORT - 1)}…`;
}

/** An operator's title, its spaces collapsed; 422 with why when it is empty or too long. */
export function givenTitle(title: string): string {
  const given = title.replace(/\s+/g, ' ').trim();
  if (given === '') throw invalid('the title is empty; give the conversation a few words');
  if (given.length > TITLE_MAX) throw invalid(`the title is ${given.length} characters long; keep it to ${TITLE_MAX}`);
  return given;
}

/** A line without a heading's, quote's or list item's leading mark, its spaces collapsed. */
function plain(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}|>|[-*+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

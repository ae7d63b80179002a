// A conversation's title: made short from its first message (the picker shows
// a line, not a pasted script), or given by the operator (PATCH …/threads/{id}).
// Made: the first sentence of the first line with words outside code blocks,
// Markdown's marks left out (a link keeps its words), cut at a word near 60
// characters. A message that is only code is named by its first line.
import { invalid } from '../errors.js';

/** The longest title an operator may give. */
export const TITLE_MAX = 80;
/** A title made from a first message is cut near here, at a word. */
const SHORT = 60;

/** The first sentence of the first line with words (code blocks skipped), without Markdown's marks, cut at a word near 60 characters. */
export function shortTitle(message: string): string {
  const first = (text: string) => text.split('\n').map(plain).find((l) => l !== '') ?? '';
  const line = firstSentence(inline(first(withoutCode(message)) || first(message.replace(FENCE, ''))));
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

const FENCE = /^\s*(?:```|~~~).*$/gm;

/** The message without its fenced code blocks. */
function withoutCode(message: string): string {
  return message.replace(/^\s*(```|~~~)[^\n]*\n[\s\S]*?(?:^\s*\1[^\n]*$|(?![\s\S]))/gm, '');
}

/** Up to the first sentence's end (a `.`, `?` or `!` before a space), a closing full stop left out; short sentences run on. */
function firstSentence(line: string): string {
  const end = /^.{12,}?[.?!](?=\s)/.exec(line);
  return (end ? end[0] : line).replace(/\.$/, '');
}

/** Inline Markdown as its words: a link's or an image's text, code without its backticks, no emphasis marks. */
function inline(line: string): string {
  return line
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(?<![\w*_~])(\*\*|__|\*|_|~~)(?=\S)(.*?\S)\1(?![\w*_~])/g, '$2')
    .trim();
}

/** A line without a heading's, quote's or list item's leading mark, its spaces collapsed. */
function plain(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}|>|[-*+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

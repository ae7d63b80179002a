// The console's one Markdown parser: markdown-it with raw HTML off (HTML an
// answer writes stays text), links only where a URL is written out (no
// guessing that "README.md" is a web site), images off (an answer never
// makes the browser fetch a picture). It yields tokens: render.tsx makes
// React elements of them, so no HTML string ever reaches the page.
import MarkdownIt, { type Token } from 'markdown-it';

const parser = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
parser.disable('image');

export function markdownTokens(text: string): Token[] {
  return parser.parse(text, {});
}

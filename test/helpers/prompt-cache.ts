// What a real Messages API would serve from its prompt cache, read from the
// requests the provider sent (for tests and the bench; no network). Anthropic
// reads a prompt as tools, then system, then messages, block by block; a block
// marked `cache_control` writes the prefix up to it, and a later request reads
// the longest written prefix that ends at one of its marks or at one of the 20
// block boundaries before a mark. The marks themselves are not content.
import { createHash } from 'node:crypto';

/** Anthropic's lookback from each mark. */
const LOOKBACK_BLOCKS = 20;
/** The budget's estimate: four characters a token. */
const CHARS_PER_TOKEN = 4;

export interface Prompt {
  /** Each block in reading order, marks left out, messages' roles and boundaries kept. */
  blocks: string[];
  /** Each block's own size in characters, as sent. */
  sizes: number[];
  /** Indexes of the blocks marked `cache_control`. */
  marks: number[];
}

type Json = Record<string, unknown>;
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : []);

export function promptOf(body: Json): Prompt {
  const blocks: string[] = [];
  const sizes: number[] = [];
  const marks: number[] = [];
  const add = (where: Json, block: Json) => {
    const { cache_control: mark, ...content } = block;
    if (mark !== undefined) marks.push(blocks.length);
    blocks.push(JSON.stringify({ ...where, block: content }));
    sizes.push(JSON.stringify(block).length);
  };
  for (const tool of objects(body.tools)) add({ in: 'tools' }, tool);
  for (const block of objects(body.system)) add({ in: 'system' }, block);
  for (const [index, message] of objects(body.messages).entries()) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : objects(message.content);
    for (const [position, block] of content.entries()) add({ in: 'messages', message: index, role: message.role, position }, block);
  }
  return { blocks, sizes, marks };
}

/** The prompt up to and including the newest mark, as one string. */
export function cachedPrefix(prompt: Prompt): string {
  return prompt.blocks.slice(0, (prompt.marks.at(-1) ?? -1) + 1).join('\n');
}

/** The tokens of blocks [from, to) of a prompt, at the budget's estimate. */
export function tokensOf(prompt: Prompt, from = 0, to = prompt.sizes.length): number {
  return Math.ceil(prompt.sizes.slice(from, to).reduce((chars, size) => chars + size, 0) / CHARS_PER_TOKEN);
}

export interface Served {
  /** Every input token of the request. */
  total: number;
  /** Read from the cache. */
  read: number;
  /** Written to the cache (after what was read, up to the newest mark). */
  written: number;
  /** After the newest mark: neither read nor written. */
  uncached: number;
}

/** The cache of one API, request after request (entries never expire here: a thread's calls come within minutes). */
export class PromptCacheModel {
  private readonly written = new Set<string>();

  serve(body: Json): Served {
    const prompt = promptOf(body);
    const { blocks, marks } = prompt;
    // hashes[i]: the prefix of blocks[0..i], chained so that each costs one block's hashing.
    const hashes: string[] = [];
    for (const block of blocks) hashes.push(createHash('sha256').update(hashes.at(-1) ?? '').update(block).digest('hex'));
    let readTo = -1;
    for (const mark of marks) {
      for (let end = mark; end >= Math.max(0, mark - LOOKBACK_BLOCKS); end--) {
        if (this.written.has(hashes[end] ?? '')) {
          readTo = Math.max(readTo, end);
          break;
        }
      }
    }
    for (const mark of marks) this.written.add(hashes[mark] ?? '');
    const newest = marks.at(-1) ?? -1;
    return {
      total: tokensOf(prompt),
      read: tokensOf(prompt, 0, readTo + 1),
      written: newest > readTo ? tokensOf(prompt, readTo + 1, newest + 1) : 0,
      uncached: tokensOf(prompt, Math.max(readTo, newest) + 1),
    };
  }
}

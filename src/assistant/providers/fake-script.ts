// Reads the `fake` model's commands (DESIGN.md §4) out of a user message.
// A line is a command when its first word is one of the five below; any
// other line is prose, which the fake ignores when the message has commands
// (so notes around a script do not break it). A command it cannot read
// becomes a `bad` line that the fake answers with a sentence saying why.
import { firstCharacters } from './first-characters.js';
import { isJsonObject } from '../../validation/json-object.js';

export type ScriptLine =
  | { command: 'tool'; name: string; input: Record<string, unknown> }
  | { command: 'say'; text: string }
  | { command: 'refuse' }
  | { command: 'fail' }
  | { command: 'slow'; ms: number }
  | { command: 'bad'; sentence: string };

const QUOTE_LIMIT = 200;
/** Nine digits: below setTimeout's 2^31 ms ceiling. */
const MILLISECONDS = /^\d{1,9}$/;

export function readScript(text: string): ScriptLine[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const read = readLine(line.trim());
    return read ? [read] : [];
  });
}

function readLine(line: string): ScriptLine | null {
  const [word, rest] = splitFirstWord(line);
  switch (word) {
    case '/tool':
      return readTool(rest);
    case '/say':
      return rest ? { command: 'say', text: rest } : bad('/say needs text');
    case '/refuse':
      return { command: 'refuse' };
    case '/fail':
      return { command: 'fail' };
    case '/slow':
      return MILLISECONDS.test(rest)
        ? { command: 'slow', ms: Number(rest) }
        : bad(`/slow needs milliseconds, a whole number below 1000000000; got "${quote(rest)}"`);
    default:
      return null;
  }
}

function readTool(rest: string): ScriptLine {
  const [name, json] = splitFirstWord(rest);
  if (!name) return bad('/tool needs a tool name');
  const input = json ? parseJsonObject(json) : {};
  if (!input) return bad(`/tool ${quote(name)} needs a JSON object as its input; got ${quote(json)}`);
  return { command: 'tool', name, input };
}

/** The first word of a trimmed text and the rest after it. */
function splitFirstWord(text: string): [string, string] {
  const [, word = '', rest = ''] = /^(\S*)\s*([\s\S]*)$/.exec(text) ?? [];
  return [word, rest];
}

function bad(sentence: string): ScriptLine {
  return { command: 'bad', sentence: `fake: ${sentence}` };
}

/** The fake quotes at most 200 characters of anything it echoes. */
export function quote(text: string): string {
  return firstCharacters(text, QUOTE_LIMIT);
}

/** The JSON object in `text`, or null when it is not JSON or not an object. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

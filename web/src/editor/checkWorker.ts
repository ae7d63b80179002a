// The checker's requests, off the page's thread. It keeps its own copy of the
// buffer, kept current by each edit's changes (a few bytes a key), and when
// asked builds the check_document body from it and sends it: for a 1 MiB text
// the copy and its JSON took 150–300 ms of the page's one thread per check on
// a loaded machine, in the middle of typing.
import { ChangeSet, Text } from '@codemirror/state';
import type { CheckerMessage, CheckerAnswer } from './checkerWire';

let buffer = Text.empty;

self.onmessage = ({ data }: MessageEvent<CheckerMessage>) => {
  if (data.kind === 'open') buffer = Text.of(data.text.split(/\r\n?|\n/));
  else if (data.kind === 'edit') buffer = ChangeSet.fromJSON(data.changes).apply(buffer);
  else void send(data.id, data.url, data.headers, data.input);
};

async function send(id: number, url: string, headers: Record<string, string>, input: Record<string, unknown>): Promise<void> {
  let answer: CheckerAnswer;
  try {
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...input, text: buffer.toString() }) });
    answer = { id, status: response.status, body: await response.text() };
  } catch (error) {
    answer = { id, failure: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(answer);
}

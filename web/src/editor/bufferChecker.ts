// The page's side of the checker's worker (checkWorker.ts): one per open
// view. Edits are composed here as they happen (a posted message costs the
// page a millisecond or more under load, a composition microseconds) and
// posted before the next check, so the worker's copy is the buffer the check
// is for; the answer is read as any API answer is (the connection banner, a
// 401, the tool's sentence).
import type { ChangeSet } from '@codemirror/state';
import { answerOf, requestHeaders, resultOf, type ToolOutcome } from '../api/client';
import { watched } from '../api/connection';
import type { CheckerAnswer, CheckerMessage } from './checkerWire';

export class BufferChecker {
  private readonly worker = new Worker(new URL('./checkWorker.ts', import.meta.url), { type: 'module' });
  private readonly waiting = new Map<number, (answer: CheckerAnswer) => void>();
  private asked = 0;
  /** The edits since the worker last heard: null when none. */
  private unsent: ChangeSet | null = null;

  constructor(text: string) {
    this.worker.onmessage = ({ data }: MessageEvent<CheckerAnswer>) => {
      this.waiting.get(data.id)?.(data);
      this.waiting.delete(data.id);
    };
    this.post({ kind: 'open', text });
  }

  edit(changes: ChangeSet): void {
    this.unsent = this.unsent ? this.unsent.compose(changes) : changes;
  }

  /** Runs check_document with `input` and the buffer as it is now as its text. */
  async check<T>(input: Record<string, unknown>): Promise<T> {
    const id = ++this.asked;
    const answered = new Promise<CheckerAnswer>((resolve) => this.waiting.set(id, resolve));
    const headers = { ...requestHeaders('application/json'), 'content-type': 'application/json' };
    if (this.unsent) this.post({ kind: 'edit', changes: this.unsent.toJSON() });
    this.unsent = null;
    this.post({ kind: 'check', id, url: '/api/v1/assistant/tools/check_document', headers, input });
    // No answer at all is a failed fetch, as the page's own would be: the connection banner hears of it.
    const response = await watched(answered.then((answer) => ('failure' in answer ? Promise.reject(new TypeError(answer.failure)) : new Response(answer.body, { status: answer.status }))));
    return resultOf(await answerOf<ToolOutcome<T>>(response));
  }

  close(): void {
    // A check still out is dropped, not failed: a failure would tell the connection banner the server is away.
    this.worker.terminate();
    this.waiting.clear();
  }

  private post(message: CheckerMessage): void {
    this.worker.postMessage(message);
  }
}

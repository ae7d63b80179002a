// What an agent says outside the protocol reaches the server's log only as
// one structured line per event, its words a bounded field the logger
// escapes, at most LINES_PER_SECOND lines a second per agent process (then
// one line says how many were suppressed): its stderr, and what the ACP SDK
// prints about its messages. The SDK has no logger: it calls console.error in
// the server's process with the agent's words (a response id it never sent,
// say, line breaks and all), so the console calls made while handling an
// agent's connection are routed to that agent's log.
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

const LINES_PER_SECOND = 20;
const WINDOW_MS = 1_000;
/** Characters of one event kept in its line. */
const MAX_CHARS = 500;

/** Writes one structured line. */
export type AgentLogSink = (fields: Record<string, string | number>, message: string) => void;

type Said = 'stderr' | 'printed';

const MESSAGES: Record<Said, string> = {
  stderr: 'an agent wrote on its stderr',
  printed: 'the ACP SDK printed about an agent’s message',
};

export class AgentLog {
  private windowStart = 0;
  private inWindow = 0;
  private suppressed = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The stderr line not ended yet, at most MAX_CHARS of it. */
  private partial = '';

  constructor(
    private readonly fields: Record<string, string>,
    private readonly sink: AgentLogSink,
  ) {}

  /** A chunk of the agent's stderr: each line it ends is one event. */
  stderr(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = (lines.pop() ?? '').slice(0, MAX_CHARS);
    for (const line of lines) if (line.trim() !== '') this.say('stderr', line);
  }

  /** Something printed while handling this agent's connection. */
  printed(text: string): void {
    this.say('printed', text);
  }

  /** The process is gone: what is left is said. */
  close(): void {
    if (this.partial.trim() !== '') this.say('stderr', this.partial);
    this.partial = '';
    this.sayHowManySuppressed();
  }

  private say(said: Said, text: string): void {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.sayHowManySuppressed();
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (this.inWindow >= LINES_PER_SECOND) {
      this.suppressed += 1;
      // Said once the window ends, even when the agent says nothing more.
      this.timer ??= setTimeout(() => this.sayHowManySuppressed(), this.windowStart + WINDOW_MS - now).unref();
      return;
    }
    this.inWindow += 1;
    this.sink({ ...this.fields, [said]: text.slice(0, MAX_CHARS) }, MESSAGES[said]);
  }

  private sayHowManySuppressed(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.suppressed === 0) return;
    this.sink({ ...this.fields, suppressed: this.suppressed }, `an agent's output was suppressed: over ${LINES_PER_SECOND} lines a second`);
    this.suppressed = 0;
  }
}

const speaking = new AsyncLocalStorage<AgentLog>();
let routed = false;

/** Runs `work` as the agent's: console calls made in it, and in everything it starts, go to `log`. */
export function asAgent<T>(log: AgentLog, work: () => T): T {
  routeConsole();
  return speaking.run(log, work);
}

/** Console calls outside an agent's work print as they did. */
function routeConsole(): void {
  if (routed) return;
  routed = true;
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    // eslint-disable-next-line no-console -- the one place that replaces them, for the SDK's prints
    const original = console[method];
    // eslint-disable-next-line no-console -- as above
    console[method] = (...args: unknown[]) => {
      const log = speaking.getStore();
      if (log) log.printed(format(...args));
      else original.apply(console, args);
    };
  }
}

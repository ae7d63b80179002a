// What a mock model API is told to answer, the same for every vendor: each
// request the agent makes to the model takes the next step; when the steps
// run out the model says "done." and ends its turn. Each vendor's mock maps
// a step onto its own wire format and onto the agent's own tool names.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
export type ModelStep =
  /** Plain text; the model's turn ends. */
  | { say: string }
  /** A call of one of Aion's MCP tools, by its Aion name (`read_document`); the mock finds the agent's name for it in the request's tool list. */
  | { aion: string; input: Record<string, unknown> }
  /** A call of the agent's own shell tool. */
  | { shell: string }
  /** A call of the agent's own file-writing tool. */
  | { write: { path: string; content: string } }
  /** A call of the agent's own web-fetch tool. */
  | { fetch: string }
  /** The model thinks this long before it answers the request with the step after (so a turn can be stopped mid-call). */
  | { stall: number };

/** A step the mock answers with (stalls taken out). */
export type AnsweredStep = Exclude<ModelStep, { stall: number }>;

/** The steps still to answer. */
export class Script {
  private steps: ModelStep[] = [];

  replace(next: ModelStep[]): void {
    this.steps = [...next];
  }

  /** The next step to answer, once any stall before it is waited out; `done.` when the steps ran out. */
  async take(): Promise<AnsweredStep> {
    for (;;) {
      const step = this.steps.shift() ?? { say: 'done.' };
      if (!('stall' in step)) return step;
      await new Promise((resolve) => setTimeout(resolve, step.stall));
    }
  }
}

/** Listens on a free loopback port; the URL, and how to close it with its open connections. */
export async function listenOnLoopback(server: http.Server): Promise<Pick<MockModel, 'url' | 'close'>> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request's body as text. */
export async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A running mock of one vendor's model API on loopback. */
export interface MockModel {
  /** Its base URL, e.g. http://127.0.0.1:40123 (what the agent's base-URL setting gets). */
  url: string;
  /** The bodies of the requests it answered, parsed, in order (tool results the agent sent back included). */
  requests: unknown[];
  /** Replaces the steps still to answer. */
  script(steps: ModelStep[]): void;
  close(): Promise<void>;
}

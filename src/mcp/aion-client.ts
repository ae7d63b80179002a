// A client for an Aion server's tool routes, shared by `ops mcp`, `ops tools`
// and `ops call`. One keep-alive agent (node:http costs less per call than
// fetch), so a tool call reuses its connection and the proxy adds little to
// the REST call it makes. Statuses become the AppError kinds the server mapped
// them from; network failures are `unavailable`, with a sentence that names
// the server.
import http from 'node:http';
import https from 'node:https';
import { AppError, type ErrorKind } from '../errors.js';
import { STATUS } from '../http/errors.js';
import type { ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import { isJsonObject } from '../validation/json-object.js';

export interface Where {
  project?: string | null;
  environment?: string | null;
}

interface Answer {
  status: number;
  body: unknown;
}

const KIND_OF_STATUS = new Map<number, ErrorKind>(
  Object.entries(STATUS).map(([kind, status]) => [status, kind as ErrorKind]),
);

/** A kept-alive connection that the server had closed while it was idle. */
class StaleConnection extends Error {}

export class AionClient {
  private readonly base: string;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(
    url: string,
    private readonly token: string,
    /** Sent with every request: how the caller wants its calls audited and restricted. */
    private readonly headers: Record<string, string> = {},
  ) {
    this.base = url.replace(/\/+$/, '');
    const secure = new URL(this.base).protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  async tools(where: Where = {}): Promise<ToolDescriptor[]> {
    const query = new URLSearchParams();
    if (where.project) query.set('project', where.project);
    if (where.environment) query.set('environment', where.environment);
    const path = `/api/v1/assistant/tools${query.size > 0 ? `?${query}` : ''}`;
    const body = this.expectOk(await this.send('GET', path));
    if (!isJsonObject(body) || !Array.isArray(body.tools)) throw this.notAion();
    return body.tools as ToolDescriptor[];
  }

  async call(name: string, input: Record<string, unknown>): Promise<ToolCallResponse> {
    const path = `/api/v1/assistant/tools/${encodeURIComponent(name)}`;
    const body = this.expectOk(await this.send('POST', path, input));
    if (!isJsonObject(body) || typeof body.tool !== 'string' || typeof body.is_error !== 'boolean') throw this.notAion();
    if (!isJsonObject(body.result)) throw this.notAion();
    return { tool: body.tool, is_error: body.is_error, result: body.result };
  }

  close(): void {
    this.agent.destroy();
  }

  private expectOk({ status, body }: Answer): unknown {
    if (status === 200) return body;
    if (status === 401) {
      throw new AppError('bad_token', `the Aion server at ${this.base} refused the token; check --token or AION_TOKEN`);
    }
    const said = isJsonObject(body) && typeof body.error === 'string' ? body.error : null;
    throw new AppError(KIND_OF_STATUS.get(status) ?? 'unavailable', said ?? `the Aion server answered ${status}`);
  }

  private notAion(): AppError {
    return new AppError('unavailable', `${this.base} did not answer like an Aion server; check --url or AION_URL`);
  }

  private async send(method: string, path: string, input?: unknown): Promise<Answer> {
    try {
      return await this.once(method, path, input);
    } catch (error) {
      // Such a request failed before the server read it; Node's documented remedy is to retry once.
      if (!(error instanceof StaleConnection)) return this.unreachable(error);
      return this.once(method, path, input).catch((again: unknown) => this.unreachable(again));
    }
  }

  private once(method: string, path: string, input?: unknown): Promise<Answer> {
    const payload = input === undefined ? undefined : JSON.stringify(input);
    const headers: Record<string, string> = { ...this.headers, authorization: `Bearer ${this.token}` };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const req = this.request(this.base + path, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) });
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        reject(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleConnection(error.message) : error);
      });
      req.end(payload);
    });
  }

  private unreachable(error: unknown): never {
    const code = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new AppError('unavailable', `cannot reach the Aion server at ${this.base} (${code}); is it running there?`);
  }
}


function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// A mock of the Anthropic Messages API on loopback, as the Claude Code CLI
// under claude-agent-acp speaks it: `POST /v1/messages?beta=true` streamed as
// Server-Sent Events (one JSON message when a request is not streamed), with
// `count_tokens` and the model list beside it; anything else is a 404. (With
// the switches of claude.ts the CLI sends nothing but messages: no GET at
// start, no count_tokens.) A request without a key is refused with 401, as
// the API would. Each main-loop request takes the next ModelStep; the CLI's
// side requests — the session title, the auto-mode classifier, a prompt
// suggestion, a quota probe — are answered apart and take none.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { listenOnLoopback, Script, type AnsweredStep, type MockModel } from './script.js';

/** One HTTP request the mock saw, whatever it was. */
export interface MockCall {
  method: string;
  url: string;
  /** main: it took a step; side: a request of the CLI's own; other: not a model request. */
  kind: 'main' | 'side' | 'other';
  status: number;
}

export interface MockAnthropic extends MockModel {
  /** Every request, in order, with what the mock made of it. */
  calls: MockCall[];
  /** The bodies of the side requests (title, classifier, suggestion…), which took no step; `requests` holds the main loop's only. */
  sideRequests: unknown[];
}

interface Tool {
  name: string;
}
interface Message {
  role: string;
  content: string | { type: string; text?: string }[];
}
interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: string | { type: string; text?: string }[];
  tools?: Tool[];
  messages?: Message[];
  max_tokens?: number;
  output_config?: { format?: unknown };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export async function startMockAnthropic(): Promise<MockAnthropic> {
  const script = new Script();
  const requests: unknown[] = [];
  const sideRequests: unknown[] = [];
  const calls: MockCall[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://mock');
      const method = req.method ?? 'GET';
      const reply = (kind: MockCall['kind'], status: number, body: unknown) => {
        calls.push({ method, url: req.url ?? '/', kind, status });
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId() });
        res.end(JSON.stringify(body));
      };
      const body = parseJson(Buffer.concat(chunks).toString('utf8'));
      if (body === undefined) {
        reply('other', 400, apiError('invalid_request_error', 'the body is not JSON'));
        return;
      }
      if (!req.headers['x-api-key'] && !req.headers.authorization) {
        reply('other', 401, apiError('authentication_error', 'x-api-key header is required'));
        return;
      }
      if (method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
        reply('other', 200, { input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
        return;
      }
      if (method === 'GET' && url.pathname === '/v1/models') {
        reply('other', 200, { data: [], has_more: false, first_id: null, last_id: null });
        return;
      }
      if (method !== 'POST' || url.pathname !== '/v1/messages') {
        reply('other', 404, apiError('not_found_error', `${method} ${url.pathname} is not mocked`));
        return;
      }
      const request = (body ?? {}) as MessagesRequest;
      const side = isSideRequest(request);
      let blocks: Block[];
      if (side) {
        sideRequests.push(body);
        blocks = [{ type: 'text', text: sideAnswer(request) }];
      } else {
        requests.push(body);
        blocks = answer(await script.take(), request);
      }
      calls.push({ method, url: req.url ?? '/', kind: side ? 'side' : 'main', status: 200 });
      const message = {
        id: `msg_${randomBytes(12).toString('hex')}`,
        type: 'message',
        role: 'assistant',
        model: request.model ?? 'claude-mock',
        content: [] as Block[],
        stop_reason: null as string | null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      };
      const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId() });
        res.end(JSON.stringify({ ...message, content: blocks, stop_reason: stopReason, usage: { ...message.usage, output_tokens: 5 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId() });
      const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', { message });
      blocks.forEach((block, index) => {
        if (block.type === 'text') {
          event('content_block_start', { index, content_block: { type: 'text', text: '' } });
          event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
          event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        event('content_block_stop', { index });
      });
      event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
      event('message_stop', {});
      res.end();
    });
  });
  return { ...(await listenOnLoopback(server)), requests, sideRequests, calls, script: (next) => script.replace(next) };
}

/** The body, parsed; null when empty; undefined when it is no JSON. */
function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function requestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

function apiError(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function systemText(request: MessagesRequest): string {
  const system = request.system;
  if (typeof system === 'string') return system;
  return (system ?? []).map((part) => part.text ?? '').join('\n');
}

/**
 * The CLI's own requests, which are no step of the agent's turn: one that
 * asks for structured output (the session title), a quota probe of a token
 * or so, one whose system prompt is a side task of the CLI's (the auto-mode
 * classifier), and a prompt suggestion, which is the main loop's own request
 * with one more user message that says so.
 */
function isSideRequest(request: MessagesRequest): boolean {
  if (request.output_config?.format) return true;
  if ((request.max_tokens ?? Infinity) <= 16) return true;
  const system = systemText(request);
  if (Object.values(SIDE_TASKS).some((marker) => marker.test(system))) return true;
  return /^\s*\[SUGGESTION MODE/.test(lastUserText(request));
}

/** What the system prompt of a side request says (its first words are the SDK's identity either way). */
const SIDE_TASKS = {
  classifier: /security monitor for autonomous AI coding agents/i,
  title: /naming a coding session/i,
};

function lastUserText(request: MessagesRequest): string {
  const last = (request.messages ?? []).filter((m) => m.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => part.text ?? '').join('\n');
}

/**
 * A side request's answer: the auto-mode classifier blocks (nothing of the
 * agent's own runs unasked, whatever mode it is in); an object of the
 * request's JSON schema (a title: "Mock session"); else a word.
 */
function sideAnswer(request: MessagesRequest): string {
  if (SIDE_TASKS.classifier.test(systemText(request))) return '<severity>100</severity><category>Mock</category>';
  const format = request.output_config?.format as { schema?: { properties?: Record<string, { type?: string }> } } | undefined;
  const properties = format?.schema?.properties;
  if (!properties) return 'ok';
  const empty: Record<string, unknown> = { string: 'Mock session', boolean: false, number: 0, integer: 0, array: [], object: {} };
  return JSON.stringify(Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, empty[schema.type ?? 'string'] ?? null])));
}

/**
 * The agent's name for one of Aion's tools: from the request's tools, else
 * from its text (the CLI lists deferred tools by name only), else `mcp__aion__NAME`.
 */
function mcpToolName(request: MessagesRequest, aionName: string): string {
  const matches = (name: string) => name.startsWith('mcp__') && name.endsWith(`__${aionName}`);
  const offered = (request.tools ?? []).map((t) => t.name).find(matches);
  if (offered) return offered;
  const escaped = aionName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = JSON.stringify(request.messages ?? []).match(new RegExp(`mcp__[A-Za-z0-9_-]+?__${escaped}(?![A-Za-z0-9_])`));
  return named?.[0] ?? `mcp__aion__${aionName}`;
}

/** A relative path of a step, under the agent's working folder (its Write wants an absolute path). */
function absolute(request: MessagesRequest, file: string): string {
  if (path.isAbsolute(file)) return file;
  const cwd = /Primary working directory: ([^\n]+)/.exec(`${systemText(request)}\n${JSON.stringify(request.messages ?? []).replace(/\\n/g, '\n')}`)?.[1];
  return cwd ? path.join(cwd.trim(), file) : file;
}

function answer(step: AnsweredStep, request: MessagesRequest): Block[] {
  if ('say' in step) return [{ type: 'text', text: step.say }];
  const id = `toolu_${randomBytes(12).toString('hex')}`;
  if ('aion' in step) {
    return [{ type: 'tool_use', id, name: mcpToolName(request, step.aion), input: step.input }];
  }
  if ('shell' in step) return [{ type: 'tool_use', id, name: 'Bash', input: { command: step.shell, description: `Run ${step.shell}` } }];
  if ('write' in step) return [{ type: 'tool_use', id, name: 'Write', input: { file_path: absolute(request, step.write.path), content: step.write.content } }];
  return [{ type: 'tool_use', id, name: 'WebFetch', input: { url: step.fetch, prompt: 'What does this page say?' } }];
}

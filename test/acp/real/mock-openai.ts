// A mock of the OpenAI Responses API as Codex (codex-acp 2.6.0, Codex 0.166)
// speaks it, on 127.0.0.1 (its default model gets its tools in code mode: an
// `additional_tools` input item whose `exec` runs JavaScript that calls the
// nested tools, MCP ones by `tools.mcp__aion__NAME`): `POST …/v1/responses` answered as server-sent
// events (response.created, response.output_item.added, for text a
// response.output_text.delta, response.output_item.done, response.completed
// with usage: what Codex needs to end a sampling request). Its built-in
// `openai` provider first tries the same route as a WebSocket: the upgrade is
// refused with 426 and Codex falls back to HTTP for the session (an ERROR line
// on its stderr, nothing in the conversation). With an API key Codex asks for
// nothing else; `GET …/models` (which it asks of a ChatGPT login) is answered
// with no models all the same. Each request of a turn takes the next ModelStep
// and the calls come back as `function_call_output` / `custom_tool_call_output`
// items in the next request's `input`; a side request (no tools offered, or
// an `x-codex-turn-metadata.request_kind` other than `turn`: compaction,
// memories, review) gets a short text and leaves the script alone.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { openAIServer } from './openai-front.js';
import { listenOnLoopback, Script, type AnsweredStep, type MockModel } from './script.js';

interface Tool {
  type?: string;
  name?: string;
  /** Namespaced tools (`type: "namespace"`) hold their functions here. */
  tools?: Tool[];
}

interface ResponsesRequest {
  tools?: Tool[];
  input?: { type?: string; tools?: Tool[] }[];
}

type OutputItem = Record<string, unknown>;

/**
 * Every tool the request offers, namespaces flattened, each with its full name
 * as the model must call it: in `tools`, or (Codex 0.166's "responses lite")
 * in an `additional_tools` item of the input.
 */
function offered(request: ResponsesRequest): { name: string; type: string; namespace?: string }[] {
  const out: { name: string; type: string; namespace?: string }[] = [];
  const additional = (request.input ?? []).flatMap((item) => (item.type === 'additional_tools' ? (item.tools ?? []) : []));
  for (const tool of [...(request.tools ?? []), ...additional]) {
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      for (const inner of tool.tools) if (inner.name) out.push({ name: inner.name, type: inner.type ?? 'function', namespace: tool.name });
    } else {
      out.push({ name: tool.name ?? tool.type ?? '', type: tool.type ?? 'function' });
    }
  }
  return out;
}

function callId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

function functionCall(name: string, args: unknown, namespace?: string): OutputItem {
  return {
    type: 'function_call',
    id: `fc_${randomUUID().replace(/-/g, '')}`,
    call_id: callId(),
    name,
    ...(namespace ? { namespace } : {}),
    arguments: JSON.stringify(args),
    status: 'completed',
  };
}

function message(text: string): OutputItem {
  return {
    type: 'message',
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/** The patch that creates (or replaces) one file, in Codex's apply_patch grammar. */
function addFilePatch(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return ['*** Begin Patch', `*** Add File: ${path}`, ...lines.map((line) => `+${line}`), '*** End Patch', ''].join('\n');
}

/** A shell command as a call of whichever shell tool the request offers. */
function shellCall(command: string, tools: ReturnType<typeof offered>): OutputItem {
  const has = (name: string) => tools.find((t) => t.name === name);
  if (has('exec_command')) return functionCall('exec_command', { cmd: command, yield_time_ms: 10_000 });
  if (has('shell_command')) return functionCall('shell_command', { command });
  if (has('shell')) return functionCall('shell', { command: ['bash', '-lc', command] });
  if (tools.some((t) => t.type === 'local_shell')) {
    return { type: 'local_shell_call', id: `lsh_${randomUUID().replace(/-/g, '')}`, call_id: callId(), status: 'completed', action: { type: 'exec', command: ['bash', '-lc', command] } };
  }
  throw new Error(`the request offers no shell tool (it offers ${tools.map((t) => t.name).join(', ')})`);
}

/** A call of Codex's code-mode `exec`: JavaScript that calls a nested tool by its name on `tools` and shows what it returned. */
function execCall(tool: string, input: unknown): OutputItem {
  const code = `const result = await tools.${tool}(${JSON.stringify(input)});\ntext(JSON.stringify(result));\n`;
  return { type: 'custom_tool_call', id: `ctc_${randomUUID().replace(/-/g, '')}`, call_id: callId(), name: 'exec', input: code, status: 'completed' };
}

/** The output item a step becomes, in the agent's own tool names. */
function itemFor(step: AnsweredStep, request: ResponsesRequest): OutputItem {
  const tools = offered(request);
  if ('say' in step) return message(step.say);
  // Codex 0.166 offers the model's default its tools in code mode: nested tools (MCP ones deferred, unlisted) called from
  // the JavaScript of one `exec` tool.
  const codeMode = tools.some((t) => t.name === 'exec' && t.type === 'custom');
  if (codeMode && 'aion' in step) return execCall(`mcp__aion__${step.aion}`, step.input);
  if (codeMode && 'write' in step) return execCall('apply_patch', addFilePatch(step.write.path, step.write.content));
  // Its shell, called whether or not it is offered (off, Codex answers that there is no such tool).
  if (codeMode && 'shell' in step) return execCall('exec_command', { cmd: step.shell });
  if (codeMode && 'fetch' in step) return execCall('exec_command', { cmd: `curl -sS ${JSON.stringify(step.fetch)}` });
  if ('aion' in step) {
    // Codex 0.137 offers MCP tools in a `namespace` tool named `mcp__aion` with their own names inside, and the call
    // carries that namespace; older builds offered plain functions `mcp__aion__read_document`.
    const plain = tools.find((t) => !t.namespace && t.name === `mcp__aion__${step.aion}`);
    if (plain) return functionCall(plain.name, step.input);
    const spaced = tools.find((t) => t.namespace?.startsWith('mcp__aion') && (t.name === step.aion || t.name.endsWith(`__${step.aion}`)));
    if (spaced) return functionCall(spaced.name, step.input, spaced.namespace);
    throw new Error(`the request offers no tool for Aion's ${step.aion} (it offers ${tools.map((t) => t.name).join(', ')})`);
  }
  if ('shell' in step) return shellCall(step.shell, tools);
  if ('write' in step) {
    const patch = addFilePatch(step.write.path, step.write.content);
    const tool = tools.find((t) => t.name === 'apply_patch');
    if (tool?.type === 'custom') return { type: 'custom_tool_call', id: `ctc_${randomUUID().replace(/-/g, '')}`, call_id: callId(), name: 'apply_patch', input: patch, status: 'completed' };
    if (tool) return functionCall('apply_patch', { input: patch });
    // Without apply_patch Codex writes files with its shell, as the model would.
    return shellCall(`cat > ${JSON.stringify(step.write.path)} <<'AION_EOF'\n${step.write.content}\nAION_EOF`, tools);
  }
  // Codex's only web tool is the Responses API's hosted `web_search` (run by the model's servers, never by Codex, never
  // asked about: Codex shows it as a `fetch` tool call and the turn ends there). Where it is offered the mock reports a
  // page opened by it; where it is off (`web_search = "disabled"`) the fetch is a shell `curl`, as a model would do.
  if (tools.some((t) => t.type === 'web_search')) {
    return { type: 'web_search_call', id: `ws_${randomUUID().replace(/-/g, '')}`, status: 'completed', action: { type: 'open_page', url: step.fetch } };
  }
  return shellCall(`curl -sS ${JSON.stringify(step.fetch)}`, tools);
}

function sse(res: http.ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** One response: created, the item (text streamed as a delta first), completed. */
function stream(res: http.ServerResponse, item: OutputItem): void {
  const id = `resp_${randomUUID().replace(/-/g, '')}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, 'response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
  sse(res, 'response.output_item.added', { output_index: 0, item: item.type === 'message' ? { ...item, content: [] } : item });
  if (item.type === 'message') {
    const text = (item.content as { text: string }[])[0]?.text ?? '';
    sse(res, 'response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: text });
  }
  sse(res, 'response.output_item.done', { output_index: 0, item });
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(res, 'response.completed', { response: { id, object: 'response', status: 'completed', output: [item], usage } });
  res.end();
}

/** Codex's `x-codex-turn-metadata.request_kind` (`turn` for a turn of the conversation); `turn` when absent. */
function requestKind(req: http.IncomingMessage): string {
  const header = req.headers['x-codex-turn-metadata'];
  try {
    const kind = (JSON.parse(typeof header === 'string' ? header : '{}') as { request_kind?: unknown }).request_kind;
    return typeof kind === 'string' ? kind : 'turn';
  } catch {
    return 'turn';
  }
}

export async function startMockOpenAI(): Promise<MockModel> {
  const script = new Script();
  const requests: unknown[] = [];
  const server = openAIServer<ResponsesRequest>(
    {
      route: '/responses',
      models: { models: [] },
      async respond(request, req, res) {
        // A side request (no tools offered, or Codex's own kind other than a turn: compaction, memories, review…)
        // gets a short answer and leaves the script alone.
        const turn = offered(request).length > 0 && requestKind(req) === 'turn';
        const step: AnsweredStep = turn ? await script.take() : { say: 'Mock title' };
        let item: OutputItem;
        try {
          item = itemFor(step, request);
        } catch (error) {
          item = message(`mock model: ${(error as Error).message}`);
        }
        stream(res, item);
      },
    },
    requests,
  );
  // The Responses WebSocket is refused; Codex falls back to HTTP streaming.
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 426 Upgrade Required\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  return { ...(await listenOnLoopback(server)), requests, script: (next) => script.replace(next) };
}

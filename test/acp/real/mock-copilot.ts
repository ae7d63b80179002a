// A mock of everything GitHub Copilot CLI (@github/copilot 1.0.102, `copilot
// --acp`) reaches for a turn, on loopback, as measured against the running
// agent. One origin serves both of its APIs (copilot.ts points the agent at it):
// - the GitHub API (COPILOT_DEBUG_GITHUB_API_URL): `GET
//   /copilot_internal/user`, the signed-in user, whose `endpoints.api` and
//   `endpoints.telemetry` name this same origin and whose `is_mcp_enabled:
//   true` is the "MCP servers in Copilot" policy (without it Copilot silently
//   connects to no MCP server its client passes, Aion's included); `GET
//   /copilot_internal/managed_settings` answers 404 (no managed policy, as
//   github.com answers an account without one);
// - the Copilot API: `GET /models` (one model, chat completions only, so no
//   "auto" router call), `POST /chat/completions` (OpenAI chat completions,
//   streamed as server-sent events) and `POST /telemetry` (accepted, dropped).
// The token goes to both as `Authorization: Bearer`, with no token exchange.
// Each model request of a turn (`openai-intent: conversation-agent`) takes
// the next ModelStep; any other model request (a side call: title, summary,
// compaction) is answered with text and takes none.
import http from 'node:http';
import path from 'node:path';
import { bodyOf, listenOnLoopback, Script, type AnsweredStep, type MockModel } from './script.js';

/** The one model the mock lists; copilot.ts selects it (a model id Copilot knows, or it falls back to "auto"). */
export const MOCK_COPILOT_MODEL = 'gpt-5-mini';

/** The MCP server name Aion gives agents (src/acp/permissions.ts AION_MCP_NAME). */
const AION_SERVER = 'aion';

interface ChatTool {
  type?: string;
  function?: { name?: string };
  /** Copilot marks each MCP tool with the server it came from. */
  copilot_mcp_server_name?: string;
}

interface ChatMessage {
  role?: string;
  content?: unknown;
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  tools?: ChatTool[];
  messages?: ChatMessage[];
}

interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

function user(url: string): Record<string, unknown> {
  return {
    login: 'aion-test',
    access_type_sku: 'free_limited_copilot',
    analytics_tracking_id: 'aion-test',
    assigned_date: null,
    can_signup_for_limited: false,
    chat_enabled: true,
    copilot_plan: 'individual',
    copilotignore_enabled: false,
    codex_agent_enabled: false,
    is_mcp_enabled: true,
    organization_list: [],
    restricted_telemetry: true,
    endpoints: { api: url, proxy: url, telemetry: url, 'origin-tracker': url },
  };
}

function models(): Record<string, unknown> {
  return {
    object: 'list',
    data: [
      {
        id: MOCK_COPILOT_MODEL,
        name: MOCK_COPILOT_MODEL,
        object: 'model',
        version: MOCK_COPILOT_MODEL,
        vendor: 'Azure OpenAI',
        preview: false,
        model_picker_enabled: true,
        is_chat_default: true,
        is_chat_fallback: true,
        capabilities: {
          family: MOCK_COPILOT_MODEL,
          object: 'model_capabilities',
          type: 'chat',
          tokenizer: 'o200k_base',
          limits: { max_context_window_tokens: 128_000, max_output_tokens: 16_384, max_prompt_tokens: 64_000 },
          supports: { streaming: true, tool_calls: true, parallel_tool_calls: true, structured_outputs: true },
        },
        policy: { state: 'enabled', terms: '' },
        supported_endpoints: ['/chat/completions'],
      },
    ],
  };
}

/** The session's working folder, which Copilot states in its system prompt; its file tools want absolute paths. */
function workingFolder(request: ChatRequest): string | null {
  for (const message of request.messages ?? []) {
    if (message.role !== 'system' || typeof message.content !== 'string') continue;
    const match = /Current working directory: (.+)/.exec(message.content);
    if (match?.[1]) return match[1].trim();
  }
  return null;
}

/**
 * The call a step becomes, by Copilot's own tool names: its MCP tools are
 * `<server>-<tool>` (`aion-read_document`), found in the request by their
 * server marker; its shell is `bash`, its file writer `create`, its fetcher
 * `web_fetch`. A tool the request does not offer is called all the same (the
 * agent then answers that it does not exist), so a test sees the attempt.
 */
function callFor(step: Exclude<AnsweredStep, { say: string }>, request: ChatRequest): ToolCall {
  if ('aion' in step) {
    const names = (request.tools ?? []).filter((t) => t.copilot_mcp_server_name === AION_SERVER).map((t) => t.function?.name ?? '');
    const name = names.find((n) => n === `${AION_SERVER}-${step.aion}`) ?? names.find((n) => n.endsWith(`-${step.aion}`));
    return { name: name ?? `${AION_SERVER}-${step.aion}`, args: step.input };
  }
  // The shell's `description` becomes the call's title; the command itself is the worst case for a rule that reads titles.
  if ('shell' in step) return { name: 'bash', args: { command: step.shell, description: step.shell.slice(0, 100) } };
  if ('write' in step) {
    const cwd = workingFolder(request);
    const file = path.isAbsolute(step.write.path) || cwd === null ? step.write.path : path.join(cwd, step.write.path);
    return { name: 'create', args: { path: file, file_text: step.write.content } };
  }
  return { name: 'web_fetch', args: { url: step.fetch } };
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(finish ? { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } } : {}),
  };
}

/** One answer of the model: text, or one tool call; streamed when asked (Copilot always asks), else whole. */
function answer(res: http.ServerResponse, request: ChatRequest, reply: { text: string } | ToolCall, n: number): void {
  const model = request.model ?? MOCK_COPILOT_MODEL;
  const id = `chatcmpl-mock-${n}`;
  const toolCalls =
    'name' in reply ? [{ index: 0, id: `call_mock_${n}`, type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.args) } }] : null;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  if (request.stream === false) {
    const message = toolCalls ? { role: 'assistant', content: null, tool_calls: toolCalls } : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
    json(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    return;
  }
  const delta = toolCalls ? { role: 'assistant', content: null, tool_calls: toolCalls } : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const data of [chunk(id, model, delta, null), chunk(id, model, {}, finish)]) res.write(`data: ${JSON.stringify(data)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

export async function startMockCopilot(): Promise<MockModel> {
  const script = new Script();
  const requests: unknown[] = [];
  let url = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await bodyOf(req);
      const route = new URL(req.url ?? '/', 'http://mock').pathname;
      if (req.method === 'GET' && route === '/copilot_internal/user') return json(res, 200, user(url));
      if (req.method === 'GET' && route === '/models') return json(res, 200, models());
      // Telemetry batches arrive gzipped; they are accepted and not kept.
      if (req.method === 'POST' && route === '/telemetry') return json(res, 200, { itemsReceived: 0, itemsAccepted: 0, errors: [] });
      if (req.method === 'POST' && route === '/chat/completions') {
        const request = JSON.parse(raw) as ChatRequest;
        requests.push(request);
        const n = requests.length;
        const intent = req.headers['openai-intent'];
        if (intent !== undefined && intent !== 'conversation-agent') return answer(res, request, { text: 'Aion mock' }, n);
        const step = await script.take();
        return answer(res, request, 'say' in step ? { text: step.say } : callFor(step, request), n);
      }
      // Managed settings (none), the "auto" model router, the built-in GitHub MCP server and anything else: not found.
      return json(res, 404, { message: 'Not Found' });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { message: (error as Error).message });
      else res.end();
    });
  });
  const listening = await listenOnLoopback(server);
  url = listening.url;
  return { ...listening, requests, script: (next) => script.replace(next) };
}

// A mock of the OpenAI-compatible Chat Completions API (`POST …/chat/completions`,
// streamed as server-sent `chat.completion.chunk`s ending in `data: [DONE]`, or
// one `chat.completion` when the request does not stream), on 127.0.0.1: what
// OpenCode, Kilo, Qwen Code and Cline call when pointed at an OpenAI-compatible
// base URL. Each request that offers tools takes the next ModelStep; a request
// offering none (a title, a summary) gets a short text and leaves the script
// alone, unless the agent offers no tools at all (`toolless: 'scripted'`). The
// agent's own tool names and argument shapes differ per agent, so each agent's
// test passes its OWN_TOOLS; Aion's tools are found in the request's tool list
// by the agent's naming of MCP tools (`aion_read_document`,
// `mcp__aion__read_document`…). `GET …/models` lists one model.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { openAIServer } from './openai-front.js';
import { listenOnLoopback, Script, type AnsweredStep, type MockModel } from './script.js';

/** The model this mock serves (any name is answered; this one is listed). */
export const MOCK_CHAT_MODEL = 'mock-model';

/** How one agent's own shell, file write and fetch are called: its tool name and the arguments it takes. */
export interface OwnTools {
  shell: (command: string) => { name: string; args: Record<string, unknown> };
  write: (path: string, content: string) => { name: string; args: Record<string, unknown> };
  fetch: (url: string) => { name: string; args: Record<string, unknown> };
}

interface ChatRequest {
  stream?: boolean;
  tools?: { type?: string; function?: { name?: string } }[];
}

interface Call {
  name: string;
  args: Record<string, unknown>;
}

function offered(request: ChatRequest): string[] {
  return (request.tools ?? []).flatMap((t) => (typeof t.function?.name === 'string' ? [t.function.name] : []));
}

/** The offered tool that is Aion's TOOL: its name ends with the tool's and names the `aion` server before it. */
function aionTool(tool: string, tools: string[]): string {
  const found = tools.find((name) => name.endsWith(tool) && /aion/.test(name.slice(0, -tool.length)));
  if (!found) throw new Error(`the request offers no tool for Aion's ${tool} (it offers ${tools.join(', ')})`);
  return found;
}

function callFor(step: Exclude<AnsweredStep, { say: string }>, tools: string[], own: OwnTools): Call {
  if ('aion' in step) return { name: aionTool(step.aion, tools), args: step.input };
  // The agent's own tools are called whether offered or not (a model may call one it was not offered; the agent refuses).
  if ('shell' in step) return own.shell(step.shell);
  if ('write' in step) return own.write(step.write.path, step.write.content);
  return own.fetch(step.fetch);
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: MOCK_CHAT_MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answer(res: http.ServerResponse, streamed: boolean, text: string | null, call: Call | null): void {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const toolCall = call ? { id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } } : null;
  const finish = toolCall ? 'tool_calls' : 'stop';
  if (!streamed) {
    const message = { role: 'assistant', content: text, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: MOCK_CHAT_MODEL, choices: [{ index: 0, message, finish_reason: finish }], usage: USAGE }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(chunk(id, { role: 'assistant', content: '' }, null));
  if (text !== null) res.write(chunk(id, { content: text }, null));
  if (toolCall) res.write(chunk(id, { tool_calls: [{ index: 0, ...toolCall }] }, null));
  res.write(chunk(id, {}, finish));
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: MOCK_CHAT_MODEL, choices: [], usage: USAGE })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/**
 * `toolless`: what a request offering no tools is — `side` (a title, a summary: a short text, the script left alone),
 * or `scripted`, for an agent whose own tools are all off and that reaches none of Aion's (Cline): every request is
 * the turn's, and takes the next step.
 */
export async function startMockChatCompletions(own: OwnTools, { toolless = 'side' }: { toolless?: 'side' | 'scripted' } = {}): Promise<MockModel> {
  const script = new Script();
  const requests: unknown[] = [];
  const server = openAIServer<ChatRequest>(
    {
      route: '/chat/completions',
      models: { object: 'list', data: [{ id: MOCK_CHAT_MODEL, object: 'model', owned_by: 'aion-test' }] },
      async respond(request, _req, res) {
        const tools = offered(request);
        const streamed = request.stream === true;
        // A side request (no tools offered: a title, a summary) gets a short answer and leaves the script alone.
        if (tools.length === 0 && toolless === 'side') return answer(res, streamed, 'Mock title', null);
        const step = await script.take();
        if ('say' in step) return answer(res, streamed, step.say, null);
        let call: Call;
        try {
          call = callFor(step, tools, own);
        } catch (error) {
          return answer(res, streamed, `mock model: ${(error as Error).message}`, null);
        }
        answer(res, streamed, null, call);
      },
    },
    requests,
  );
  return { ...(await listenOnLoopback(server)), requests, script: (next) => script.replace(next) };
}

// `ops demo-agent`: a deterministic ACP agent on stdio, the fake model's
// counterpart (DESIGN.md §4, §6). It reads the prompt line by line; each
// command says what it got back:
//   /say TEXT · /tool NAME {json} (through the MCP server it was given) ·
//   /edit OLD => NEW (assistant_document_edit) · /write TEXT (fs/write_text_file
//   on the shared document; `/write @PATH TEXT` on PATH instead) · /read PATH (fs/read_text_file) · /ask KIND TITLE
//   (session/request_permission; `/ask edit OLD => NEW` carries a diff of the
//   shared document) · /plan A; B · /slow MS · /crash ·
//   /refuse TEXT · /env (the names of its variables) · /recall (the operator's
//   messages this session knows: from the transcript it was given, and each
//   prompt since) · anything else: an echo.
// As a hostile agent would, acting on its own host without asking:
//   /ask-call {toolCall json} (any permission request) · /ask-late MS {toolCall json} (the
//   request first, its call announced as a `tool_call` update MS later, as Kilo does now and
//   then) · /cat PATH · /touch PATH ·
//   /connect URL · /link TARGET PATH (PATH, `~/` for its HOME, made a symbolic link) ·
//   /uid · /child (starts a child process, says its pid) · /detach WORD (one in a
//   session of its own, WORD on its command line) · /orphan WORD (the same by a double
//   fork: its parent exits at once) ·
//   /stderr N TEXT (N lines on stderr) · /forge N ID (N responses to request ID, never sent) ·
//   /stubborn MS (ignores session/cancel) · /flood BYTES (says that much text) ·
//   /huge BYTES (says it in one message) ·
//   /mode ID (says it switched to mode ID) · /fork N (starts N sleeping processes, then
//   ends them) · /alloc MIB (holds that much memory, then lets go) · /fill PATH MIB (writes
//   that much there, then removes it): each says how far it got and why it stopped ·
//   /spin SECONDS N [WORD] (N busy processes of their own sessions, WORD on their command
//   lines, each until it used SECONDS of CPU time; says so once they ended).
// Of the ACP features of 2026: /usage USED SIZE [AMOUNT CURRENCY] (a usage_update:
//   context used and size, the session's cumulative cost) · /tokens IN OUT [THOUGHT
//   CACHE_READ CACHE_WRITE] (the prompt response carries that usage) · /chunk-tokens IN
//   OUT [THOUGHT CACHE_READ] (an empty message chunk carries them as `_meta.usage`, as
//   Qwen Code reports each model call) · /options (its
//   mode and config options as they are now) · /question TEXT (elicitation: a form
//   asking for an environment, a reason and a yes/no; says what came back).
// `\n` in TEXT and ID is a line break. Those that act on its host (/cat,
// /touch, /connect, /link, /fork, /alloc, /fill, /spin) it refuses unless the server says it runs in its
// sandbox (AION_SANDBOXED=1): without one it acts as the server's own user.
// With DEMO_AGENT_RECORD set it appends the client's capabilities, the MCP
// servers each session is given and every prompt it receives to that file; with DEMO_AGENT_AUTH=VARIABLE it requires
// `authenticate` (method `demo-key`, satisfied when VARIABLE is set) before
// session/new; with DEMO_AGENT_MODES=a,b it offers those modes (the first
// current); with DEMO_AGENT_OPTIONS set it offers config options (a model, a
// reasoning effort, and `auto_approve`, which would skip approvals); with DEMO_AGENT_EXIT_ON_SESSION set it exits on session/new;
// with DEMO_AGENT_STDIO_MCP set it advertises no MCP over HTTP, and runs the
// stdio MCP server it is given instead; with DEMO_AGENT_LOAD set it
// advertises session/load, and loads any session id it is given; with
// DEMO_AGENT_BARE_LINES set it ends no line it says with a line break (as
// models end their text blocks); with DEMO_AGENT_SESSIONS=DIR it keeps its sessions in DIR (what each heard) and
// advertises session/list, session/resume and session/close over them, so any
// of its processes, on any server sharing DIR, continues a session.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFile, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import * as acp from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Usage as TurnTokens } from '@agentclientprotocol/sdk/unstable';
import { messageOf } from '../errors.js';

interface DemoSession {
  cwd: string;
  mcp: acp.McpServer | null;
  client: Client | null;
  /** Aborted by session/cancel. */
  turn: AbortController | null;
  /** The operator's messages it knows of, oldest first. */
  heard: string[];
  /** What this turn's prompt response reports it cost (/tokens). */
  tokens: TurnTokens | null;
  /** Its current mode, when it offers modes. */
  mode: string | null;
  /** Its config options, when it offers them (DEMO_AGENT_OPTIONS). */
  options: acp.SessionConfigOption[];
}

const MODES = (process.env.DEMO_AGENT_MODES ?? '').split(',').filter(Boolean);

/** With DEMO_AGENT_OPTIONS: a model, a reasoning effort, and a switch that would skip approvals. */
function demoOptions(): acp.SessionConfigOption[] {
  if (!process.env.DEMO_AGENT_OPTIONS) return [];
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: 'demo-small',
      options: [
        { value: 'demo-small', name: 'Demo small' },
        { value: 'demo-large', name: 'Demo large', description: 'Slower, says more' },
      ],
    },
    {
      id: 'effort',
      name: 'Reasoning effort',
      category: 'thought_level',
      type: 'select',
      currentValue: 'medium',
      options: ['low', 'medium', 'high'].map((value) => ({ value, name: value })),
    },
    { id: 'auto_approve', name: 'Approve everything', type: 'boolean', currentValue: false },
  ];
}

function demoSession(cwd: string, mcp: acp.McpServer | null, heard: string[] = []): DemoSession {
  return { cwd, mcp, client: null, turn: null, heard, tokens: null, mode: MODES[0] ?? null, options: demoOptions() };
}

/** How Aion introduces the transcript of a conversation a new session joins (src/acp/turn.ts). */
const TRANSCRIPT_OPENING = 'Earlier in this conversation:';
const OPERATOR_LINE = 'operator: ';

/** The commands that act on its host, refused outside the sandbox. */
const ON_THE_HOST = new Set(['/cat', '/touch', '/connect', '/link', '/fork', '/alloc', '/fill', '/spin']);

const sessions = new Map<string, DemoSession>();
let nextSession = 1;
let nextToolCall = 1;
let authenticated = false;
/** Whether the client said it takes questions as forms. */
let askable = false;

export async function serveDemoAgent(): Promise<void> {
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = acp
    .agent({ name: 'demo-agent' })
    .onRequest(acp.methods.agent.initialize, async ({ params }) => {
      const record = process.env.DEMO_AGENT_RECORD;
      if (record) await appendFile(record, `${JSON.stringify({ clientCapabilities: params.clientCapabilities })}\n`);
      askable = params.clientCapabilities?.elicitation?.form != null;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: Boolean(process.env.DEMO_AGENT_LOAD),
          mcpCapabilities: { http: !process.env.DEMO_AGENT_STDIO_MCP, sse: false },
          promptCapabilities: {},
          ...(SESSIONS ? { sessionCapabilities: { list: {}, resume: {}, close: {} } } : {}),
        },
        agentInfo: { name: 'demo-agent', title: 'Demo agent', version: '0.1.0' },
        authMethods: process.env.DEMO_AGENT_AUTH ? [{ id: 'demo-key', name: `Use ${process.env.DEMO_AGENT_AUTH}` }] : [],
      };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      const variable = process.env.DEMO_AGENT_AUTH ?? '';
      if (params.methodId !== 'demo-key' || !process.env[variable]) throw acp.RequestError.authRequired(undefined, `set ${variable}`);
      authenticated = true;
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params }) => {
      if (process.env.DEMO_AGENT_EXIT_ON_SESSION) process.exit(4);
      if (process.env.DEMO_AGENT_AUTH && !authenticated) throw acp.RequestError.authRequired();
      await recordServers(params.mcpServers);
      // Kept sessions are named apart from every other process's.
      const sessionId = SESSIONS ? `demo-${randomUUID()}` : `demo-${nextSession++}`;
      const mcp = params.mcpServers[0] ?? null;
      const session = demoSession(params.cwd, mcp);
      sessions.set(sessionId, session);
      return { sessionId, ...offered(session) };
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
      await record({ setMode: params.modeId });
      const session = sessions.get(params.sessionId);
      if (session) session.mode = params.modeId;
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      await record({ setConfigOption: params.configId, value: params.value });
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.resourceNotFound(params.sessionId);
      session.options = session.options.map((o) => (o.id !== params.configId ? o : ({ ...o, currentValue: params.value } as acp.SessionConfigOption)));
      return { configOptions: session.options };
    })
    .onRequest(acp.methods.agent.session.list, async () => ({ sessions: await keptSessions() }))
    .onRequest(acp.methods.agent.session.resume, async ({ params }) => {
      const kept = await keptSession(params.sessionId);
      if (!kept) throw acp.RequestError.resourceNotFound(params.sessionId);
      await recordServers(params.mcpServers ?? []);
      await record({ resume: params.sessionId });
      const session = demoSession(params.cwd, params.mcpServers?.[0] ?? null, kept.heard);
      sessions.set(params.sessionId, session);
      return offered(session);
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      await record({ close: params.sessionId });
      sessions.get(params.sessionId)?.turn?.abort();
      sessions.delete(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.load, async ({ params }) => {
      await recordServers(params.mcpServers);
      const session = demoSession(params.cwd, params.mcpServers[0] ?? null);
      sessions.set(params.sessionId, session);
      return offered(session);
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.resourceNotFound(params.sessionId);
      session.turn = new AbortController();
      try {
        return await answer(client, params, session, session.turn.signal);
      } finally {
        session.turn = null;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    })
    .connect(stream);
  await connection.closed;
}

/** A prompt response with the usage ACP's unstable part lets it carry. */
type Answered = acp.PromptResponse & { usage?: TurnTokens };

async function answer(client: acp.AgentContext, params: acp.PromptRequest, session: DemoSession, signal: AbortSignal): Promise<Answered> {
  const answered = await follow(client, params, session, signal);
  return session.tokens ? { ...answered, usage: session.tokens } : answered;
}

async function follow(
  client: acp.AgentContext,
  params: acp.PromptRequest,
  session: DemoSession,
  signal: AbortSignal,
): Promise<acp.PromptResponse> {
  session.tokens = null;
  const record = process.env.DEMO_AGENT_RECORD;
  if (record) await appendFile(record, `${JSON.stringify(params.prompt)}\n`);
  const texts = params.prompt.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const text = texts.join('\n');
  // Only the operator's newest message is a script; a transcript before it is context.
  const transcript = texts.filter((block) => block.startsWith(TRANSCRIPT_OPENING)).join('\n');
  const script = texts.filter((block) => !block.startsWith(TRANSCRIPT_OPENING)).join('\n');
  session.heard.push(...transcript.split('\n').flatMap((l) => (l.startsWith(OPERATOR_LINE) ? [l.slice(OPERATOR_LINE.length)] : [])), script.trim());
  await keepSession(params.sessionId, session);
  const shared = params.prompt.flatMap((b) => (b.type === 'resource_link' ? [new URL(b.uri).pathname] : []))[0] ?? null;
  const say = (words: string) =>
    client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: process.env.DEMO_AGENT_BARE_LINES ? words : `${words}\n` } },
    });
  const update = (u: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: u });

  const lines = script.split('\n').filter((l) => l.trim() !== '');
  const commands = lines.filter((l) => l.startsWith('/'));
  if (commands.length === 0) {
    await say(`demo-agent: ${text.trim().slice(0, 200)}`);
    return { stopReason: 'end_turn' };
  }
  for (const line of commands) {
    if (signal.aborted) return { stopReason: 'cancelled' };
    const [command = '', ...restWords] = line.split(' ');
    const rest = restWords.join(' ');
    if (ON_THE_HOST.has(command) && process.env.AION_SANDBOXED !== '1') {
      await say(`${command.slice(1)}: refused: the demo agent runs without a sandbox here, so it acts on nothing of its host`);
      continue;
    }
    switch (command) {
      case '/say':
        await say(rest);
        break;
      case '/tool': {
        const space = rest.indexOf(' ');
        const name = space < 0 ? rest : rest.slice(0, space);
        const input = space < 0 ? {} : (JSON.parse(rest.slice(space + 1)) as Record<string, unknown>);
        await say(`${name}: ${await callTool(session, name, input, update)}`);
        break;
      }
      case '/edit': {
        const [oldString = '', newString = ''] = rest.split(' => ');
        const outcome = await callTool(session, 'assistant_document_edit', { edits: [{ old_string: oldString, new_string: newString }] }, update);
        await say(`edit: ${outcome}`);
        break;
      }
      case '/write': {
        const named = rest.startsWith('@') ? (restWords[0] ?? '').slice(1) : null;
        const target = named === null ? shared : path.resolve(session.cwd, named);
        if (!target) {
          await say('write: no shared document');
          break;
        }
        const content = (named === null ? rest : restWords.slice(1).join(' ')).replaceAll('\\n', '\n');
        const outcome = await client
          .request(acp.methods.client.fs.writeTextFile, { sessionId: params.sessionId, path: target, content })
          .then(() => 'ok', (error: unknown) => `error: ${messageOf(error)}`);
        await say(`write: ${outcome}`);
        break;
      }
      case '/read': {
        const outcome = await client
          .request(acp.methods.client.fs.readTextFile, { sessionId: params.sessionId, path: path.resolve(session.cwd, rest) })
          .then((r) => r.content, (error: unknown) => `error: ${messageOf(error)}`);
        await say(`read: ${outcome}`);
        break;
      }
      case '/ask': {
        const [kind = 'other', ...words] = restWords;
        const title = words.join(' ');
        const toolCallId = `ask-${nextToolCall++}`;
        const [oldText, newText] = title.split(' => ');
        const diff: acp.ToolCallContent[] =
          kind === 'edit' && shared && newText !== undefined ? [{ type: 'diff', path: shared, oldText, newText }] : [];
        const reply = await client.request(acp.methods.client.session.requestPermission, {
          sessionId: params.sessionId,
          toolCall: { toolCallId, title: title || kind, kind: kind as acp.ToolKind, status: 'pending', content: diff },
          options: [
            { optionId: 'go', name: 'Allow', kind: 'allow_once' },
            { optionId: 'stop', name: 'Reject', kind: 'reject_once' },
          ],
        });
        const outcome = reply.outcome.outcome === 'selected' ? reply.outcome.optionId : 'cancelled';
        await say(`ask: ${outcome}`);
        break;
      }
      case '/ask-call': {
        const toolCall = { toolCallId: `ask-${nextToolCall++}`, ...(JSON.parse(rest) as Partial<acp.ToolCallUpdate>) };
        const reply = await client.request(acp.methods.client.session.requestPermission, {
          sessionId: params.sessionId,
          toolCall,
          options: [
            { optionId: 'go', name: 'Allow', kind: 'allow_once' },
            { optionId: 'stop', name: 'Reject', kind: 'reject_once' },
          ],
        });
        await say(`ask: ${reply.outcome.outcome === 'selected' ? reply.outcome.optionId : 'cancelled'}`);
        break;
      }
      case '/ask-late': {
        const [ms = '0', ...json] = restWords;
        const toolCall = { toolCallId: `ask-${nextToolCall++}`, ...(JSON.parse(json.join(' ')) as Partial<acp.ToolCallUpdate>) };
        const reply = client.request(acp.methods.client.session.requestPermission, {
          sessionId: params.sessionId,
          toolCall,
          options: [
            { optionId: 'go', name: 'Allow', kind: 'allow_once' },
            { optionId: 'stop', name: 'Reject', kind: 'reject_once' },
          ],
        });
        await sleep(Number(ms), undefined, { signal }).catch(() => undefined);
        await update({ sessionUpdate: 'tool_call', toolCallId: toolCall.toolCallId, title: toolCall.title ?? '', kind: toolCall.kind ?? undefined, status: toolCall.status ?? undefined });
        const outcome = (await reply).outcome;
        await say(`ask: ${outcome.outcome === 'selected' ? outcome.optionId : 'cancelled'}`);
        break;
      }
      case '/cat':
        await say(`cat: ${await readFile(rest, 'utf8').then((t) => `read ${t.slice(0, 200)}`, (e: NodeJS.ErrnoException) => `error ${e.code ?? e.message}`)}`);
        break;
      case '/touch':
        await say(`touch: ${await writeFile(rest, 'planted').then(() => 'wrote', (e: NodeJS.ErrnoException) => `error ${e.code ?? e.message}`)}`);
        break;
      case '/link': {
        const [target = '', where = ''] = restWords;
        const file = where.startsWith('~/') ? path.join(process.env.HOME ?? '', where.slice(2)) : path.resolve(session.cwd, where);
        const linked = await rm(file, { recursive: true, force: true })
          .then(() => symlink(target, file))
          .then(() => 'made', (e: NodeJS.ErrnoException) => `error ${e.code ?? e.message}`);
        await say(`link: ${linked}`);
        break;
      }
      case '/stderr': {
        const text = restWords.slice(1).join(' ').replaceAll('\\n', '\n');
        for (let i = 0; i < (Number(restWords[0]) || 0); i++) process.stderr.write(`${text}\n`);
        await say('stderr: written');
        break;
      }
      case '/forge': {
        const id = restWords.slice(1).join(' ').replaceAll('\\n', '\n');
        const line = `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;
        for (let i = 0; i < (Number(restWords[0]) || 0); i++) process.stdout.write(line);
        await say('forge: written');
        break;
      }
      case '/connect':
        await say(`connect: ${await fetch(rest, { signal: AbortSignal.timeout(3000) }).then((r) => `status ${r.status}`, (e: Error) => `error ${(e.cause as Error | undefined)?.message ?? e.message}`)}`);
        break;
      case '/huge':
        await say('x'.repeat(Number(rest) || 0));
        break;
      case '/mode':
        await update({ sessionUpdate: 'current_mode_update', currentModeId: rest });
        await sleep(1000, undefined, { signal }).catch(() => undefined);
        await say(`mode: ${rest}`);
        break;
      case '/usage': {
        const [used = '0', size = '0', amount, currency] = restWords;
        const cost = amount !== undefined ? { amount: Number(amount), currency: currency ?? 'USD' } : null;
        await update({ sessionUpdate: 'usage_update', used: Number(used), size: Number(size), cost });
        await say('usage: sent');
        break;
      }
      case '/tokens': {
        const [input = 0, output = 0, thought, cacheRead, cacheWrite] = restWords.map(Number);
        session.tokens = {
          inputTokens: input,
          outputTokens: output,
          totalTokens: input + output + (thought ?? 0),
          ...(thought !== undefined ? { thoughtTokens: thought } : {}),
          ...(cacheRead !== undefined ? { cachedReadTokens: cacheRead } : {}),
          ...(cacheWrite !== undefined ? { cachedWriteTokens: cacheWrite } : {}),
        };
        await say('tokens: reported');
        break;
      }
      case '/chunk-tokens': {
        const [input = 0, output = 0, thought, cacheRead] = restWords.map(Number);
        const usage = {
          inputTokens: input,
          outputTokens: output,
          totalTokens: input + output,
          ...(thought !== undefined ? { thoughtTokens: thought } : {}),
          ...(cacheRead !== undefined ? { cachedReadTokens: cacheRead } : {}),
        };
        await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' }, _meta: { usage, durationMs: 1 } });
        await say('chunk tokens: reported');
        break;
      }
      case '/question': {
        if (!askable) {
          await say('question: the client takes no questions');
          break;
        }
        const reply = await client.request(acp.methods.client.elicitation.create, {
          sessionId: params.sessionId,
          mode: 'form',
          message: rest || 'Which environment?',
          requestedSchema: {
            type: 'object',
            properties: {
              environment: { type: 'string', title: 'Environment', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] },
              reason: { type: 'string', title: 'Why', maxLength: 200 },
              careful: { type: 'boolean', title: 'Go carefully', default: true },
            },
            required: ['environment'],
          },
        });
        await say(`question: ${reply.action}${reply.action === 'accept' ? ` ${JSON.stringify(reply.content ?? {})}` : ''}`);
        break;
      }
      case '/options':
        await say(`options: ${[...(session.mode !== null ? [`mode=${session.mode}`] : []), ...session.options.map((o) => `${o.id}=${String(o.currentValue)}`)].join(' ')}`);
        break;
      case '/uid':
        await say(`uid: ${process.getuid?.() ?? -1}`);
        break;
      case '/child': {
        const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
        await say(`child: ${child.pid ?? -1}`);
        break;
      }
      case '/detach': {
        // A background process of its own session, out of the agent's process group: what a hostile agent leaves behind.
        const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', rest], { stdio: 'ignore', detached: true });
        child.unref();
        await say(`detach: ${child.pid ?? -1}`);
        break;
      }
      case '/orphan': {
        // A double fork: a child starts WORD's process in a session of its own and exits, leaving it to init.
        const grandchild = `require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(rest)}], { stdio: 'ignore', detached: true }).unref()`;
        const child = spawn(process.execPath, ['-e', grandchild], { stdio: 'ignore' });
        await new Promise((resolve) => child.once('close', resolve));
        await say('orphan: started');
        break;
      }
      case '/fork': {
        const children = [];
        let why = 'done';
        while (children.length < (Number(rest) || 0)) {
          const child = spawn('sleep', ['60'], { stdio: 'ignore' });
          const failed = await new Promise<string | null>((resolve) => {
            child.once('spawn', () => resolve(null));
            child.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
          });
          if (failed) {
            why = failed;
            break;
          }
          children.push(child);
        }
        // Reaped before it answers: a killed child still counts against the process limit until then, and the
        // next message's work (the runtime's first file-system thread) would find no room to start.
        await Promise.all(
          children.map(
            (child) =>
              new Promise((resolve) => {
                if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
                child.once('exit', resolve);
                child.kill('SIGKILL');
              }),
          ),
        );
        await say(`fork: ${children.length} of ${rest} (${why})`);
        break;
      }
      case '/spin': {
        // Busy processes of their own sessions (out of its group, as a hostile agent would start them), waited for.
        const [seconds = '0', count = '1', word = ''] = restWords;
        // Its own CPU time, not the clock's: on a loaded machine it still spends all of it.
        const busy = `while (process.cpuUsage().user < ${Number(seconds) * 1e6 || 0});`;
        const children = Array.from({ length: Number(count) || 0 }, () =>
          spawn(process.execPath, ['-e', busy, ...(word ? [word] : [])], { stdio: 'ignore', detached: true }),
        );
        await Promise.all(children.map((child) => new Promise((resolve) => child.once('close', resolve))));
        await say(`spin: ${children.length} processes for ${seconds} s`);
        break;
      }
      case '/alloc': {
        const held: Buffer[] = [];
        let why = 'done';
        try {
          while (held.length * 16 < (Number(rest) || 0)) held.push(Buffer.alloc(16 * 1024 * 1024, 1));
        } catch (e) {
          why = (e as Error).name;
        }
        await say(`alloc: ${held.length * 16} of ${rest} MiB (${why})`);
        held.length = 0;
        break;
      }
      case '/fill': {
        const [where = '', size = '0'] = restWords;
        const file = path.resolve(session.cwd, where);
        const mib = Buffer.alloc(1024 * 1024, 1);
        let written = 0;
        let why = 'done';
        try {
          await writeFile(file, '');
          for (; written < Number(size); written++) await appendFile(file, mib);
        } catch (e) {
          why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        }
        await rm(file, { force: true });
        await say(`fill: ${written} of ${size} MiB (${why})`);
        break;
      }
      case '/stubborn':
        await sleep(Number(rest) || 0);
        await say(`stubborn: ${rest} ms`);
        break;
      case '/flood': {
        const chunk = 'x'.repeat(64 * 1024);
        for (let sent = 0; sent < (Number(rest) || 0); sent += chunk.length) await say(chunk);
        break;
      }
      case '/plan':
        await update({
          sessionUpdate: 'plan',
          entries: rest.split(';').map((entry) => ({ content: entry.trim(), priority: 'medium', status: 'pending' })),
        });
        await say('plan: sent');
        break;
      case '/slow':
        await sleep(Number(rest) || 0, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return { stopReason: 'cancelled' };
        await say(`slow: ${rest} ms`);
        break;
      case '/crash':
        process.exit(3);
        break;
      case '/refuse':
        await say(rest || 'demo-agent refuses');
        return { stopReason: 'refusal' };
      case '/env':
        await say(`env: ${Object.keys(process.env).sort().join(', ')}`);
        break;
      case '/recall':
        await say(`recall: ${session.heard.join(' | ')}`);
        break;
      default:
        await say(`demo-agent: unknown command ${command}`);
    }
  }
  return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
}

/** The modes and config options a session offers, as session/new, load and resume answer them. */
function offered(session: DemoSession): { modes?: acp.SessionModeState; configOptions?: acp.SessionConfigOption[] } {
  return {
    ...(session.mode !== null ? { modes: { currentModeId: session.mode, availableModes: MODES.map((id) => ({ id, name: id })) } } : {}),
    ...(session.options.length > 0 ? { configOptions: session.options } : {}),
  };
}

/** With DEMO_AGENT_SESSIONS: where its sessions are kept. */
const SESSIONS = process.env.DEMO_AGENT_SESSIONS ?? '';

const keptFile = (sessionId: string) => path.join(SESSIONS, `${sessionId.replace(/[^\w-]/g, '_')}.json`);

async function keepSession(sessionId: string, session: DemoSession): Promise<void> {
  if (SESSIONS) await writeFile(keptFile(sessionId), JSON.stringify({ sessionId, cwd: session.cwd, heard: session.heard }));
}

async function keptSession(sessionId: string): Promise<{ heard: string[] } | null> {
  if (!SESSIONS) return null;
  return readFile(keptFile(sessionId), 'utf8').then((text) => JSON.parse(text) as { heard: string[] }, () => null);
}

async function keptSessions(): Promise<acp.SessionInfo[]> {
  if (!SESSIONS) return [];
  const names = await readdir(SESSIONS).catch(() => []);
  const kept = await Promise.all(names.map((name) => readFile(path.join(SESSIONS, name), 'utf8').then((t) => JSON.parse(t) as { sessionId: string; cwd: string }, () => null)));
  return kept.flatMap((k) => (k ? [{ sessionId: k.sessionId, cwd: k.cwd }] : []));
}

/** With DEMO_AGENT_RECORD: appends what it was asked to that file. */
async function record(entry: Record<string, unknown>): Promise<void> {
  const file = process.env.DEMO_AGENT_RECORD;
  if (file) await appendFile(file, `${JSON.stringify(entry)}\n`);
}

/** With DEMO_AGENT_RECORD: the MCP servers a session is given (its credential with them), for tests to use as the agent would. */
async function recordServers(mcpServers: acp.McpServer[]): Promise<void> {
  const record = process.env.DEMO_AGENT_RECORD;
  if (record) await appendFile(record, `${JSON.stringify({ mcpServers })}\n`);
}

/** Calls one tool of the MCP server the session was given, shown as a tool call; says what came back. */
async function callTool(
  session: DemoSession,
  name: string,
  input: Record<string, unknown>,
  update: (u: acp.SessionUpdate) => Promise<void>,
): Promise<string> {
  const toolCallId = `tool-${nextToolCall++}`;
  await update({ sessionUpdate: 'tool_call', toolCallId, title: name, kind: 'other', status: 'in_progress', rawInput: input });
  let outcome: string;
  let failed = true;
  try {
    const client = await mcpClient(session);
    const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
    failed = result.isError === true;
    outcome = `${failed ? 'error' : 'ok'} ${JSON.stringify(result.structuredContent ?? {})}`;
  } catch (error) {
    outcome = `error: ${messageOf(error)}`;
  }
  await update({ sessionUpdate: 'tool_call_update', toolCallId, status: failed ? 'failed' : 'completed' });
  return outcome;
}

async function mcpClient(session: DemoSession): Promise<Client> {
  if (session.client) return session.client;
  const server = session.mcp;
  if (!server) throw new Error('no MCP server was given');
  const client = new Client({ name: 'demo-agent', version: '0.1.0' });
  if ('type' in server && server.type === 'sse') throw new Error('MCP over SSE is not spoken here');
  if ('url' in server) {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  } else {
    const env = { PATH: process.env.PATH ?? '', ...Object.fromEntries(server.env.map((v) => [v.name, v.value])) };
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env }));
  }
  session.client = client;
  return client;
}


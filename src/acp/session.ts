// One thread's agent session: the process, started with the thread's session
// credential and Aion's own /mcp, its ACP session (the thread's own resumed or
// loaded where the agent can, else new; closed before its process stops; `authenticate` first when the agent asks for it and was
// given the variables), put in a mode that asks before acting, and the client
// side of the protocol — updates into the running turn's answer, permissions
// by rule, files through the shared buffer, questions to the operator.
import type * as acp from '@agentclientprotocol/sdk';
import { eq } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ThreadRecord } from '../assistant/threads.js';
import { OPS_MAIN, type AgentConfig } from '../config.js';
import { mintSessionCredential, revokeSessionCredential } from '../conversation/credentials.js';
import { applyEdits } from '../documents/index.js';
import { messageOf } from '../errors.js';
import { threads } from '../store/schema.js';
import { AgentLog } from './agent-log.js';
import { AgentProcess, type AgentClientHandlers, type AgentFolders, type AgentLaunch } from './agent-process.js';
import { authenticationFor } from './authentication.js';
import { CpuBudget } from './cpu-budget.js';
import { readFile, writeFile, type AgentFiles } from './files.js';
import type { AgentSession, SessionOwner } from './hosting.js';
import { actsUnasked, askingModeOf, askingOptionsOf } from './modes.js';
import { AION_MCP_NAME, decidePermission, permissionReply, refusedByKind, type EarlierUpdate } from './permissions.js';
import { storeOptions, type SessionOptions } from './options.js';
import { askOperator } from './questions.js';
import { noteChunkUsage, noteUsageUpdate } from './reported-usage.js';
import { AgentStartError } from './start-error.js';

/** JSON-RPC's code for "authentication required" (ACP). */
const AUTH_REQUIRED = -32000;
/** How long a permission request that came before its call was announced waits for that announcement. */
const FIRST_UPDATE_WAIT_MS = 1_000;

/**
 * The thread's session, opened; AgentStartError with the sentence why when it
 * cannot be, or the signal's reason when it is aborted (the process is then
 * stopped at once). `onExit` hears of the process ending, at any moment.
 */
export async function openSession(
  host: SessionOwner,
  config: AgentConfig,
  operator: Operator,
  thread: ThreadRecord,
  folders: AgentFolders & { launch: AgentLaunch },
  signal: AbortSignal,
  onExit: (session: AgentSession) => void,
): Promise<AgentSession> {
  const { deps } = host;
  // The server mints it for the agent it starts: audited as the assistant's doing, for the thread's operator;
  // short-lived, renewed while this server holds the thread's agent lease.
  const credential = await mintSessionCredential(deps, { operator, via: 'assistant' }, thread, host.leases.credentialMs);
  host.leases.holdCredential(thread.id, credential.id);
  const files: AgentFiles = { threadId: thread.id, project: thread.project, operator, work: folders.work };
  // The handlers reach the session once it exists; before that nothing of a turn can arrive.
  const live: { session?: AgentSession } = {};
  // Set once the session asks before acting: the updates of its opening describe the state Aion then changes.
  let ready = false;
  const tools = new Set(deps.executor.catalogue().map((t) => t.name));
  const sharedPath = async () => {
    const context = await deps.contexts.read(thread.id);
    return context.shared && context.document ? `${folders.work}/${context.document.path}` : null;
  };
  /** What the session offers changed: kept, and shown on the thread. */
  const noteOffered = (session: AgentSession, update: Extract<acp.SessionUpdate, { sessionUpdate: 'config_option_update' | 'current_mode_update' }>) => {
    if (update.sessionUpdate === 'config_option_update') session.offered.configOptions = update.configOptions;
    else if (session.offered.modes) session.offered.modes = { ...session.offered.modes, currentModeId: update.currentModeId };
    void storeOptions(deps.db, thread.id, config.name, session.offered).catch(() => undefined);
  };
  const handlers: AgentClientHandlers = {
    update: ({ sessionId, update }) => {
      const session = live.session;
      if (!session || sessionId !== session.sessionId || !ready) return;
      // A mode or option that stops it asking (an operator's `/allow-all on`, a tool of its own) ends it at once.
      const unasked = actsUnasked(update, session.offered.modes);
      if (unasked !== null) {
        session.turn?.answer.note(`Aion stopped ${config.name}: it switched to ${unasked}, which acts without asking.`);
        deps.turns.runningHere(thread.id)?.requestCancel();
        void host.stop(thread.id);
        return;
      }
      if (update.sessionUpdate === 'config_option_update' || update.sessionUpdate === 'current_mode_update') noteOffered(session, update);
      // Updates outside a turn (commands, MCP status before any prompt, a loaded history) are dropped.
      if (update.sessionUpdate === 'usage_update' && session.turn) noteUsageUpdate(session.turn.usage, update);
      if (session.turn) noteChunkUsage(session.turn.usage, update);
      session.turn?.answer.apply(update);
    },
    requestPermission: async (request) => {
      const turn = live.session?.turn;
      if (!turn || turn.cancelled) return permissionReply(request.options, 'cancelled');
      const id = request.toolCall.toolCallId;
      const knownKind = turn.answer.kindOf(id);
      const announced = turn.answer.firstUpdateOf(id);
      turn.answer.upsertToolCall(request.toolCall);
      const decide = async (earlier: EarlierUpdate | null) =>
        decidePermission(request, {
          knownKind: knownKind ?? earlier?.kind ?? null,
          earlier,
          sharedPath: await sharedPath(),
          isAionTool: (name) => tools.has(name),
          editShared: async (oldText, newText) => {
            await deps.contexts.editText(thread.id, (document) => {
              if (oldText === null || oldText === document.text) return newText;
              const edited = applyEdits(document.text, [{ old_string: oldText, new_string: newText }]);
              if (!edited.ok) throw new Error(edited.message);
              return edited;
            });
          },
        }).catch((error: unknown) => ({ allowed: false as const, sentence: `the edit did not apply: ${messageOf(error)}` }));
      let decision = await decide(announced);
      // Kilo now and then asks a moment (1 ms measured) before it announces the call its marker is on: a refusal
      // for want of that announcement waits for it, briefly, and is decided again on what it says.
      if (!decision.allowed && announced === null && !refusedByKind(request, knownKind)) {
        const late = await turn.answer.firstUpdateWithin(id, FIRST_UPDATE_WAIT_MS);
        if (late !== null && !turn.cancelled) decision = await decide(late);
      }
      if (!decision.allowed) turn.answer.upsertToolCall(request.toolCall, decision.sentence);
      return permissionReply(request.options, decision.allowed);
    },
    createElicitation: async (request) => {
      const running = deps.turns.runningHere(thread.id);
      const session = live.session;
      // Only a question of this session, inside its running turn, reaches the operator.
      const ofSession = 'sessionId' in request && session !== undefined && request.sessionId === session.sessionId;
      if (!running || !session?.turn || session.turn.cancelled || !ofSession) return { action: ofSession ? 'cancel' : 'decline' };
      return askOperator(deps, running, request);
    },
    readTextFile: (request) => readFile(deps, files, request),
    writeTextFile: (request) => writeFile(deps.contexts, files, request),
  };
  let agent: AgentProcess;
  try {
    const log = new AgentLog({ agent: config.name, thread: thread.id }, deps.logAgentOutput);
    agent = await AgentProcess.start(config, folders.launch, handlers, signal, log);
  } catch (error) {
    await revokeSessionCredential(deps.db, deps.changes, credential.id);
    throw error;
  }
  let closed: Promise<void> | null = null;
  const cleanups: (() => Promise<void>)[] = [];
  const { cpuSeconds } = deps.config.agentLimits;
  // Past its budget the agent is stopped at once, in a turn or after it (what a turn left running counts against it).
  const cpu = new CpuBudget(cpuSeconds > 0 ? agent.pid : undefined, cpuSeconds, (used) => {
    // Rounded up: 3.04 s past a 3 s budget must not read "used 3.0 s, more than its 3 s".
    opening.stoppedFor = `agent ${config.name} used ${(Math.ceil(used * 10) / 10).toFixed(1)} s of CPU time since its turn started, more than its ${cpuSeconds} s (AION_AGENT_CPU_SECONDS), and was stopped`;
    if (!opening.turn) deps.log(`${opening.stoppedFor} (thread ${thread.id})`);
    void host.stop(thread.id);
  });
  const opening: AgentSession = {
    agent,
    sessionId: '',
    files,
    needsTranscript: false,
    offered: { modes: null, configOptions: [] },
    turn: null,
    cpu,
    stoppedFor: null,
    close: () => {
      closed ??= (async () => {
        cpu.stop();
        await closeSession(agent, opening.sessionId);
        await agent.stop();
        await revokeSessionCredential(deps.db, deps.changes, credential.id).catch(() => undefined);
        for (const cleanup of cleanups) await cleanup().catch(() => undefined);
      })();
      return closed;
    },
    onClose: (cleanup) => void cleanups.push(cleanup),
  };
  live.session = opening;
  void agent.exited.then(() => onExit(opening));
  const abort = () => void opening.close();
  signal.addEventListener('abort', abort, { once: true });
  try {
    const setup = sessionSetup(host.serverUrl, credential.token, agent.capabilities);
    const opened = thread.agentSession === null ? null : await continueSession(agent, thread.agentSession, folders.work, setup);
    const session = opened ?? (await newSession(agent, folders.work, setup));
    opening.sessionId = session.sessionId;
    opening.needsTranscript = opened === null;
    opening.offered = await askBeforeActing(agent, session);
    ready = true;
    await storeOptions(deps.db, thread.id, config.name, opening.offered);
    if (!opened) await deps.db.update(threads).set({ agentSession: session.sessionId }).where(eq(threads.id, thread.id));
  } catch (error) {
    await opening.close();
    if (signal.aborted) throw signal.reason;
    throw error instanceof AgentStartError ? error : new AgentStartError(`${config.name} could not open a session: ${agent.why(error)}`);
  } finally {
    signal.removeEventListener('abort', abort);
  }
  return opening;
}

interface OpenedSession {
  sessionId: string;
  modes?: acp.SessionModeState | null;
  configOptions?: acp.SessionConfigOption[] | null;
}

/** session/new; when the agent answers that it needs authentication, `authenticate` as it offers, then again. */
async function newSession(agent: AgentProcess, cwd: string, setup: SessionSetup): Promise<OpenedSession> {
  const request: acp.NewSessionRequest = { cwd, ...setup };
  try {
    return await agent.agent.request('session/new', request);
  } catch (error) {
    if ((error as { code?: unknown }).code !== AUTH_REQUIRED) throw error;
    const method = authenticationFor(agent.authMethods, agent.config.env);
    if ('missing' in method) {
      throw new AgentStartError(`${agent.config.name} needs to authenticate (it said: ${agent.why(error).slice(0, 200)}): ${method.missing}`);
    }
    await agent.agent.request('authenticate', { methodId: method.methodId });
    return agent.agent.request('session/new', request);
  }
}

/**
 * The thread's stored session, continued (it may have been opened on another
 * server): session/resume where the agent offers it (it continues without
 * replaying the history), else session/load; where it offers session/list,
 * only a session it lists. Null when it cannot or no longer has the session:
 * a new one then gets the transcript.
 */
async function continueSession(agent: AgentProcess, sessionId: string, cwd: string, setup: SessionSetup): Promise<OpenedSession | null> {
  const offers = agent.capabilities.sessionCapabilities ?? {};
  const method = offers.resume ? 'session/resume' : agent.capabilities.loadSession === true ? 'session/load' : null;
  if (method === null) return null;
  try {
    if (offers.list && !(await listed(agent, sessionId))) return null;
    // The same _meta as a new session's: a continued session gets its own tool set afresh.
    const continued = await agent.agent.request(method, { sessionId, cwd, ...setup });
    return { sessionId, modes: continued.modes ?? null, configOptions: continued.configOptions ?? null };
  } catch {
    return null;
  }
}

/** How many pages of session/list are read looking for a session. */
const LIST_PAGES = 10;

async function listed(agent: AgentProcess, sessionId: string): Promise<boolean> {
  let cursor: string | null = null;
  for (let page = 0; page < LIST_PAGES; page++) {
    const answer: acp.ListSessionsResponse = await agent.agent.request('session/list', cursor === null ? {} : { cursor });
    if (answer.sessions.some((s) => s.sessionId === sessionId)) return true;
    cursor = answer.nextCursor ?? null;
    if (cursor === null) return false;
  }
  // Past what is read, it is taken at its word: the attempt to continue says.
  return true;
}

/** How long an agent has to answer session/close before it is stopped all the same. */
const CLOSE_TIMEOUT_MS = 2_000;

/** session/close where the agent offers it: it frees what it holds for the session (its process stops next). */
async function closeSession(agent: AgentProcess, sessionId: string): Promise<void> {
  if (!agent.running || sessionId === '' || !agent.capabilities.sessionCapabilities?.close) return;
  await agent.agent
    .request('session/close', { sessionId }, { cancellationSignal: AbortSignal.timeout(CLOSE_TIMEOUT_MS), stopWaitingOnCancel: true })
    .catch(() => undefined);
}

/**
 * Puts the session in a mode that asks before acting and turns off any option
 * that skips asking; an agent that offers no way to ask cannot hold a thread.
 */
async function askBeforeActing(agent: AgentProcess, session: OpenedSession): Promise<SessionOptions> {
  const mode = askingModeOf(session.modes);
  if ('none' in mode) {
    throw new AgentStartError(`${agent.config.name} offers no mode that asks before acting (it offers ${mode.none})`);
  }
  const modes = session.modes ? { ...session.modes } : null;
  if (mode.set !== null && modes) {
    await agent.agent.request('session/set_mode', { sessionId: session.sessionId, modeId: mode.set });
    modes.currentModeId = mode.set;
  }
  // Modes offered both ways are set once, as modes.
  const offered = session.modes?.availableModes.length ? session.configOptions?.filter((o) => o.category !== 'mode') : session.configOptions;
  const options = askingOptionsOf(offered);
  if ('none' in options) throw new AgentStartError(`${agent.config.name} cannot be made to ask before acting: ${options.none}`);
  let configOptions = session.configOptions ?? [];
  for (const change of options) configOptions = (await agent.agent.request('session/set_config_option', { ...change, sessionId: session.sessionId })).configOptions;
  return { modes, configOptions };
}

interface SessionSetup {
  mcpServers: acp.McpServer[];
  _meta: Record<string, unknown>;
}

/**
 * Aion's own /mcp with the thread's credential — over HTTP where the agent
 * can, else `ops mcp` on stdio — and what the session is told besides.
 * claude-agent-acp (it says `claudeCode` in its capabilities) hands the MCP
 * configuration to the CLI it starts on that CLI's command line, where any
 * local user reads it: it gets `${AION_TOKEN}`, which the CLI expands from the
 * environment it is given over ACP, so the credential never enters a command line.
 */
function sessionSetup(serverUrl: string, token: string, capabilities: acp.AgentCapabilities): SessionSetup {
  const expands = capabilities._meta?.claudeCode !== undefined;
  const credential = expands ? '${AION_TOKEN}' : token;
  const mcpServers: acp.McpServer[] = [
    capabilities.mcpCapabilities?.http
      ? { type: 'http', name: AION_MCP_NAME, url: `${serverUrl}/mcp`, headers: [{ name: 'Authorization', value: `Bearer ${credential}` }] }
      : {
          name: AION_MCP_NAME,
          command: process.execPath,
          args: [OPS_MAIN, 'mcp'],
          env: [
            { name: 'AION_URL', value: serverUrl },
            { name: 'AION_TOKEN', value: credential },
          ],
        },
  ];
  const options = {
    // No tools of its own: the model is offered Aion's alone.
    tools: [],
    allowDangerouslySkipPermissions: false,
    ...(expands ? { env: { AION_TOKEN: token } } : {}),
  };
  // Agents that can work without asking are told to use no tools of their own (claude-agent-acp reads these).
  return { mcpServers, _meta: { disableBuiltInTools: true, claudeCode: { options } } };
}

// One thread's agent session: the process, started with the thread's session
// credential and Aion's own /mcp, its ACP session (loaded where the agent
// can, else new), put in a mode that asks before acting, and the client side
// of the protocol — updates into the running turn's answer, permissions by
// rule, files through the shared buffer.
import type * as acp from '@agentclientprotocol/sdk';
import { eq } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ThreadRecord } from '../assistant/threads.js';
import { OPS_MAIN, type AgentConfig } from '../config.js';
import { mintSessionCredential, revokeSessionCredential } from '../conversation/credentials.js';
import { applyEdits } from '../documents/index.js';
import { threads } from '../store/schema.js';
import { AgentProcess, type AgentClientHandlers, type AgentFolders } from './agent-process.js';
import type { AgentAnswer } from './answer.js';
import { readFile, writeFile, type AgentFiles } from './files.js';
import type { AgentHost } from './host.js';
import { AION_MCP_NAME, decidePermission, permissionReply } from './permissions.js';
import { AgentStartError } from './start-error.js';

export interface RunningAgentTurn {
  answer: AgentAnswer;
  cancelled: boolean;
}

export interface AgentSession {
  agent: AgentProcess;
  sessionId: string;
  files: AgentFiles;
  /** A new session over a thread that already has messages: the next prompt carries its transcript. */
  needsTranscript: boolean;
  turn: RunningAgentTurn | null;
  close(): Promise<void>;
}

/** Modes that ask the client before acting, in order of preference (claude-agent-acp's `default` first). */
const ASKING_MODES = ['default', 'ask', 'read-only'];

export async function openSession(
  host: AgentHost,
  config: AgentConfig,
  operator: Operator,
  thread: ThreadRecord,
  folders: AgentFolders,
  onExit: () => void,
): Promise<AgentSession> {
  const { deps } = host;
  // The server mints it for the agent it starts: audited as the assistant's doing, for the thread's operator.
  const credential = await mintSessionCredential(deps, { operator, via: 'assistant' }, thread);
  const files: AgentFiles = { threadId: thread.id, project: thread.project, operator, work: folders.work };
  // The handlers reach the session once it exists; before that nothing of a turn can arrive.
  const live: { session?: AgentSession } = {};
  const tools = new Set(deps.executor.catalogue().map((t) => t.name));
  const sharedPath = async () => {
    const context = await deps.contexts.read(thread.id);
    return context.shared && context.document ? `${folders.work}/${context.document.path}` : null;
  };
  const handlers: AgentClientHandlers = {
    update: ({ sessionId, update }) => {
      // Updates outside a turn (commands, MCP status before any prompt, a loaded history) are dropped.
      if (sessionId === live.session?.sessionId) live.session.turn?.answer.apply(update);
    },
    requestPermission: async (request) => {
      const turn = live.session?.turn;
      if (!turn || turn.cancelled) return permissionReply(request.options, 'cancelled');
      turn.answer.upsertToolCall(request.toolCall);
      const decision = await decidePermission(request, {
        sharedPath: await sharedPath(),
        isAionTool: (name) => tools.has(name),
        editShared: async (oldText, newText) => {
          await deps.contexts.editText(thread.id, (document) => {
            if (oldText === null || oldText === document.text) return newText;
            const edited = applyEdits(document.text, [{ old_string: oldText, new_string: newText }]);
            if (!edited.ok) throw new Error(edited.message);
            return edited.text;
          });
        },
      }).catch((error: unknown) => ({ allowed: false as const, sentence: `the edit did not apply: ${(error as Error).message}` }));
      if (!decision.allowed) turn.answer.upsertToolCall(request.toolCall, decision.sentence);
      return permissionReply(request.options, decision.allowed);
    },
    readTextFile: (request) => readFile(deps, files, request),
    writeTextFile: (request) => writeFile(deps.contexts, files, request),
  };
  let agent: AgentProcess;
  try {
    agent = await AgentProcess.start(config, deps.config.agentPath, folders, handlers);
  } catch (error) {
    await revokeSessionCredential(deps.db, deps.changes, credential.id);
    throw error;
  }
  let closed = false;
  const opening: AgentSession = {
    agent,
    sessionId: '',
    files,
    needsTranscript: false,
    turn: null,
    close: async () => {
      if (closed) return;
      closed = true;
      await agent.stop();
      await revokeSessionCredential(deps.db, deps.changes, credential.id);
    },
  };
  live.session = opening;
  void agent.exited.then(onExit);
  try {
    const mcpServers = [aionMcpServer(host.serverUrl, credential.token, agent.capabilities)];
    const canLoad = agent.capabilities.loadSession === true && thread.agentSession !== null;
    const opened = canLoad
      ? await loadSession(agent, thread.agentSession ?? '', folders.work, mcpServers)
      : null;
    if (opened) {
      opening.sessionId = opened.sessionId;
      await askingMode(agent, opened.sessionId, opened.modes);
    } else {
      const created = await agent.agent.request('session/new', {
        cwd: folders.work,
        mcpServers,
        // Agents that can work without asking are told to use no tools of their own (claude-agent-acp reads these).
        _meta: { disableBuiltInTools: true, claudeCode: { options: { tools: [] } } },
      });
      opening.sessionId = created.sessionId;
      opening.needsTranscript = true;
      await askingMode(agent, created.sessionId, created.modes ?? null);
      await deps.db.update(threads).set({ agentSession: created.sessionId }).where(eq(threads.id, thread.id));
    }
  } catch (error) {
    await opening.close();
    throw error instanceof AgentStartError ? error : new AgentStartError(`${config.name} could not open a session: ${agent.why(error)}`);
  }
  return opening;
}

/** session/load of the stored session; null when the agent no longer has it. */
async function loadSession(
  agent: AgentProcess,
  sessionId: string,
  cwd: string,
  mcpServers: acp.McpServer[],
): Promise<{ sessionId: string; modes: acp.SessionModeState | null } | null> {
  try {
    const loaded = await agent.agent.request('session/load', { sessionId, cwd, mcpServers });
    return { sessionId, modes: loaded.modes ?? null };
  } catch {
    return null;
  }
}

/**
 * Puts the session in a mode that asks before acting, where the agent has
 * modes: an agent that may act unasked would slip past the rules.
 */
async function askingMode(agent: AgentProcess, sessionId: string, modes: acp.SessionModeState | null): Promise<void> {
  if (!modes || modes.availableModes.length === 0) return;
  const asking = ASKING_MODES.map((id) => modes.availableModes.find((m) => m.id === id)).find((m) => m !== undefined);
  if (!asking) {
    const offered = modes.availableModes.map((m) => m.id).join(', ');
    throw new AgentStartError(`${agent.config.name} offers no mode that asks before acting (it offers ${offered})`);
  }
  if (modes.currentModeId !== asking.id) await agent.agent.request('session/set_mode', { sessionId, modeId: asking.id });
}

/** Aion's own /mcp with the thread's credential: over HTTP where the agent can, else `ops mcp` on stdio. */
function aionMcpServer(serverUrl: string, token: string, capabilities: acp.AgentCapabilities): acp.McpServer {
  if (capabilities.mcpCapabilities?.http) {
    return { type: 'http', name: AION_MCP_NAME, url: `${serverUrl}/mcp`, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] };
  }
  return {
    name: AION_MCP_NAME,
    command: process.execPath,
    args: [OPS_MAIN, 'mcp'],
    env: [
      { name: 'AION_URL', value: serverUrl },
      { name: 'AION_TOKEN', value: token },
    ],
  };
}

// One agent process: started as its launch says (inside the OS sandbox, with
// no server environment but PATH, a HOME and a working folder of its own, and
// the variables its configuration names), the leader of its own process group
// so stopping it stops every child it made; spoken to over ACP on its stdio as
// a client that offers file reads and writes, questions as forms, and never a terminal. Nothing it
// does or fails to do can throw outside the promises its callers await.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { asAgent, type AgentLog } from './agent-log.js';
import { endMarked } from './marked-processes.js';
import { AgentStartError } from './start-error.js';
import type { AgentConfig } from '../config.js';
import { messageOf } from '../errors.js';

/** What the client side answers; each knows its session by the process it came from. */
export interface AgentClientHandlers {
  /** Applied at once, in arrival order: nothing here awaits before applying an update. */
  update(notification: acp.SessionNotification): void;
  requestPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  readTextFile(request: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(request: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  /** The agent asks the operator a question (a form). */
  createElicitation(request: acp.CreateElicitationRequest): Promise<acp.CreateElicitationResponse>;
}

export interface AgentFolders {
  home: string;
  work: string;
}

/** How the process is started: the agent's own command, or the sandbox's around it. */
export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  uid?: number;
  gid?: number;
  /** The mark in its environment (./marked-processes) by which Stop finds what left its group (and, sandboxed, its namespace's first process). */
  mark?: string;
}

/**
 * How long an agent may take to answer `initialize`. OpenCode's start (a
 * 185 MB native binary setting up its database in a new HOME) costs 5 s of
 * CPU, measured: about 40 s on a 2-core machine at a load of 40.
 */
const INITIALIZE_TIMEOUT_MS = 90_000;
const KILL_GRACE_MS = 3_000;
const KEPT_STDERR_LINES = 20;
const KEPT_STDERR_LINE_CHARS = 500;
/** One ACP message larger than this stops the agent: a document is at most a few MiB. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export class AgentProcess {
  private readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private connection: acp.ClientConnection | null = null;
  capabilities: acp.AgentCapabilities = {};
  agentInfo: acp.Implementation | null = null;
  authMethods: acp.AuthMethod[] = [];

  private constructor(
    readonly config: AgentConfig,
    private readonly child: ChildProcess,
    private readonly log: AgentLog,
    private readonly mark: string | undefined,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        log.close();
        resolve(code ?? (signal ? -1 : null));
      }),
    );
    // A pipe to a process that died errs (EPIPE); the exit says so, the error must not take the server down.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => undefined);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      log.stderr(chunk);
      const lines = chunk.split('\n').filter(Boolean).slice(-KEPT_STDERR_LINES);
      this.stderr.push(...lines.map((line) => line.slice(0, KEPT_STDERR_LINE_CHARS)));
      this.stderr.splice(0, Math.max(0, this.stderr.length - KEPT_STDERR_LINES));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * The agent, spawned and initialized; AgentStartError with the sentence why
   * when it cannot be. An abort stops it at once, whatever step it is at.
   * What it says outside the protocol goes to `log`.
   */
  static async start(config: AgentConfig, launch: AgentLaunch, handlers: AgentClientHandlers, signal: AbortSignal, log: AgentLog): Promise<AgentProcess> {
    signal.throwIfAborted();
    const child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      uid: launch.uid,
      gid: launch.gid,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: stopping the agent stops whatever it started.
      detached: true,
    });
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (error) => resolve(error));
    });
    if (spawned) {
      const missing = (spawned as NodeJS.ErrnoException).code === 'ENOENT';
      throw new AgentStartError(missing ? `command not found: ${config.command}` : `${config.command} could not start: ${spawned.message}`);
    }
    const agent = new AgentProcess(config, child, log, launch.mark);
    const stop = () => void agent.stop();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await agent.initialize(handlers, signal);
    } catch (error) {
      await agent.stop();
      if (signal.aborted) throw signal.reason;
      throw new AgentStartError(`${config.name} failed to initialize: ${agent.why(error)}`);
    } finally {
      signal.removeEventListener('abort', stop);
    }
    return agent;
  }

  private async initialize(handlers: AgentClientHandlers, signal: AbortSignal): Promise<void> {
    const stdin = this.child.stdin;
    const stdout = this.child.stdout;
    if (!stdin || !stdout) throw new Error('the process has no stdio');
    const stream = acp.ndJsonStream(Writable.toWeb(stdin) as WritableStream<Uint8Array>, Readable.toWeb(stdout) as ReadableStream<Uint8Array>, {
      maxMessageBytes: MAX_MESSAGE_BYTES,
    });
    // The connection's reading runs as this agent's: what the SDK prints about its messages goes to its log.
    this.connection = asAgent(this.log, () =>
      acp
        .client({ name: 'aion-ops' })
        .onNotification(acp.methods.client.session.update, ({ params }) => handlers.update(params))
        .onRequest(acp.methods.client.session.requestPermission, ({ params }) => handlers.requestPermission(params))
        .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => handlers.readTextFile(params))
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => handlers.writeTextFile(params))
        .onRequest(acp.methods.client.elicitation.create, ({ params }) => handlers.createElicitation(params))
        .connect(stream),
    );
    const answer = await this.connection.agent.request(
      acp.methods.agent.initialize,
      {
        protocolVersion: acp.PROTOCOL_VERSION,
        // Questions as forms the operator answers in the conversation; never a URL to open.
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false, elicitation: { form: {} } },
        clientInfo: { name: 'aion-ops', title: 'Aion Ops', version: '0.1.0' },
      },
      { cancellationSignal: AbortSignal.any([signal, AbortSignal.timeout(INITIALIZE_TIMEOUT_MS)]), stopWaitingOnCancel: true },
    );
    this.capabilities = answer.agentCapabilities ?? {};
    this.agentInfo = answer.agentInfo ?? null;
    this.authMethods = answer.authMethods ?? [];
  }

  /** The agent side of the connection. */
  get agent(): acp.ClientContext {
    if (!this.connection) throw new Error('the agent is not connected');
    return this.connection.agent;
  }

  /** The sentence for a failure: the error, and the agent's last words on stderr. */
  why(error: unknown): string {
    const message = messageOf(error);
    const said = this.stderr.at(-1);
    return said ? `${message} (it said: ${said.slice(0, 300)})` : message;
  }

  /**
   * SIGTERM to its process group, then SIGKILL when it lingers; resolves once
   * it is gone, and with it (unsandboxed) every process it marked.
   */
  async stop(): Promise<void> {
    this.connection?.close();
    if (this.running) {
      this.killGroup('SIGTERM');
      const timer = setTimeout(() => this.killGroup('SIGKILL'), KILL_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    // Children that outlived their leader (a CLI the agent started) go with its group.
    this.killGroup('SIGKILL');
    // A sandboxed agent's processes end with its pid namespace, whose first process is found by the mark when bubblewrap
    // was stopped before it could end it; an unsandboxed one's that left the group are found by the mark too.
    if (this.mark) await endMarked(this.mark);
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is gone already.
    }
  }
}

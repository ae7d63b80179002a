// One agent process: spawned with no server environment but PATH, a HOME and
// a working folder of its own, and the variables its configuration names;
// spoken to over ACP on its stdio as a client that offers file reads and
// writes and never a terminal.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { AgentStartError } from './start-error.js';
import type { AgentConfig } from '../config.js';

/** What the client side answers; each knows its session by the process it came from. */
export interface AgentClientHandlers {
  /** Applied at once, in arrival order: nothing here awaits before applying an update. */
  update(notification: acp.SessionNotification): void;
  requestPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  readTextFile(request: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(request: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
}

export interface AgentFolders {
  home: string;
  work: string;
}

const INITIALIZE_TIMEOUT_MS = 30_000;
const KILL_GRACE_MS = 3_000;
const KEPT_STDERR_LINES = 20;

export class AgentProcess {
  private readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private connection: acp.ClientConnection | null = null;
  capabilities: acp.AgentCapabilities = {};
  agentInfo: acp.Implementation | null = null;

  private constructor(
    readonly config: AgentConfig,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.stderr.splice(0, Math.max(0, this.stderr.length - KEPT_STDERR_LINES));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The agent, spawned and initialized; AgentStartError with the sentence why when it cannot be. */
  static async start(config: AgentConfig, path: string, folders: AgentFolders, handlers: AgentClientHandlers): Promise<AgentProcess> {
    const child = spawn(config.command, config.args, {
      cwd: folders.work,
      env: { ...config.env, PATH: path, HOME: folders.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (error) => resolve(error));
    });
    if (spawned) {
      const missing = (spawned as NodeJS.ErrnoException).code === 'ENOENT';
      throw new AgentStartError(missing ? `command not found: ${config.command}` : `${config.command} could not start: ${spawned.message}`);
    }
    const agent = new AgentProcess(config, child);
    try {
      await agent.initialize(handlers);
    } catch (error) {
      await agent.stop();
      throw new AgentStartError(`${config.name} failed to initialize: ${agent.why(error)}`);
    }
    return agent;
  }

  private async initialize(handlers: AgentClientHandlers): Promise<void> {
    const stdin = this.child.stdin;
    const stdout = this.child.stdout;
    if (!stdin || !stdout) throw new Error('the process has no stdio');
    const stream = acp.ndJsonStream(Writable.toWeb(stdin) as WritableStream<Uint8Array>, Readable.toWeb(stdout) as ReadableStream<Uint8Array>);
    this.connection = acp
      .client({ name: 'aion-ops' })
      .onNotification(acp.methods.client.session.update, ({ params }) => handlers.update(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => handlers.requestPermission(params))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => handlers.readTextFile(params))
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => handlers.writeTextFile(params))
      .connect(stream);
    const answer = await this.connection.agent.request(
      acp.methods.agent.initialize,
      {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: 'aion-ops', title: 'Aion Ops', version: '0.1.0' },
      },
      { cancellationSignal: AbortSignal.timeout(INITIALIZE_TIMEOUT_MS), stopWaitingOnCancel: true },
    );
    this.capabilities = answer.agentCapabilities ?? {};
    this.agentInfo = answer.agentInfo ?? null;
  }

  /** The agent side of the connection. */
  get agent(): acp.ClientContext {
    if (!this.connection) throw new Error('the agent is not connected');
    return this.connection.agent;
  }

  /** The sentence for a failure: the error, and the agent's last words on stderr. */
  why(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const said = this.stderr.at(-1);
    return said ? `${message} (it said: ${said.slice(0, 300)})` : message;
  }

  /** SIGTERM, then SIGKILL when it lingers; resolves once it is gone. */
  async stop(): Promise<void> {
    this.connection?.close();
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), KILL_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

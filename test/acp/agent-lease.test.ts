// One agent process per thread across servers sharing one PostgreSQL: the
// thread's agent lease moves with its turns (the old process stops, the new
// one is given the whole conversation), the cap counts busy agents across
// the servers, a server without the agent names those that have it, and a
// dead server's agent credential expires within four leases.
import { readlinkSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client, type Client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { descendantsOf, readOr, spawnServer, type ServerProcess } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { freshDataDir, POSTGRES_URL, TEST_SECRET_KEY } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

/** Short, so expiries are quick to see: renewals every ⅔ s, a hosted agent's credential lives 8 s past the last. */
const LEASE_MS = 2_000;
const CREDENTIAL_MS = 4 * LEASE_MS;

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}

describe.skipIf(!POSTGRES_URL)('the thread’s agent across servers on one PostgreSQL', () => {
  let cluster: Cluster;
  /** A third server, without agents. */
  let bare: ServerProcess;
  let bareData: string;
  let record: string;
  let db: pg.Client;
  let a: Client;
  let b: Client;
  const servers = () => cluster.servers;

  beforeAll(async () => {
    record = path.join(await scratchFolder('agent-lease'), 'received.jsonl');
    const agent = { command: process.execPath, args: [OPS_BIN, 'demo-agent'] };
    cluster = await startCluster(2, [], {
      // Outside the sandbox, the recorder may write what it is given (its credential) where the test reads it.
      AION_AGENTS: JSON.stringify({ demo: agent, recorder: { ...agent, env: { DEMO_AGENT_RECORD: record }, sandbox: false } }),
      AION_TURN_LEASE: `${LEASE_MS}ms`,
      AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1',
      AION_AGENT_MAX: '1',
    });
    bareData = await freshDataDir();
    bare = await spawnServer(['--data', bareData], { DATABASE_URL: cluster.databaseUrl, AION_ADMIN_TOKEN: cluster.adminToken, AION_SECRET_KEY: TEST_SECRET_KEY });
    [a, b] = cluster.servers.map((s) => client(s.url, cluster.adminToken)) as [Client, Client];
    db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await bare?.stop();
    await rm(bareData, { recursive: true, force: true });
    await cluster?.stop();
  });

  const open = async (agent: string) => ((await a.post('/api/v1/assistant/threads', { agent })).body as Thread).id;
  const send = (on: Client, id: string, text: string) => on.post(`/api/v1/assistant/threads/${id}/messages`, { text });

  it('keeps one process for a thread whose messages alternate between servers, and it hears every turn', async () => {
    const id = await open('demo');
    const said = ['/say one', '/say two', '/say three', '/recall'];
    for (const [i, text] of said.entries()) {
      const on = i % 2 === 0 ? 0 : 1;
      const answer = await send(on === 0 ? a : b, id, text);
      expect(answer.status, answer.text).toBe(200);
      // The server that answered holds the one process; the other stopped its own on the notice.
      await waitFor(() => {
        const counts = servers().map((s) => agentsOf(s).length);
        return counts[on] === 1 && counts.reduce((x, y) => x + y) === 1;
      });
    }
    const last = await send(b, id, '/recall');
    const recall = (last.body as Thread).messages.at(-1)?.text ?? '';
    expect(recall).toBe(`recall: ${[...said, '/recall'].join(' | ')}`);
  });

  it('counts busy agents across the servers against AION_AGENT_MAX', async () => {
    const [first, second] = [await open('demo'), await open('demo')];
    const slow = send(a, first, '/slow 1500');
    await waitFor(async () => (await db.query('select 1 from turns where ended_at is null and agent is not null')).rowCount === 1);
    const over = await send(b, second, '/say over');
    expect(over.status).toBe(503);
    expect((over.body as { error: string }).error).toMatch(/^1 agents are answering across the servers, the limit \(AION_AGENT_MAX\)/);
    expect((await slow).status).toBe(200);
    expect((await send(b, second, '/say now')).status).toBe(200);
  });

  it('names the servers that have the agent, on a server without it', async () => {
    const answer = await send(client(bare.url, cluster.adminToken), await open('demo'), '/say hi');
    expect(answer.status).toBe(503);
    const names = servers().map((s) => `${os.hostname()}:${s.child.pid}:`);
    expect((answer.body as { error: string }).error).toMatch(
      new RegExp(`^agent demo is not configured on this server; it runs on (${names.join('|')})\\S*, (${names.join('|')})\\S*; your message is kept$`),
    );
  });

  it('lets a dead server’s agent credential expire, renewed until then; the server started again under its name lets go at once', async () => {
    const [holder, other] = servers() as [ServerProcess, ServerProcess];
    const id = await open('recorder');
    expect((await send(a, id, '/say hi')).status).toBe(200);
    const token = await agentCredential(record);
    const expiry = async () =>
      ((await db.query<{ at: Date }>(`select expires_at as at from tokens where thread_id = $1 and name = 'hosted agent'`, [id])).rows[0]?.at ?? new Date(0)).getTime();
    const minted = await expiry();
    expect(minted - Date.now()).toBeLessThanOrEqual(CREDENTIAL_MS + 1_000);
    await waitFor(async () => (await expiry()) > minted, 3_000);
    // The recorder, outside the sandbox, outlives its server until it reads the end of its input.
    const leftover = agentsOf(holder);
    holder.child.kill('SIGKILL');
    const killed = Date.now();
    try {
      // Not revoked (nobody is left to revoke it): it stays valid until its expiry, then every server refuses it.
      expect(await mcpStatus(other.url, token)).not.toBe(401);
      await waitFor(async () => (await mcpStatus(other.url, token)) === 401, CREDENTIAL_MS + 2_000);
      expect(Date.now() - killed).toBeGreaterThan(CREDENTIAL_MS / 2);
    } finally {
      for (const pid of leftover) killGroup(pid);
    }
    // A server started under the dead one's name releases its leases and revokes its agents' credentials.
    const name = (await db.query<{ name: string }>('select agent_server as name from threads where id = $1', [id])).rows[0]?.name ?? '';
    expect(name).toMatch(new RegExp(`:${holder.child.pid}:`));
    const dataDir = await freshDataDir();
    const again = await spawnServer(['--data', dataDir], {
      DATABASE_URL: cluster.databaseUrl,
      AION_ADMIN_TOKEN: cluster.adminToken,
      AION_SECRET_KEY: TEST_SECRET_KEY,
      AION_SERVER_NAME: name,
    });
    try {
      const row = (await db.query('select agent_server from threads where id = $1', [id])).rows[0] as { agent_server: string | null };
      expect(row.agent_server).toBeNull();
      const revoked = await db.query(`select 1 from tokens where thread_id = $1 and name = 'hosted agent' and revoked_at is not null`, [id]);
      expect(revoked.rowCount).toBe(1);
    } finally {
      await again.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

const NODE = realpathSync(process.execPath);

/** The live `ops demo-agent` processes a server started (its descendants, in a sandbox or not). */
function agentsOf(server: ServerProcess): number[] {
  return descendantsOf(server.child.pid ?? -1).filter((pid) => {
    const argv = readOr(`/proc/${pid}/cmdline`).split('\0');
    return argv.includes('demo-agent') && exeOf(pid) === NODE;
  });
}

/** What a process runs; '' for one that is gone or exiting. */
function exeOf(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '';
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone with its server.
  }
}

/** The credential the recorder's newest session was given with Aion's /mcp. */
async function agentCredential(file: string): Promise<string> {
  const sessions = (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { mcpServers?: { headers?: { name: string; value: string }[] }[] })
    .filter((entry) => entry.mcpServers);
  const header = sessions.at(-1)?.mcpServers?.[0]?.headers?.find((h) => h.name === 'Authorization')?.value ?? '';
  return header.replace(/^Bearer /, '');
}

/** The status /mcp answers an MCP initialize with this token: 401 once it is refused. */
async function mcpStatus(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

// A request whose client has gone, or that waited past AION_REQUEST_QUEUE_LIMIT
// before reaching its write, does not run its write (invariant 20): a server
// waking from a stall must not deploy what its clients gave up on and may have
// retried elsewhere.
import { readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTokensFile } from '../../src/demo.js';
import { client, type Answer, type Client } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshDemoDataDir } from '../helpers/store.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';

const target = { project: 'shop', environment: 'staging', path: 'app.yaml' };

async function deploymentCount(who: Client): Promise<number> {
  return ((await mustCall(who, 'list_deployments', { project: 'shop', environment: 'staging' })).deployments as unknown[]).length;
}

describe('a stopped server woken after its client left', () => {
  let server: ServerProcess;
  let dataDir: string;
  let token: string;
  beforeAll(async () => {
    dataDir = await freshDemoDataDir();
    server = await spawnServer(['--demo', '--data', dataDir]);
    token = (JSON.parse(await readFile(demoTokensFile(dataDir), 'utf8')) as Record<string, string>).ada ?? '';
  });
  afterAll(async () => {
    server.child.kill('SIGCONT');
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('does not deploy for a client that closed its connection while the server was stopped', async () => {
    const ada = client(server.url, token);
    const before = await deploymentCount(ada);
    const pid = server.child.pid ?? 0;
    process.kill(pid, 'SIGSTOP');
    try {
      // The kernel takes the connection and the request while the process sleeps; the client gives up and leaves.
      const { port } = new URL(server.url);
      const body = JSON.stringify(target);
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/v1/assistant/tools/deploy HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor(() => server.stderr.some((line) => line.includes('request abandoned before its write: its client closed the connection')), 15_000);
    expect(await deploymentCount(ada)).toBe(before);
  });
});

describe('a write that waited past the request bound', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { demo: true, env: { AION_REQUEST_QUEUE_LIMIT: '300ms' } });
  });
  afterAll(() => server.stop());

  /** Sends the request while the embedded store is busy with something else for longer than the bound: it queues behind it. */
  async function behindABusyStore(send: () => Promise<Answer>): Promise<Answer> {
    let release = () => {};
    const held = server.store.db.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    const answer = send();
    await new Promise((resolve) => setTimeout(resolve, 600));
    release();
    await held;
    return answer;
  }

  it('answers 503 with Retry-After and a sentence, changes nothing, and logs it', async () => {
    const { ada } = demoClients(server);
    const before = await deploymentCount(ada);
    const late = await behindABusyStore(() => ada.post('/api/v1/assistant/tools/deploy', target));
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('1');
    expect((late.body as { error: string }).error).toMatch(/^the server did not start this write because it waited \d+ ms, over the 300 ms bound; nothing was changed, so send it again$/);
    expect(await deploymentCount(ada)).toBe(before);
    expect(server.logs.some((line) => line.includes('request abandoned before its write'))).toBe(true);
  });

  it('leaves a proposal waiting when its accept or accept-all waited past the bound', async () => {
    const { ada } = demoClients(server);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool deploy {"path": "app.yaml"}' });
    const proposal = (answer.body as { proposals: { id: string }[] }).proposals[0]?.id;
    const before = await deploymentCount(ada);
    const accept = await behindABusyStore(() => ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/${proposal}/accept`));
    expect(accept.status).toBe(503);
    const all = await behindABusyStore(() => ada.post(`/api/v1/assistant/threads/${thread.id}/proposals/accept-all`));
    expect(all.status).toBe(503);
    const now = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as { proposals: { status: string }[] };
    expect(now.proposals.map((p) => p.status)).toEqual(['pending']);
    expect(await deploymentCount(ada)).toBe(before);
  });
});

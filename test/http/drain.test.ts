// SIGTERM drains: /readyz fails at once, a new request gets 503 with
// Retry-After, the request in flight completes, and the process exits 0.
import { readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTokensFile } from '../../src/demo.js';
import { client, request } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { freshDemoDataDir } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

describe('SIGTERM drains the server', () => {
  let server: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await freshDemoDataDir();
    server = await spawnServer(['--demo', '--data', dataDir], { AION_LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    server.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses new work at once, finishes what is in flight, then exits 0', async () => {
    const token = (JSON.parse(await readFile(demoTokensFile(dataDir), 'utf8')) as Record<string, string>).ada ?? '';
    const ada = client(server.url, token);
    expect((await request(server.url, 'GET', '/readyz')).status).toBe(200);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));

    // A turn the fake model answers after 3 s: in flight when the signal comes.
    const inFlight = ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/slow 3000' });
    await waitForLog(server, '/messages');
    server.child.kill('SIGTERM');
    await waitForLog(server, 'draining');

    const ready = await request(server.url, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: 'this server is shutting down: send traffic to the others' });
    expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
    const refused = await ada.get('/api/v1/projects');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((refused.body as { error: string }).error).toContain('this server is shutting down');

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await exited).toBe(0);
  });
});

function waitForLog(server: ServerProcess, text: string): Promise<void> {
  return waitFor(() => server.stderr.some((line) => line.includes(text)));
}

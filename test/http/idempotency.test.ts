// Idempotency-Key on the writes a client retries (deploy, rollback, accept,
// accept-all): a retry answers what the first got and runs nothing; another
// body under the same key is a 422, a retry while the first runs a 409; keys
// are the operator's own and are forgotten after a day.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/store/db.js';
import { IdempotencyKeys } from '../../src/store/idempotency-keys.js';
import { idempotencyKeys } from '../../src/store/schema.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';

let server: TestServer;
let ada: Client;
let olive: Client;
const target = { project: 'shop', environment: 'staging', path: 'app.yaml' };

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive } = demoClients(server));
});
afterAll(() => server.stop());

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

async function deploymentCount(): Promise<number> {
  const listed = await mustCall(ada, 'list_deployments', { project: 'shop', environment: 'staging' });
  return (listed.deployments as unknown[]).length;
}

describe('Idempotency-Key on deploy', () => {
  it('runs a deploy once however often it is retried, and answers each retry as the first', async () => {
    const before = await deploymentCount();
    const first = await ada.post('/api/v1/assistant/tools/deploy', target, keyed('deploy-once-1'));
    expect(first.status).toBe(200);
    expect((first.body as { is_error: boolean }).is_error).toBe(false);
    const again = await ada.post('/api/v1/assistant/tools/deploy', { path: 'app.yaml', environment: 'staging', project: 'shop' }, keyed('deploy-once-1'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await deploymentCount()).toBe(before + 1);
    // Without a key, or with another, it runs again.
    expect((await ada.post('/api/v1/assistant/tools/deploy', target, keyed('deploy-once-2'))).headers.get('idempotent-replayed')).toBeNull();
    expect(await deploymentCount()).toBe(before + 2);
  });

  it('refuses the same key with another body (422) or on another route (422), with a sentence', async () => {
    await ada.post('/api/v1/assistant/tools/deploy', target, keyed('deploy-other-body'));
    const other = await ada.post('/api/v1/assistant/tools/deploy', { ...target, revision: 1 }, keyed('deploy-other-body'));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'Idempotency-Key deploy-other-body was used with another body already; use a new key for a new request' });
    const elsewhere = await ada.post('/api/v1/assistant/tools/rollback', target, keyed('deploy-other-body'));
    expect(elsewhere.status).toBe(422);
    expect((elsewhere.body as { error: string }).error).toContain('was used for POST /api/v1/assistant/tools/deploy already');
  });

  it('answers 409 with Retry-After while the first request with the key still runs; a holder past the request bound frees it', async () => {
    const operatorId = await operatorIdOf('ada');
    const route = 'POST /api/v1/assistant/tools/deploy';
    const hash = await hashOf(operatorId, route);
    await server.store.db.insert(idempotencyKeys).values({ operatorId, key: 'in-flight', route, requestHash: hash, attempt: crypto.randomUUID() });
    const busy = await ada.post('/api/v1/assistant/tools/deploy', target, keyed('in-flight'));
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body).toEqual({ error: 'a request with Idempotency-Key in-flight is still running; send this again once it has answered' });

    // A holder that never reached its write within the bound (its server stalled or died) never will: a retry runs.
    const before = await deploymentCount();
    await server.store.db.insert(idempotencyKeys).values({ operatorId, key: 'stalled', route, requestHash: hash, attempt: crypto.randomUUID(), claimedAt: sql`now() - interval '1 minute'` });
    const retried = await ada.post('/api/v1/assistant/tools/deploy', target, keyed('stalled'));
    expect(retried.status).toBe(200);
    expect(await deploymentCount()).toBe(before + 1);
  });

  it('fences a holder that was taken over: its write can no longer mark the key applied', async () => {
    const keys = new IdempotencyKeys(server.store.db, 10_000);
    const request = { operatorId: await operatorIdOf('ada'), key: 'fenced', route: 'POST /api/v1/assistant/tools/deploy', requestHash: 'h' };
    const first = await keys.claim(request);
    if (first.kind !== 'run') throw new Error(`claimed: ${first.kind}`);
    expect(await keys.claim(request)).toEqual({ kind: 'busy', applied: false });
    await server.store.db.execute(sql`update idempotency_keys set claimed_at = now() - interval '1 minute' where key = 'fenced'`);
    const second = await keys.claim(request);
    if (second.kind !== 'run') throw new Error(`taken over: ${second.kind}`);
    expect(await keys.markApplied(server.store.db, { ...request, attempt: first.attempt })).toBe(false);
    expect(await keys.markApplied(server.store.db, { ...request, attempt: second.attempt })).toBe(true);
    expect(await keys.claim(request)).toEqual({ kind: 'busy', applied: true });
  });

  it('keeps keys per operator, and forgets those older than a day', async () => {
    const before = await deploymentCount();
    await ada.post('/api/v1/assistant/tools/deploy', target, keyed('shared-name'));
    const others = await olive.post('/api/v1/assistant/tools/deploy', target, keyed('shared-name'));
    expect(others.headers.get('idempotent-replayed')).toBeNull();
    expect(await deploymentCount()).toBe(before + 2);

    await server.store.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'shared-name'`);
    expect(await new IdempotencyKeys(server.store.db, 10_000).sweep()).toBe(2);
    expect((await ada.post('/api/v1/assistant/tools/deploy', target, keyed('shared-name'))).headers.get('idempotent-replayed')).toBeNull();
    expect(await deploymentCount()).toBe(before + 3);
  });

  it('refuses a malformed key with a sentence, and ignores a key on tools that keep none', async () => {
    const long = await ada.post('/api/v1/assistant/tools/deploy', target, keyed('k'.repeat(256)));
    expect(long.status).toBe(422);
    expect((long.body as { error: string }).error).toMatch(/^headers\.idempotency-key must NOT have more than 255 characters/);
    const read = await ada.post('/api/v1/assistant/tools/whoami', {}, keyed('read-key'));
    const readAgain = await ada.post('/api/v1/assistant/tools/whoami', {}, keyed('read-key'));
    expect(readAgain.headers.get('idempotent-replayed')).toBeNull();
    expect(readAgain.body).toEqual(read.body);
  });
});

describe('Idempotency-Key on accept and accept-all', () => {
  async function proposeDeploy(): Promise<{ thread: string; proposal: string }> {
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/tool deploy {"path": "app.yaml"}' });
    const proposal = (answer.body as { proposals: { id: string }[] }).proposals[0]?.id;
    if (!proposal) throw new Error(`no proposal: ${answer.text}`);
    return { thread: thread.id, proposal };
  }

  it('accepts once; a retry with the key gets the same answer, one without it a 409', async () => {
    const { thread, proposal } = await proposeDeploy();
    const before = await deploymentCount();
    const path = `/api/v1/assistant/threads/${thread}/proposals/${proposal}/accept`;
    const first = await ada.post(path, undefined, keyed('accept-1'));
    expect(first.status).toBe(200);
    const again = await ada.post(path, undefined, keyed('accept-1'));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect((await ada.post(path)).status).toBe(409);
    expect(await deploymentCount()).toBe(before + 1);
  });

  it('accepts all once under a key', async () => {
    const { thread } = await proposeDeploy();
    const before = await deploymentCount();
    const path = `/api/v1/assistant/threads/${thread}/proposals/accept-all`;
    const first = await ada.post(path, undefined, keyed('accept-all-1'));
    expect(first.status).toBe(200);
    const again = await ada.post(path, undefined, keyed('accept-all-1'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await deploymentCount()).toBe(before + 1);
  });

  it('documents the header in the OpenAPI', async () => {
    const spec = (await ada.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const path of ['/api/v1/assistant/tools/{name}', '/api/v1/assistant/threads/{id}/proposals/{proposal_id}/accept', '/api/v1/assistant/threads/{id}/proposals/accept-all']) {
      expect(spec.paths[path]?.post?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'idempotency-key', in: 'header' })]));
    }
  });
});

async function operatorIdOf(name: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(server.store.db, sql`select id from operators where name = ${name}`);
  if (!row) throw new Error(`no operator ${name}`);
  return row.id;
}

/** The request hash the server keeps for `target`: read back from a key sent with it. */
async function hashOf(operatorId: string, route: string): Promise<string> {
  await ada.post('/api/v1/assistant/tools/deploy', target, keyed('hash-probe'));
  const [row] = await queryRows<{ request_hash: string }>(
    server.store.db,
    sql`select request_hash from idempotency_keys where key = 'hash-probe' and operator_id = ${operatorId} and route = ${route}`,
  );
  if (!row) throw new Error('no hash kept');
  return row.request_hash;
}

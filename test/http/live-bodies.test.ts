// The live endpoint served from memory: one body per ETag whatever happens
// (secret rotation included), one read to wake every waiter of a path, the
// compressed and YAML forms, a 304 with no body, and a revoked token refused
// although its body is cached.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { demoClients, mustCall } from '../helpers/tools.js';

const project = 'shop';
const BIG = '/api/v1/live/shop/staging/big.yaml';
const APP = '/api/v1/live/shop/staging/app.yaml';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

/** One GET through node:http, which neither decodes nor adds headers: what a strict client sees. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** A document worth compressing, referring to the environment's secret. */
function bigDocument(port: number): string {
  const lines = ['service: big', `port: ${port}`, 'database:', '  url: ${secret:DATABASE_URL}', 'entries:'];
  for (let i = 0; i < 200; i++) lines.push(`  key_${i}: value number ${i} of the big document`);
  return lines.join('\n') + '\n';
}

describe.each(STORE_KINDS)('live bodies (%s)', (kind) => {
  let server: TestServer;
  let ada: Client, dev: Client, service: Client;
  let serviceToken: string;
  let auth: Record<string, string>;
  /** Every ETag seen, with the bytes it came with. */
  const seen = new Map<string, string>();

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await rawGet(server.url + path, { ...auth, ...headers });
    const etag = String(answer.headers.etag);
    if (answer.status === 200) {
      const key = `${etag} ${answer.headers['content-encoding'] ?? ''}`;
      const known = seen.get(key);
      // The invariant every test here leans on: one ETag, one body.
      if (known !== undefined) expect(answer.bytes.toString('base64'), etag).toBe(known);
      seen.set(key, answer.bytes.toString('base64'));
    }
    return answer;
  };
  const deployBig = async (port: number) => {
    const current = await callRead('big.yaml');
    await mustCall(dev, 'write_document', { project, path: 'big.yaml', text: bigDocument(port), ...(current ? { base_revision: current } : {}) });
    return (await mustCall(dev, 'deploy', { project, environment: 'staging', path: 'big.yaml' })).deployment as number;
  };
  const callRead = async (path: string) => {
    const answer = await dev.post('/api/v1/assistant/tools/read_document', { project, path });
    return answer.status === 200 ? ((answer.body as { result: { revision: number } }).result.revision) : null;
  };
  const rotate = (value: string) => mustCall(dev, 'set_secret', { project, environment: 'staging', name: 'DATABASE_URL', value });

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada, dev } = demoClients(server));
    const minted = await ada.post('/api/v1/tokens', { name: 'svc', service: { project, environment: 'staging' } });
    serviceToken = (minted.body as { token: string }).token;
    service = client(server.url, serviceToken);
    auth = { authorization: `Bearer ${serviceToken}` };
    await deployBig(9000);
  });
  afterAll(() => server.stop());

  it('keeps one body per ETag: a secret rotation changes the ETag and the body together', async () => {
    const before = await get(APP);
    expect(before.status).toBe(200);
    expect(JSON.parse(before.bytes.toString())).toMatchObject({ database: { url: expect.stringContaining('demo-staging') } });
    const again = await get(APP);
    expect(again.headers.etag).toBe(before.headers.etag);

    await rotate('postgres://rotated@db/shop');
    const after = await get(APP);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // Same deployment, newer secret: the deployment part of the ETag stays.
    expect(String(after.headers.etag).split('.')[0]).toBe(String(before.headers.etag).split('.')[0]);
    expect(JSON.parse(after.bytes.toString())).toMatchObject({ database: { url: 'postgres://rotated@db/shop' } });
    // The old ETag is no longer current: a client holding it gets the new body, not a 304.
    expect((await get(APP, { 'if-none-match': String(before.headers.etag) })).status).toBe(200);

    // Setting the same value again is still a new version, so a new ETag.
    await rotate('postgres://rotated@db/shop');
    const same = await get(APP);
    expect(same.headers.etag).not.toBe(after.headers.etag);
    expect(same.bytes.equals(after.bytes)).toBe(true);
  });

  it('wakes a waiter when the secret it was resolved with rotates', async () => {
    const current = await get(APP);
    const baseline = server.services.changes.waiting;
    const held = get(`${APP}?wait=30`, { 'if-none-match': String(current.headers.etag) });
    await until(() => server.services.changes.waiting > baseline);
    await rotate('postgres://rotated-again@db/shop');
    const woken = await held;
    expect(woken.status).toBe(200);
    expect(woken.headers.etag).not.toBe(current.headers.etag);
    expect(JSON.parse(woken.bytes.toString())).toMatchObject({ database: { url: 'postgres://rotated-again@db/shop' } });
  });

  it('answers 200 and 304 from memory, and wakes every waiter of a path with one read', async () => {
    const warm = await get(APP);
    const reads = server.services.liveBodies.reads;
    for (let i = 0; i < 20; i++) {
      expect((await get(APP)).status).toBe(200);
      expect((await get(APP, { 'if-none-match': String(warm.headers.etag) })).status).toBe(304);
    }
    const baseline = server.services.changes.waiting;
    const waiters = Array.from({ length: 50 }, () => get(`${APP}?wait=30`, { 'if-none-match': String(warm.headers.etag) }));
    await until(() => server.services.changes.waiting === baseline + 50);
    // Entering fifty waits with a warm cache read nothing.
    expect(server.services.liveBodies.reads).toBe(reads);

    const { revision, text } = await mustCall(dev, 'read_document', { project, path: 'app.yaml' });
    await mustCall(dev, 'write_document', { project, path: 'app.yaml', text: (text as string).replace(/port: \d+/, 'port: 8123'), base_revision: revision });
    const deployment = (await mustCall(dev, 'deploy', { project, environment: 'staging', path: 'app.yaml' })).deployment as number;
    const woken = await Promise.all(waiters);
    for (const answer of woken) {
      expect(answer.status).toBe(200);
      expect(String(answer.headers.etag)).toMatch(new RegExp(`^"${deployment}\\.`));
      expect(JSON.parse(answer.bytes.toString())).toMatchObject({ port: 8123 });
    }
    expect(new Set(woken.map((w) => w.bytes.toString())).size).toBe(1);
    // One shared read for all fifty.
    expect(server.services.liveBodies.reads).toBe(reads + 1);
  });

  it('answers a 304 with no body, no body headers and no content-length but zero', async () => {
    const forms: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, br' }, { accept: 'application/yaml' }];
    for (const headers of forms) {
      const current = await get(BIG, headers);
      const answer = await get(BIG, { ...headers, 'if-none-match': String(current.headers.etag) });
      expect(answer.status).toBe(304);
      expect(answer.bytes.length).toBe(0);
      expect(answer.headers.etag).toBe(current.headers.etag);
      expect(answer.headers['content-length'] ?? '0').toBe('0');
      expect(answer.headers['content-type']).toBeUndefined();
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('private, no-cache');
    }
  });

  it('sends gzip and br forms that decode to the same JSON, each with its own ETag', async () => {
    const plain = await get(BIG);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept, Accept-Encoding');
    const document = JSON.parse(plain.bytes.toString()) as Record<string, unknown>;
    expect(document).toMatchObject({ service: 'big', database: { url: expect.stringContaining('postgres://') } });

    const gzip = await get(BIG, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.bytes).toString())).toEqual(document);
    expect(gzip.bytes.length).toBeLessThan(plain.bytes.length / 3);

    const br = await get(BIG, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.bytes).toString())).toEqual(document);

    expect(new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3);
    // A client that refuses br gets gzip; a small body is never compressed.
    expect((await get(BIG, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(APP, { 'accept-encoding': 'gzip, br' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers YAML to Accept: application/yaml, the same document', async () => {
    const json = JSON.parse((await get(BIG)).bytes.toString()) as unknown;
    const yaml = await get(BIG, { accept: 'application/yaml' });
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(parse(yaml.bytes.toString())).toEqual(json);
    const brYaml = await get(BIG, { accept: 'application/yaml', 'accept-encoding': 'br' });
    expect(parse(zlib.brotliDecompressSync(brYaml.bytes).toString())).toEqual(json);
    expect((await get(BIG, { accept: 'application/json, application/yaml;q=0.5' })).headers['content-type']).toMatch(/^application\/json/);
  });

  it('refuses a revoked service token at once, though its body is cached', async () => {
    const minted = await ada.post('/api/v1/tokens', { name: 'soon-revoked', service: { project, environment: 'staging' } });
    const { id, token } = minted.body as { id: string; token: string };
    const doomed = client(server.url, token);
    const warm = await doomed.get(APP);
    expect(warm.status).toBe(200);
    expect((await doomed.get(APP, { headers: { 'if-none-match': warm.headers.get('etag') ?? '' } })).status).toBe(304);
    expect((await ada.delete(`/api/v1/tokens/${id}`)).status).toBe(204);
    const conditions: Record<string, string>[] = [{}, { 'if-none-match': warm.headers.get('etag') ?? '' }];
    for (const headers of conditions) {
      const refused = await doomed.get(APP, { headers });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'bad token' });
    }
    // Others' tokens still read it.
    expect((await service.get(APP)).status).toBe(200);
  });

  it('ends the held request of a token revoked while it waits, refused', async () => {
    const minted = await ada.post('/api/v1/tokens', { name: 'revoked-while-held', service: { project, environment: 'staging' } });
    const { id, token } = minted.body as { id: string; token: string };
    const holder = client(server.url, token);
    const etag = (await holder.get(APP)).headers.get('etag') ?? '';
    const baseline = server.services.changes.waiting;
    const started = Date.now();
    const held = holder.get(`${APP}?wait=30`, { headers: { 'if-none-match': etag } });
    await until(() => server.services.changes.waiting > baseline);
    expect((await ada.delete(`/api/v1/tokens/${id}`)).status).toBe(204);
    const answer = await held;
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'bad token' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** Polls until `check` holds (at most 5 s). */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

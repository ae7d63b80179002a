// Headers and logs that keep what a response or a URL holds where it belongs:
// live bodies (secrets resolved) only in the service's own cache, tokens in a
// query string out of the request log, the console never framed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, request } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients } from '../helpers/tools.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

describe('live bodies', () => {
  it('are private to the service’s own cache, revalidated by ETag', async () => {
    const minted = await demoClients(server).ada.post('/api/v1/tokens', { name: 'svc-cache', service: { project: 'shop', environment: 'staging' } });
    const service = client(server.url, (minted.body as { token: string }).token);
    const fresh = await service.get('/api/v1/live/shop/staging/app.yaml');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('cache-control')).toBe('private, no-cache');
    const same = await service.get('/api/v1/live/shop/staging/app.yaml', { headers: { 'if-none-match': fresh.headers.get('etag') ?? '' } });
    expect([same.status, same.headers.get('cache-control')]).toEqual([304, 'private, no-cache']);
  });
});

describe('the request log', () => {
  it('redacts query values that look like tokens, and keeps the rest of the URL as sent', async () => {
    const aion = `aion_${'Q'.repeat(43)}`;
    const query = `token=plain-secret-1&access_token=plain-secret-2&ID-Token=plain-secret-3&q=${aion}&x=aion%5Fsvc_${'R'.repeat(20)}&${aion}&keep=a%20b`;
    await request(server.url, 'GET', `/api/v1/projects?${query}`, { token: server.adminToken, headers: { 'x-request-id': 'hardening-query' } });
    const line = server.logs.find((l) => l.includes('"reqId":"hardening-query"') && l.includes('incoming request')) ?? '';
    const url = (JSON.parse(line) as { req: { url: string } }).req.url;
    expect(url).toBe('/api/v1/projects?token=[redacted]&access_token=[redacted]&ID-Token=[redacted]&q=[redacted]&x=[redacted]&[redacted]&keep=a%20b');
    const all = server.logs.join('\n');
    for (const secret of ['plain-secret-', 'Q'.repeat(43), 'R'.repeat(20)]) expect(all).not.toContain(secret);
  });
});

describe('the console page', () => {
  it('may not be framed: X-Frame-Options DENY beside frame-ancestors', async () => {
    const page = await request(server.url, 'GET', '/projects/shop', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});

// `ops serve` with a certificate speaks HTTPS: HTTP/2 where the client offers
// it (ALPN), HTTP/1.1 where it does not, on one port; an event stream runs
// over HTTP/2 as over HTTP/1.1.
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { connect } from 'node:http2';
import { request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/process.js';

let server: ServerProcess;
const TOKEN = 'aion_http2_test_owner_token_000000000000';

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aion-tls-'));
  const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  server = await spawnServer(['--data', path.join(dir, 'data')], { AION_TLS_CERT: cert, AION_TLS_KEY: key, AION_ADMIN_TOKEN: TOKEN });
});
afterAll(async () => {
  await server?.stop();
});

describe('HTTPS with HTTP/2', () => {
  it('answers HTTP/2 by ALPN, streams events over it, and HTTP/1.1 to a client without it', async () => {
    expect(server.url).toMatch(/^https:/);
    const session = connect(server.url, { rejectUnauthorized: false });
    try {
      const get = (pathname: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const stream = session.request({ ':path': pathname, authorization: `Bearer ${TOKEN}` });
          let status = 0;
          let body = '';
          stream.on('response', (headers) => (status = Number(headers[':status'])));
          stream.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
            // An event stream: its greeting is enough.
            if (body.includes('following')) stream.close();
          });
          stream.on('close', () => resolve({ status, body }));
          stream.on('error', reject);
        });
      const projects = await get('/api/v1/projects');
      expect(session.alpnProtocol).toBe('h2');
      expect(projects.status).toBe(200);
      const stream = await get('/api/v1/stream?topic=changes');
      expect(stream.status).toBe(200);
      expect(stream.body).toContain(': following 1 topics');
    } finally {
      session.close();
    }
    // node:https offers only http/1.1 by ALPN, as an older client or proxy does.
    const version = await new Promise<string>((resolve, reject) => {
      const asked = request(`${server.url}/healthz`, { rejectUnauthorized: false }, (response) => {
        response.resume();
        resolve(response.httpVersion);
      });
      asked.on('error', reject);
      asked.end();
    });
    expect(version).toBe('1.1');
  });
});

// DNS rebinding and foreign web pages: /mcp answers its own origin, those
// AION_ALLOWED_ORIGINS lists and clients that send no Origin, under a Host
// that names this server; /metrics trusts a loopback caller only under a
// loopback Host. Plain node:http, since fetch will not send a chosen Host.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const METRICS_TOKEN = 'metrics-secret-origins-0123456789';
let server: TestServer;
let port: string;

beforeAll(async () => {
  server = await startTestServer('pglite', {
    demo: true,
    env: { AION_ALLOWED_ORIGINS: 'https://Aion.example.com, http://console.internal:3000', AION_METRICS_TOKEN: METRICS_TOKEN },
  });
  port = new URL(server.url).port;
});
afterAll(() => server.stop());

interface Answer {
  status: number;
  body: unknown;
}

/** A request to the server on loopback with exactly these headers, Host included. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + path, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** whoami over /mcp as olive, with these headers besides the ones MCP needs. */
function whoami(headers: Record<string, string>, token: string | null = server.demoTokens.olive ?? null): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
  return send('POST', '/mcp', {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  }, body);
}

const answered = (answer: Answer) => (answer.body as { result?: { structuredContent?: { operator?: string } } }).result?.structuredContent?.operator;

describe('/mcp and Origin', () => {
  it('answers clients that send no Origin, its own origin, and the origins AION_ALLOWED_ORIGINS lists', async () => {
    const own = `127.0.0.1:${port}`;
    const cases: Record<string, string>[] = [
      { host: own },
      { host: own, origin: `http://${own}` },
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: own, origin: 'https://aion.example.com' },
      { host: 'aion.example.com', origin: 'https://aion.example.com' },
      { host: own, origin: 'http://console.internal:3000' },
    ];
    for (const headers of cases) {
      const answer = await whoami(headers);
      expect([headers, answer.status, answered(answer)]).toEqual([headers, 200, 'olive']);
    }
  });

  it('refuses a foreign Origin with 403 and a sentence, before the token is read', async () => {
    for (const origin of ['https://evil.example', `http://localhost:${port}`, 'http://console.internal:3001', 'null']) {
      for (const token of [server.demoTokens.olive ?? null, null]) {
        const answer = await whoami({ host: `127.0.0.1:${port}`, origin }, token);
        expect(answer.status, origin).toBe(403);
        expect(answer.body).toEqual({
          error: `web pages of ${origin} may not call /mcp: only this server's own origin and those AION_ALLOWED_ORIGINS lists may (MCP clients send no Origin)`,
        });
      }
    }
  });

  it('refuses a Host that names another host (DNS rebinding), whatever the Origin', async () => {
    for (const host of [`evil.example:${port}`, 'aion.example.com.evil.example', 'localhost.evil.example']) {
      const cases: Record<string, string>[] = [{ host }, { host, origin: `http://${host}` }];
      for (const headers of cases) {
        const answer = await whoami(headers);
        expect([headers, answer.status]).toEqual([headers, 403]);
        expect(answer.body).toEqual({
          error: `this server does not answer /mcp for the host ${host}: name it by its address, localhost, or a host of AION_ALLOWED_ORIGINS`,
        });
      }
    }
  });

  it('takes any address as Host, which no DNS name can rebind', async () => {
    for (const host of [`10.1.2.3:${port}`, `[::1]:${port}`]) {
      expect((await whoami({ host, origin: `http://${host}` })).status).toBe(200);
    }
  });
});

describe('/metrics and Host', () => {
  it('answers a loopback caller under a loopback Host only; another Host needs the metrics token', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await send('GET', '/metrics', { host })).status, host).toBe(200);
    }
    for (const host of [`evil.example:${port}`, `10.1.2.3:${port}`]) {
      expect(await send('GET', '/metrics', { host })).toEqual({ status: 401, body: { error: 'bad token' } });
      expect((await send('GET', '/metrics', { host, authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    }
  });
});

describe('AION_ALLOWED_ORIGINS', () => {
  it('keeps origins as browsers send them, and refuses anything that is not one', () => {
    const read = (value: string) => readConfig({}, { AION_ALLOWED_ORIGINS: value }).allowedOrigins;
    expect(read('https://Aion.example.com/, http://10.0.0.5:8080')).toEqual(['https://aion.example.com', 'http://10.0.0.5:8080']);
    expect(read('')).toEqual([]);
    for (const bad of ['aion.example.com', 'https://aion.example.com/mcp', 'ftp://aion.example.com', '*']) {
      expect(() => read(bad), bad).toThrow(ConfigError);
    }
  });
});

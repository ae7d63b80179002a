// Where a webhook may post by default: public http(s) addresses only; a
// loopback or private one (literal, or a name that resolves to one as it
// connects) is refused unless AION_WEBHOOK_ALLOW_PRIVATE.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postOnce } from '../../src/webhooks/posting.js';
import { isPrivateAddress, targetRefusal } from '../../src/webhooks/targets.js';

describe('webhook targets', () => {
  it('private, loopback and link-local addresses are private; public ones are not', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('a loopback or private url is refused with a sentence unless allowed', () => {
    expect(targetRefusal('http://127.0.0.1:9/x', false)).toBe(
      '127.0.0.1 is a loopback or private address, and this server posts webhooks only to public ones (AION_WEBHOOK_ALLOW_PRIVATE=1 allows them)',
    );
    expect(targetRefusal('http://localhost/x', false)).toMatch(/^localhost is a loopback/);
    expect(targetRefusal('http://[::1]/x', false)).toMatch(/^\[::1\] is a loopback/);
    expect(targetRefusal('http://127.0.0.1:9/x', true)).toBeNull();
    expect(targetRefusal('https://hooks.slack.com/services/T/B/X', false)).toBeNull();
  });

  it('a name resolving to loopback is refused as it connects, and nothing is sent', async () => {
    let hits = 0;
    const server = http.createServer((_q, r) => {
      hits++;
      r.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const post = { url: `http://localhost:${port}/x`, secret: 's', event: 'change_request.opened', delivery: 'd', body: '{}' };
    const refused = await postOnce(post, { timeoutMs: 2_000, allowPrivate: false });
    expect(refused.statusCode).toBeNull();
    expect(refused.error).toMatch(/^could not deliver: localhost resolves to the private address (127\.0\.0\.1|::1); webhooks post only to public ones$/);
    expect(hits).toBe(0);
    expect(await postOnce({ ...post, url: `http://127.0.0.1:${port}/x` }, { timeoutMs: 2_000, allowPrivate: false })).toEqual({
      statusCode: null,
      error: '127.0.0.1 is a private address; webhooks post only to public ones',
    });
    expect(await postOnce(post, { timeoutMs: 2_000, allowPrivate: true })).toEqual({ statusCode: 200, error: null });
    expect(hits).toBe(1);
    server.close();
  });
});

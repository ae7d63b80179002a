// A real webhook receiver on loopback, as a team would write one: it checks
// each delivery's signature (HMAC-SHA256 of "<t>.<body>" under the hook's
// secret, timestamp within five minutes) and answers 500 to the first tries
// of each delivery it is told to fail.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  delivery: string;
  event: string;
  body: Record<string, unknown>;
  signed: boolean;
  answered: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret signatures are checked with (the hook's, once it is made). */
  secret: string;
  /** Deliveries answered 200, by delivery id: how many times each. */
  deliveredCount(): Map<string, number>;
  close(): Promise<void>;
}

export function signedBy(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Answers 500 to the first `failFirst` tries of each delivery, then 200 (a bad signature: 401). */
export async function startReceiver(failFirst = 0): Promise<Receiver> {
  const received: Received[] = [];
  const tries = new Map<string, number>();
  const receiver: Receiver = {
    url: '',
    received,
    secret: '',
    deliveredCount: () => {
      const counts = new Map<string, number>();
      for (const r of received) if (r.answered === 200) counts.set(r.delivery, (counts.get(r.delivery) ?? 0) + 1);
      return counts;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const delivery = String(request.headers['x-aion-delivery']);
      const signed = signedBy(receiver.secret, String(request.headers['x-aion-signature'] ?? ''), text);
      const tried = (tries.get(delivery) ?? 0) + 1;
      tries.set(delivery, tried);
      const answered = !signed ? 401 : tried <= failFirst ? 500 : 200;
      received.push({ delivery, event: String(request.headers['x-aion-event']), body: JSON.parse(text) as Record<string, unknown>, signed, answered });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/aion`;
  return receiver;
}

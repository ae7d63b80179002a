// One try of a delivery: a POST of the body, signed, with the event and the
// delivery's id in headers; redirects are not followed (a 3xx is a failed
// try) and only the status is read. Its failure is a sentence naming no URL
// (a Slack-style URL is itself a credential).
import http from 'node:http';
import https from 'node:https';
import type { TryOutcome } from './deliveries.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signature } from './signing.js';
import { literalRefusal, publicOnlyLookup } from './targets.js';

export interface Post {
  url: string;
  secret: string;
  event: string;
  delivery: string;
  body: string;
}

export function postOnce(post: Post, options: { timeoutMs: number; allowPrivate: boolean }): Promise<TryOutcome> {
  const url = new URL(post.url);
  const refused = literalRefusal(url, options.allowPrivate);
  if (refused) return Promise.resolve({ statusCode: null, error: refused });
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Aion-Ops-Webhooks',
    [EVENT_HEADER]: post.event,
    [DELIVERY_HEADER]: post.delivery,
    [SIGNATURE_HEADER]: signature(post.secret, Math.floor(Date.now() / 1000), post.body),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers,
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        response.resume();
        const statusCode = response.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({ statusCode, error: ok ? null : `the receiver answered ${statusCode ?? 'without a status'}` });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.name === 'AbortError' || error.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (error.code ?? error.message);
      resolve({ statusCode: null, error: `could not deliver: ${why}` });
    });
    request.end(post.body);
  });
}

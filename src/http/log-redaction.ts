// What never reaches a log line: tokens in headers, secret fields, and query
// values that look like tokens (`?token=`, `?access_token=`, any `aion_…`),
// which the request line would otherwise log whole with its URL.
import type { FastifyRequest } from 'fastify';

export const CENSOR = '[redacted]';

/** Paths of values that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-aion-token"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.value',
  '*.password',
];

/** A query parameter whose value is a credential whatever it looks like: token, access_token, id-token… */
const TOKEN_NAME = /(?:^|[-_])token$/i;
/** An Aion token (`aion_`, `aion_svc_`, `aion_ses_` and base64url), whole or cut. */
const AION_TOKEN = /aion_[\w-]/;

/** Percent escapes read byte by byte: enough to see an ASCII token, and never throws. */
function unescaped(text: string): string {
  return text.replaceAll('+', ' ').replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function redactPair(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals < 0 ? pair : pair.slice(0, equals);
  if (AION_TOKEN.test(unescaped(name))) return CENSOR;
  if (equals < 0) return pair;
  const sensitive = TOKEN_NAME.test(unescaped(name)) || AION_TOKEN.test(unescaped(pair.slice(equals + 1)));
  return sensitive ? `${name}=${CENSOR}` : pair;
}

/** The URL with each query value that looks like a token replaced, the rest as sent. */
export function redactQuery(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  return `${url.slice(0, question + 1)}${url.slice(question + 1).split('&').map(redactPair).join('&')}`;
}

/** The request as its log line shows it: Fastify's own fields, the URL's tokens redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

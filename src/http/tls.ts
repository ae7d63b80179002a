// HTTPS with HTTP/2 when a certificate is configured: browsers then carry
// every request and stream of every tab over one connection (ALPN picks h2;
// clients without it get HTTP/1.1 on the same port).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { Config } from '../config.js';
import { StartError } from '../config.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Fastify's server factory for HTTPS with HTTP/2, or undefined for plain HTTP/1.1. */
export function secureServerFactory(tls: Config['tls']): ((handler: Handler) => Server) | undefined {
  if (!tls) return undefined;
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new StartError(`the TLS ${what} ${file} cannot be read: ${(error as Error).message}`);
    }
  };
  const options = { allowHTTP1: true, cert: read(tls.certFile, 'certificate'), key: read(tls.keyFile, 'key') };
  // Fastify serves HTTP/2's compatibility requests as it does HTTP/1.1's; its types know only the latter here.
  return (handler) => createSecureServer(options, handler as unknown as Parameters<typeof createSecureServer>[1]) as unknown as Server;
}

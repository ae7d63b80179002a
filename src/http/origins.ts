// Who may reach /mcp from a browser, and which Host a loopback caller must
// name. MCP's Streamable HTTP transport asks servers to check Origin against
// DNS rebinding: a page on a name its attacker points at 127.0.0.1 sends that
// name as its Host and its Origin alike, so both are checked, before the token.
// MCP clients that are not browsers send no Origin and pass; a Host that is an
// address, not a name, cannot be rebound.
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Refuse a web page of another origin, and a Host naming another host (DNS rebinding). */
    sameOrigin?: boolean;
  }
}

const HOST_HEADER = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/** Where a Host header addresses (its `host` as a browser writes it: lowercase, no default port), or null when it names nowhere. */
function hostOf(header: string | undefined): URL | null {
  return header !== undefined && HOST_HEADER.test(header) && URL.canParse(`http://${header}`) ? new URL(`http://${header}`) : null;
}

/** Whether a Host header names this machine's loopback: localhost, 127.x.x.x or [::1]. */
export function isLoopbackHost(header: string | undefined): boolean {
  const name = hostOf(header)?.hostname;
  return name === 'localhost' || name === '[::1]' || (name !== undefined && isIP(name) === 4 && name.startsWith('127.'));
}

export const originGuard = fp(async (app: FastifyInstance, options: { host: string; allowedOrigins: string[] }) => {
  const origins = new Set(options.allowedOrigins);
  const names = new Set(['localhost', options.host.toLowerCase(), ...options.allowedOrigins.map((origin) => new URL(origin).hostname)]);

  /** Why the request is refused, or null when it is not. */
  const refusal = (request: FastifyRequest): string | null => {
    const { host, origin } = request.headers;
    const route = request.routeOptions.url ?? request.url;
    const addressed = hostOf(host);
    const name = addressed?.hostname.replace(/^\[(.*)\]$/, '$1') ?? '';
    if (!addressed || (isIP(name) === 0 && !names.has(name))) {
      return `this server does not answer ${route} for the host ${host ?? '(none)'}: name it by its address, localhost, or a host of AION_ALLOWED_ORIGINS`;
    }
    if (origin === undefined) return null;
    const page = URL.canParse(origin) ? new URL(origin) : null;
    if (page && (origins.has(page.origin) || page.host === addressed.host)) return null;
    return `web pages of ${origin} may not call ${route}: only this server's own origin and those AION_ALLOWED_ORIGINS lists may (MCP clients send no Origin)`;
  };

  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.sameOrigin) return;
    const sentence = refusal(request);
    if (sentence !== null) throw forbidden(sentence);
  });
});

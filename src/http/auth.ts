// Bearer authentication for the API. Each route says which kinds of token it
// accepts (`config.accepts`, operator tokens by default); any other token,
// like a missing, unknown or revoked one, is a bad token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Operator } from '../access/operators.js';
import type { Authenticator, Caller } from '../access/tokens.js';
import { badToken, notFound } from '../errors.js';

type CallerKind = Caller['kind'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The kinds of token this route accepts; `[]` for a public route. */
    accepts?: CallerKind[];
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer +(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export const authPlugin = fp(async (app: FastifyInstance, options: { authenticator: Authenticator }) => {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    const accepts = request.routeOptions.config.accepts ?? ['operator'];
    if (accepts.length === 0 || request.is404) return;
    const caller = await options.authenticator.authenticate(bearerToken(request));
    if (!caller || !accepts.includes(caller.kind)) throw badToken();
    request.caller = caller;
  });
});

/**
 * The operator acting on one conversation: an operator token, or a session
 * credential of that very thread (any other thread does not exist for it).
 */
export function conversationOperator(request: FastifyRequest, threadId: string): Operator {
  const caller = request.caller;
  if (caller?.kind === 'session') {
    if (caller.threadId !== threadId) throw notFound(`no such thread: ${threadId}`);
    return caller.operator;
  }
  return operatorOf(request);
}

/** The operator behind the request; routes that accept only operators may rely on it. */
export function operatorOf(request: FastifyRequest): Operator {
  if (request.caller?.kind !== 'operator') throw badToken();
  return request.caller.operator;
}

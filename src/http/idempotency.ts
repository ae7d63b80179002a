// The `Idempotency-Key` header on the writes a client retries (deploy,
// rollback, accept, accept-all): the first request with a key runs and its
// answer is kept 24 h; a retry with the same key and body, on any server, gets
// that answer again (`Idempotent-Replayed: true`) without running; the same
// key with another body is a 422, and a retry while the first still runs a 409.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, invalid } from '../errors.js';
import type { IdempotencyKeys, KeyedRequest } from '../store/idempotency-keys.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an Idempotency-Key; a function: for the requests it says (the tool route: deploy and rollback). */
    idempotent?: boolean | ((request: FastifyRequest) => boolean);
  }
  interface FastifyRequest {
    /** The key this request holds, while it runs. */
    idempotency: HeldKey | null;
  }
}

type HeldKey = KeyedRequest & { attempt: string };

const HEADER = 'idempotency-key';

/** The header's schema, for the routes that take it (validated, and in the OpenAPI). */
export const idempotencyHeaders = {
  type: 'object',
  properties: {
    [HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Optional, 1 to 255 visible ASCII characters (a UUID). The first request with this key runs; a retry with the same key and body within 24 h, on any server, gets its answer again (header Idempotent-Replayed: true) without running. The same key with another body: 422; while the first still runs: 409 with Retry-After.',
    },
  },
} as const;

/** The key the request holds, if it sent one and runs under it. */
export function heldKey(request: FastifyRequest): HeldKey | null {
  return request.idempotency;
}

export const idempotencyPlugin = fp(async (app: FastifyInstance, { keys }: { keys: IdempotencyKeys }) => {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[HEADER];
    const idempotent = request.routeOptions.config.idempotent;
    if (typeof key !== 'string' || !idempotent || (typeof idempotent === 'function' && !idempotent(request))) return;
    if (request.caller?.kind !== 'operator') return;
    const keyed: KeyedRequest = {
      operatorId: request.caller.operator.id,
      key,
      route: `${request.method} ${request.url.split('?')[0] ?? ''}`,
      requestHash: createHash('sha256').update(sortedJson(request.body ?? null)).digest('hex'),
    };
    const claim = await keys.claim(keyed);
    switch (claim.kind) {
      case 'run':
        request.idempotency = { ...keyed, attempt: claim.attempt };
        return;
      case 'replay':
        request.log.info({ idempotencyKey: key }, 'answered again from its Idempotency-Key; nothing ran');
        return reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
      case 'mismatch':
        throw invalid(claim.why);
      case 'busy':
        throw new AppError(
          'conflict',
          claim.applied
            ? `the request with Idempotency-Key ${key} made its change and has not answered yet (if its server stopped, its answer is lost); read the result instead of sending it again`
            : `a request with Idempotency-Key ${key} is still running; send this again once it has answered`,
          1,
        );
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = null;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    // Not kept, the key stays held until the request bound frees it: a retry then runs, or finds the write applied.
    await keys.finish(held, reply.statusCode, body).catch((error: unknown) => request.log.warn({ err: error, idempotencyKey: held.key }, 'the answer to keep under an Idempotency-Key could not be stored'));
    return payload;
  });
});

/** JSON with every object's keys sorted: the same body however a client orders it. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// The one place where errors become HTTP answers: `{"error": "<sentence>"}`
// with the status each kind means. A 500 says nothing internal; its request id
// ties the answer to the log line that has the details.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorKind } from '../errors.js';
import { storeUnreachable } from '../store/unreachable.js';
import { STORABLE } from '../validation/ajv.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A body over the limit is this route's 422 with this sentence, not a 413:
     * no body that long can be valid here (the message route: its text has a
     * length limit far below the body's), and the spec names 422 for it.
     */
    oversizedBodyIsInvalid?: string;
  }
}

export const STATUS: Record<ErrorKind, number> = {
  bad_token: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  too_many: 429,
  unavailable: 503,
};

/** The shared schema of every error body, referenced as `Error#`. */
export const errorSchema = {
  $id: 'Error',
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
} as const;

const FASTIFY_SENTENCES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'the request body is not valid JSON; send a JSON object',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported content type; send JSON with Content-Type: application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the Content-Length header does not match the body',
};

/** Answers a request no route matched (the console's pages); false to leave it a 404. */
export type Fallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

export function registerErrorHandling(
  app: FastifyInstance,
  bodyLimitSentence: (limit: number) => string,
  fallback: Fallback = () => false,
): void {
  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    const error = storeUnreachable(thrown) ?? thrown;
    if (error instanceof AppError) {
      // What broke behind a 503 of the store (a connection): the log keeps it.
      if (error.cause !== undefined) request.log.warn({ err: error.cause, status: STATUS[error.kind] }, error.message);
      if (error.retryAfter !== undefined) void reply.header('retry-after', String(error.retryAfter));
      if (error.kind === 'bad_token') {
        // One line that says why, never the token itself (the logger redacts the header too).
        request.log.info({ status: 401 }, 'bad token: missing, unknown, revoked, or not accepted on this route');
        void reply.header('www-authenticate', 'Bearer');
      }
      return reply.code(STATUS[error.kind]).send({ error: error.message });
    }
    if (error.validation) {
      return reply.code(namesNothing(error) ? 404 : 422).send({ error: validationSentence(error) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const invalid = request.routeOptions.config.oversizedBodyIsInvalid;
      const limit = bodyLimitSentence(request.routeOptions.bodyLimit ?? 0);
      return invalid ? reply.code(422).send({ error: `${invalid} (${limit})` }) : reply.code(413).send({ error: limit });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: FASTIFY_SENTENCES[error.code] ?? lowerFirst(error.message) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ error: `internal error; the server log has the details under request id ${request.id}` });
  });

  app.setNotFoundHandler((request, reply) =>
    fallback(request, reply) ? reply : reply.code(404).send({ error: `no such route: ${request.method} ${request.url.split('?')[0]}` }),
  );
}

/**
 * A path or query value that is too long or holds what the store cannot
 * (STORABLE) is a name no resource can have: the route's 404, not a 422.
 */
function namesNothing(error: FastifyError): boolean {
  const [first] = error.validation ?? [];
  const lookup = error.validationContext === 'params' || error.validationContext === 'querystring';
  return lookup && (first?.keyword === 'maxLength' || first?.keyword === STORABLE);
}

function validationSentence(error: FastifyError): string {
  const [first] = error.validation ?? [];
  if (!first) return lowerFirst(error.message);
  const where = [error.validationContext, first.instancePath.replace(/^\//, '').replaceAll('/', '.')]
    .filter(Boolean)
    .join('.');
  if (first.keyword === 'additionalProperties') {
    const extra = (first.params as { additionalProperty?: string }).additionalProperty;
    return `${where} has an unknown property ${extra}; remove it`;
  }
  if (namesNothing(error)) return `nothing here is named by ${where}: it ${first.message ?? 'is invalid'}`;
  return `${where} ${first.message ?? 'is invalid'}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// Running a tool for an HTTP request: the caller is the request's operator,
// `via` is `console` or `mcp` when the client says so, else `rest`. The
// restricting headers (X-Aion-Read-Only, X-Aion-Tools) hold for any caller:
// the executor enforces them.
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actions.js';
import { AppError } from '../errors.js';
import type { Services } from '../services.js';
import { settingsFromHeaders } from '../mcp/headers.js';
import type { Invocation, Restrictions } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import type { Via } from '../store/schema.js';
import { operatorOf } from './auth.js';

export function invocationOf(request: FastifyRequest): Invocation {
  return { operator: operatorOf(request), via: viaOf(request), ...restrictionsOf(request), requestId: request.id, beforeWrite: request.beforeWrite };
}

/** The request's operator and how they came: who performs an action outside the catalogue. */
export function actorOf(request: FastifyRequest): Actor {
  return { operator: operatorOf(request), via: viaOf(request) };
}

/** What the request's X-Aion-Read-Only, X-Aion-Tools and X-Aion-Only-Environment restrict. */
export function restrictionsOf(request: FastifyRequest): Restrictions {
  const { readOnly, only, onlyEnvironment } = settingsFromHeaders(request.headers);
  return { readOnly, only, onlyEnvironment };
}

/** How the caller says it came (X-Aion-Via, any case): the console, an MCP proxy, else REST. */
export function viaOf(request: FastifyRequest): Via {
  const said = String(request.headers['x-aion-via'] ?? '').trim().toLowerCase();
  return said === 'console' || said === 'mcp' ? said : 'rest';
}

/** Runs a tool and answers with its result; its failure becomes the status its kind means. */
export async function invoke(
  services: Services,
  request: FastifyRequest,
  name: string,
  input: Record<string, unknown>,
): Promise<ToolResult> {
  const outcome = await services.executor.run(invocationOf(request), name, input);
  if (outcome.is_error) throw new AppError(outcome.failure ?? 'invalid', String(outcome.result.error));
  return outcome.result;
}

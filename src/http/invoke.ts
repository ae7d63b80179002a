// Running a tool for an HTTP request: the caller is the request's operator,
// `via` is `console` or `mcp` when the client says so, else `rest`. An MCP
// proxy (`ops mcp`) also sends its connection's restrictions, which the
// executor then enforces.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Services } from '../services.js';
import { settingsFromHeaders } from '../mcp/headers.js';
import type { Invocation } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import { operatorOf } from './auth.js';

export function invocationOf(request: FastifyRequest): Invocation {
  const operator = operatorOf(request);
  const via = request.headers['x-aion-via'];
  if (via === 'mcp') {
    const { readOnly, only } = settingsFromHeaders(request.headers);
    return { operator, via: 'mcp', readOnly, only, requestId: request.id };
  }
  return { operator, via: via === 'console' ? 'console' : 'rest', requestId: request.id };
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

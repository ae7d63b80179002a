// Running a tool for an HTTP request: the caller is the request's operator,
// `via` is `console` when the console says so, else `rest`.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Services } from '../services.js';
import type { Invocation } from '../tools/executor.js';
import type { ToolResult } from '../tools/types.js';
import { operatorOf } from './auth.js';

export function invocationOf(request: FastifyRequest): Invocation {
  return { operator: operatorOf(request), via: request.headers['x-aion-via'] === 'console' ? 'console' : 'rest' };
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

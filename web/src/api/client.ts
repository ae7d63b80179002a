// Every request the console makes: the tab's token as a bearer header (never
// in a URL), JSON in and out, and the server's sentence on any failure.
import { currentToken, forgetToken } from '../auth/token';
import type { ToolInput, ToolName, ToolOutput } from '../../../src/wire/tool-map';
import { watched } from './connection';

/** A non-2xx answer; `message` is the server's sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** A tool that refused or failed (a 200 with is_error); `message` is its sentence. */
export class ToolError extends Error {}

/** The headers of every request: the tab's token as a bearer, and via `console`. */
export function requestHeaders(accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept, 'x-aion-via': 'console' };
  const token = currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

export async function api<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers = requestHeaders('application/json');
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await watched(
    fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      ...(signal ? { signal } : {}),
    }),
    signal,
  );
  return answerOf<T>(response);
}

/** The body of a 2xx answer; otherwise the server's sentence as an ApiError (a 401 also signs the tab out). */
export async function answerOf<T>(response: Response): Promise<T> {
  const parsed: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.ok) return parsed as T;
  const sentence = (parsed as { error?: unknown } | null)?.error;
  if (response.status === 401) forgetToken('Your token is no longer accepted; sign in again.');
  throw new ApiError(response.status, typeof sentence === 'string' ? sentence : `the server answered ${response.status}`, parsed);
}

export interface ToolOutcome<T> {
  is_error: boolean;
  result: T | { error: string };
}

/**
 * Runs a tool as the operator, through the same route every client uses,
 * audited with via `console`; its input and answer are typed by its name
 * (src/wire/tool-map.ts). A query passes its `signal`, so one no longer
 * wanted (its page left, its key changed) stops its request.
 */
export async function runTool<N extends ToolName>(name: N, input: ToolInput<N>, signal?: AbortSignal): Promise<ToolOutput<N>> {
  return resultOf(await api<ToolOutcome<ToolOutput<N>>>('POST', `/api/v1/assistant/tools/${encodeURIComponent(name)}`, input, signal));
}

/** A tool's result, or its sentence as a ToolError. */
export function resultOf<T>(outcome: ToolOutcome<T>): T {
  if (outcome.is_error) throw new ToolError((outcome.result as { error: string }).error);
  return outcome.result as T;
}

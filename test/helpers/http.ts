// A small HTTP client for tests: real requests on loopback, JSON in and out.
export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** A body sent as it is, not as JSON. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export async function request(base: string, method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A client bound to one server and one token. */
export function client(base: string, token: string | null) {
  return {
    get: (path: string, options: RequestOptions = {}) => request(base, 'GET', path, { token, ...options }),
    post: (path: string, body?: unknown, options: RequestOptions = {}) =>
      request(base, 'POST', path, { token, body, ...options }),
    put: (path: string, body?: unknown, options: RequestOptions = {}) =>
      request(base, 'PUT', path, { token, body, ...options }),
    patch: (path: string, body?: unknown, options: RequestOptions = {}) =>
      request(base, 'PATCH', path, { token, body, ...options }),
    delete: (path: string, options: RequestOptions = {}) => request(base, 'DELETE', path, { token, ...options }),
  };
}
export type Client = ReturnType<typeof client>;

/** How many requests a server holds waiting for a change, from its /metrics (open on loopback). */
export async function heldRequests(base: string): Promise<number> {
  const { text } = await request(base, 'GET', '/metrics');
  return Number(/^aion_held_requests (\d+)/m.exec(text)?.[1] ?? 0);
}

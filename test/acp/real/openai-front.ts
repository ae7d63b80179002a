// The HTTP front that OpenAI's APIs share, for the mocks of the Responses API
// (Codex) and of Chat Completions (OpenCode, Kilo, Qwen Code, Cline): the
// model list, 404 for a route the API lacks, 400 for a body that is not JSON,
// and 500 with the mock's own error, each as OpenAI's `{ error: { message, type } }`.
import http from 'node:http';
import { bodyOf } from './script.js';

export interface OpenAIFront<Request> {
  /** The path suffix of the one POST route the API answers (`/responses`, `/chat/completions`). */
  route: string;
  /** The body of `GET …/models`. */
  models: unknown;
  /** Answers one parsed request (already kept in `requests`). */
  respond(request: Request, req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
}

function sendError(res: http.ServerResponse, status: number, type: string, message: string): void {
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type } }));
}

/** A server with OpenAI's front; every parsed request body is pushed onto `requests`. */
export function openAIServer<Request>(front: OpenAIFront<Request>, requests: unknown[]): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const text = await bodyOf(req);
      if (req.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(front.models));
        return;
      }
      if (req.method !== 'POST' || !path.endsWith(front.route)) return sendError(res, 404, 'invalid_request_error', `no route ${req.method} ${path}`);
      let parsed: Request;
      try {
        parsed = JSON.parse(text) as Request;
      } catch {
        return sendError(res, 400, 'invalid_request_error', 'the body is not JSON');
      }
      requests.push(parsed);
      await front.respond(parsed, req, res);
    })().catch((error: unknown) => sendError(res, 500, 'server_error', String(error)));
  });
}

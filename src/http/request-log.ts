// A request's log line as a person at a terminal reads it: one line when it
// ends, at debug (so the screen stays calm at the default level), errors at
// error. Machines keep Fastify's own two lines at info (the JSON format).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactQuery } from './log-redaction.js';

export class QuietRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${redactQuery(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.debug(line);
  }
}

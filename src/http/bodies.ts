// Request bodies: JSON, where an empty one is no body at all (Node's fetch
// sends `Content-Type: application/json` with nothing after it), and no body
// is an empty object for a route that takes one, so a route whose fields are
// all optional needs nothing sent and one with required fields names them.
import type { FastifyInstance } from 'fastify';

export function acceptEmptyBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });
}

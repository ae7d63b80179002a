// Every topic a browser follows, over one Server-Sent Events stream: a
// browser holds six HTTP/1.1 connections to a host, shared by all its tabs,
// so the console's tabs follow their threads, projects, turns and shared
// contexts through one stream (their leader tab's) instead of a stream each.
// The topics are named in the query (streams/topics); each event says which
// one it belongs to by its place there. A new set of topics is a new stream,
// opened before the old one closes, so nothing falls between them.
import { AppError, messageOf } from '../../errors.js';
import type { Services } from '../../services.js';
import { type FeedEvent, untilAborted } from '../../streams/feed.js';
import { MAX_TOPICS, TOPIC_MAX_LENGTH, topicOpener } from '../../streams/topics.js';
import { operatorOf } from '../auth.js';
import { STATUS } from '../errors.js';
import { openEventStream } from '../event-stream.js';
import { errorResponses, type RoutePlugin } from '../schemas.js';

export const streamRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/stream',
    {
      schema: {
        operationId: 'streamTopics',
        summary:
          'Server-Sent Events of several topics at once, whichever server changed them: `topic` names each (changes; project:<slug>; turn:<thread>[@<turn>:<seq>]; context:<thread>@<revision>). Each event is `{topic, id, data}` with `topic` its place in the query and the event type as its own route names it (a turn\'s `id` resumes after it); `end` {topic, status?, error?} when a topic has nothing more to say or was refused (an unknown thread or project: 404)',
        tags: ['assistant'],
        querystring: {
          type: 'object',
          properties: { topic: { type: 'array', items: { type: 'string', minLength: 1, maxLength: TOPIC_MAX_LENGTH }, minItems: 1, maxItems: MAX_TOPICS } },
          required: ['topic'],
          additionalProperties: false,
        },
        produces: ['text/event-stream'],
        response: { 200: { type: 'string', description: 'text/event-stream: the topics\' own events, each {topic, id, data}; end' }, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) => {
      const operator = operatorOf(request);
      const openers = request.query.topic.map(topicOpener);
      const stream = openEventStream(request, reply, `following ${openers.length} topics`, services.changes.closing);
      const follow = async (topic: number, open: (typeof openers)[number]) => {
        let over = false;
        const send = ({ id, type, data }: FeedEvent) => {
          if (!over && !stream.closed.aborted) stream.send({ type, data: { topic, id: id ?? null, data } });
        };
        try {
          await (await open(services, operator))(send, stream.closed);
          send({ type: 'end', data: null });
        } catch (error) {
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'following a topic failed');
          const refusal = error instanceof AppError ? { status: STATUS[error.kind], error: messageOf(error) } : { error: 'the topic could not be followed; open the stream again' };
          send({ type: 'end', data: refusal });
        } finally {
          over = true;
        }
      };
      await Promise.all(openers.map((open, topic) => follow(topic, open)));
      // Every topic ended: the stream stays open (the client closes it when it follows other topics).
      await untilAborted(stream.closed);
      stream.end();
    },
  );
};

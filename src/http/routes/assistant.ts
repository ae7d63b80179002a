// The assistant's HTTP API, exactly as spec/assistant-and-tools.md writes it:
// status, threads, messages, proposals; beyond it, renaming a thread and its usage.
import type { preValidationHookHandler } from 'fastify';
import { invalid } from '../../errors.js';
import type { Services } from '../../services.js';
import { replaceUnstorable } from '../../store/storable.js';
import { TITLE_MAX } from '../../assistant/thread-title.js';
import { agentChoiceSchema } from '../../wire/agent-options.js';
import { assistantStatusSchema } from '../../wire/assistant-status.js';
import { questionAnswerSchema } from '../../wire/question.js';
import { threadResponseSchema } from '../../wire/thread.js';
import { usageSchema } from '../../wire/usage.js';
import { operatorOf } from '../auth.js';
import { idempotencyHeaders } from '../idempotency.js';
import { actorOf } from '../invoke.js';
import { errorResponses, type RoutePlugin, threadParams } from '../schemas.js';

const nullableString = { type: ['string', 'null'] } as const;

const proposalParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 100 }, proposal_id: { type: 'string', maxLength: 100 } },
  required: ['id', 'proposal_id'],
} as const;

/** What a deciding route says of retries and abandoned requests. */
const WRITE_GATE =
  'Takes an Idempotency-Key (see the header). A request whose client left, or that waited over AION_REQUEST_QUEUE_LIMIT to start its write, changes nothing: 503 with Retry-After.';

const MAX_MESSAGE = 8000;
const MAX_THREADS = 200;
const MAX_PAGE = 2000;
/** Accept all names at most this many proposals seen. */
const MAX_SEEN = 500;

/** OpenThreadBody (spec/assistant-and-tools.md), with the agent Aion adds. */
export const openThreadBodySchema = {
  type: 'object',
  properties: {
    environment: nullableString,
    page: { ...nullableString, description: `Free text, kept to its first ${MAX_PAGE} characters.` },
    project: nullableString,
    agent: { ...nullableString, description: 'A configured ACP agent to hold the thread (GET /assistant/agents); the built-in assistant when absent.' },
  },
  additionalProperties: false,
} as const;

/** PostMessageBody (spec/assistant-and-tools.md). */
export const postMessageBodySchema = {
  type: 'object',
  properties: { text: { type: 'string', minLength: 1, maxLength: MAX_MESSAGE, description: 'What the operator typed. 1 to 8000 characters.' } },
  required: ['text'],
  additionalProperties: false,
} as const;

/**
 * The spec gives opening a thread no 422: its fields are free text. What the
 * store cannot hold is replaced (U+FFFD), so a project, environment or agent
 * that could never exist is the 404 of any unknown name, and a long page is
 * cut rather than refused. Wrong types and unknown fields stay a 422.
 */
const freeTextOpenThread: preValidationHookHandler = async (request) => {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  if (typeof fields.page === 'string') fields.page = fields.page.slice(0, MAX_PAGE);
  // After the cut, which may split a surrogate pair.
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') fields[name] = replaceUnstorable(value).text;
  }
};

export const assistantRoutes: RoutePlugin<{ services: Services }> = async (app, { services }) => {
  const { assistant } = services;
  const tags = ['assistant'];

  app.get(
    '/assistant/status',
    { schema: { operationId: 'getAssistantStatus', summary: 'Whether the assistant is set up, and when not, the sentence that says why', tags, response: { 200: assistantStatusSchema, ...errorResponses(401) } } },
    async () => assistant.status(),
  );

  app.get(
    '/assistant/threads',
    {
      schema: {
        operationId: 'listThreads',
        summary: "This operator's threads, newest first, with their messages and proposals",
        description: `Every thread of this operator. Paging is for those who ask: \`limit\` (at most ${MAX_THREADS}) threads a page; for the next page, pass the id of the last thread as \`before\`.`,
        tags,
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: MAX_THREADS, description: 'How many threads at most; every one when absent.' },
            before: { type: 'string', maxLength: 100, description: 'The id of the last thread of the page before: only older threads follow.' },
          },
        },
        response: { 200: { type: 'array', items: threadResponseSchema }, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => assistant.list(operatorOf(request), request.query),
  );

  app.post(
    '/assistant/threads',
    {
      preValidation: freeTextOpenThread,
      schema: {
        operationId: 'openThread',
        summary: 'Open a thread on the panel’s project and environment, which fill in what the model leaves out',
        tags,
        body: openThreadBodySchema,
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such project'], 422, 503) },
      },
    },
    async (request) => assistant.open(operatorOf(request), request.body ?? {}),
  );

  app.get(
    '/assistant/threads/:id',
    { schema: { operationId: 'getThread', summary: 'One conversation with its messages and proposals', tags, params: threadParams, response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread']) } } },
    async (request) => assistant.view(operatorOf(request), request.params.id),
  );

  app.delete(
    '/assistant/threads/:id',
    {
      schema: {
        operationId: 'deleteThread',
        summary: 'Delete a thread, and forget every secret value parked for it',
        tags,
        params: threadParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, [404, 'No such thread']) },
      },
    },
    async (request, reply) => {
      await assistant.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/assistant/threads/:id',
    {
      schema: {
        operationId: 'renameThread',
        summary: 'Rename a thread (beyond the spec: for the console)',
        description: `Gives the thread the title the operator typed: spaces collapsed, 1 to ${TITLE_MAX} characters. The list keeps its order: \`updated_at\` does not move.`,
        tags,
        params: threadParams,
        body: {
          type: 'object',
          properties: { title: { type: 'string', description: `The new title, 1 to ${TITLE_MAX} characters once its spaces are collapsed.` } },
          required: ['title'],
          additionalProperties: false,
        },
        response: { 200: threadResponseSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => assistant.rename(operatorOf(request), request.params.id, request.body.title),
  );

  app.put(
    '/assistant/threads/:id/agent-options',
    {
      schema: {
        operationId: 'chooseAgentOption',
        summary: "Choose one of the agent's options: a mode, or a config option's value (beyond the spec: for the console)",
        description:
          "Among what the agent's session offers (`agent_options` on the thread): shown at once, applied at the next turn's start. 409 for the built-in assistant or before the agent's session first opened; 422 for what it does not offer, or a value that would let it act without asking (the sentence says so).",
        tags,
        params: threadParams,
        body: agentChoiceSchema,
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread'], 409, 422) },
      },
    },
    async (request) => assistant.chooseAgentOption(operatorOf(request), request.params.id, request.body),
  );

  app.post(
    '/assistant/threads/:id/questions/:question_id',
    {
      schema: {
        operationId: 'answerAgentQuestion',
        summary: "Answer or decline the question the thread's agent asks in its running turn (beyond the spec: for the console)",
        description:
          "The question comes as a `question` event of the turn (GET …/events). `accept` carries a value for each field, as its form says (422 otherwise); `decline` carries none. 403 for a viewer of the thread's project; 409 once the question no longer waits (answered, declined, or gone with its turn).",
        tags,
        params: {
          type: 'object',
          properties: { id: { type: 'string', maxLength: 100 }, question_id: { type: 'string', maxLength: 100 } },
          required: ['id', 'question_id'],
        },
        body: questionAnswerSchema,
        response: {
          200: {
            type: 'object',
            properties: { id: { type: 'string', format: 'uuid' }, outcome: { enum: ['accepted', 'declined'] } },
            required: ['id', 'outcome'],
            additionalProperties: false,
          },
          ...errorResponses(401, 403, [404, 'No such thread or question'], 409, 422),
        },
      },
    },
    async (request) => assistant.answerQuestion(operatorOf(request), request.params.id, request.params.question_id, request.body),
  );

  app.get(
    '/assistant/threads/:id/usage',
    {
      schema: {
        operationId: 'getThreadUsage',
        summary: "What the model cost this thread, as the model's API reported it (beyond the spec: for the console)",
        tags,
        params: threadParams,
        response: { 200: usageSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => assistant.usage(operatorOf(request), request.params.id),
  );

  app.post(
    '/assistant/threads/:id/messages',
    {
      config: { oversizedBodyIsInvalid: `body.text must NOT have more than ${MAX_MESSAGE} characters` },
      schema: {
        operationId: 'sendMessage',
        summary: 'Send a message and get the answer, with any changes the assistant proposes',
        tags,
        params: threadParams,
        body: postMessageBodySchema,
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread'], [409, 'A proposal is still waiting for a decision'], [422, 'Empty or oversized text'], [429, 'Too many assistant messages from this operator'], [503, 'No model is configured, or the provider did not answer']) },
      },
    },
    async (request) => {
      if (request.body.text.trim() === '') throw invalid('the message is empty; type what you want the assistant to do');
      return assistant.send(operatorOf(request), request.params.id, request.body.text);
    },
  );

  app.post(
    '/assistant/threads/:id/proposals/accept-all',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'acceptAllProposals',
        summary: 'Accept every waiting proposal of the newest answer, in order, stopping at the first that fails',
        description: `${WRITE_GATE} Beyond the spec, an optional body names the proposals the operator saw: if the newest answer waits on any other, or one of them no longer waits, nothing is accepted (409, saying what changed). Without a body it accepts what waits, as the spec says. It stops too at a proposal that waits for approvals (requested), leaving the rest waiting.`,
        tags,
        headers: idempotencyHeaders,
        params: threadParams,
        body: {
          type: 'object',
          properties: {
            proposals: { type: 'array', maxItems: MAX_SEEN, items: { type: 'string', maxLength: 100 }, description: 'The ids of the waiting proposals the operator saw.' },
          },
          additionalProperties: false,
        },
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread'], 409, 422, 503) },
      },
    },
    async (request) => assistant.acceptAll(operatorOf(request), request.params.id, { seen: request.body?.proposals, beforeWrite: request.beforeWrite }),
  );

  app.post(
    '/assistant/threads/:id/proposals/:proposal_id/accept',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'acceptProposal',
        summary: 'Accept one proposal, which carries out the change with your permissions',
        description: `${WRITE_GATE} Beyond the spec, an optional body carries the proposal's \`fingerprint\` as the operator saw it: another is refused (409).`,
        tags,
        headers: idempotencyHeaders,
        params: proposalParams,
        body: {
          type: 'object',
          properties: { fingerprint: { type: 'string', maxLength: 200, description: "The proposal's fingerprint as shown." } },
          additionalProperties: false,
        },
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread or proposal'], [409, 'Already decided, or no longer executable'], 422, 503) },
      },
    },
    async (request) =>
      assistant.accept(operatorOf(request), request.params.id, request.params.proposal_id, { seen: request.body?.fingerprint, beforeWrite: request.beforeWrite }),
  );

  app.post(
    '/assistant/threads/:id/proposals/:proposal_id/reject',
    {
      schema: {
        operationId: 'rejectProposal',
        summary: 'Reject one proposal. Nothing changes',
        tags,
        params: proposalParams,
        response: { 200: threadResponseSchema, ...errorResponses(401, [404, 'No such thread or proposal'], [409, 'Already decided']) },
      },
    },
    async (request) => assistant.reject(actorOf(request), request.params.id, request.params.proposal_id),
  );
};

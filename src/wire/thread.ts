// ThreadResponse, as spec/assistant-and-tools.md writes it, with what Aion
// adds: the agent holding the thread, what its session offers to be set, and
// the turn running now.
import type { FromSchema } from 'json-schema-to-ts';
import { agentOptionsSchema } from './agent-options.js';
import { threadMessageSchema } from './message.js';
import { proposalResponseSchema } from './proposal.js';

const threadTurnSchema = {
  type: ['object', 'null'],
  description: "The thread's turn running now, which the console resumes following; null when none runs.",
  properties: {
    id: { type: 'string', format: 'uuid' },
    started_at: { type: 'string', format: 'date-time' },
    agent: { type: ['string', 'null'], description: 'The ACP agent answering; null for the built-in assistant.' },
    cancelling: { type: 'boolean', description: 'A cancel was asked and the turn has not ended yet.' },
  },
  required: ['id', 'started_at', 'agent', 'cancelling'],
  additionalProperties: false,
} as const;

export const threadResponseSchema = {
  type: 'object',
  properties: {
    agent: { type: ['string', 'null'], description: 'The ACP agent holding the thread; null for the built-in assistant.' },
    agent_options: agentOptionsSchema,
    created_at: { type: 'string' },
    environment: { type: 'string' },
    id: { type: 'string', format: 'uuid' },
    messages: { type: 'array', items: threadMessageSchema },
    page: { type: 'string' },
    project: { type: ['string', 'null'] },
    proposals: { type: 'array', items: proposalResponseSchema },
    role: { type: 'string', description: "The caller's role name in this thread's project." },
    state: { type: 'string', enum: ['idle', 'waiting', 'refused'] },
    stale_waiting: {
      type: 'integer',
      minimum: 0,
      description:
        "Beyond the spec: how many of the proposals waiting for the operator can no longer run as shown (each says why in its `stale_reason`); equal to the waiting ones' count, the conversation waits only on proposals to reject or ask again.",
    },
    title: { type: 'string' },
    turn: threadTurnSchema,
    updated_at: { type: 'string' },
  },
  required: ['agent', 'agent_options', 'created_at', 'environment', 'id', 'messages', 'page', 'proposals', 'role', 'stale_waiting', 'state', 'title', 'turn', 'updated_at'],
  additionalProperties: false,
} as const;

export type ThreadResponse = FromSchema<typeof threadResponseSchema>;
export type ThreadState = ThreadResponse['state'];
export type ThreadTurn = NonNullable<ThreadResponse['turn']>;

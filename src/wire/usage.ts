// GET /api/v1/assistant/threads/{id}/usage: a thread's model token totals,
// and, for a thread an ACP agent holds, what that agent reported.
import type { FromSchema } from 'json-schema-to-ts';

const tokenCount = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
const reportedCount = (description: string) => ({ type: ['integer', 'null'], minimum: 0, description: `${description} Null: not reported.` }) as const;

const agentUsageSchema = {
  type: ['object', 'null'],
  description:
    "What the ACP agent holding the thread reported of its own model (its `usage_update`s and any usage its prompt responses carried), summed over its turns; null for the built-in assistant. A field the agent never reported is null, never 0.",
  properties: {
    name: { type: 'string', description: 'The agent.' },
    reported_turns: tokenCount('Turns for which the agent reported anything.'),
    input_tokens: reportedCount('Input tokens, as its prompt responses reported them.'),
    output_tokens: reportedCount('Output tokens.'),
    thought_tokens: reportedCount('Reasoning tokens.'),
    cache_read_input_tokens: reportedCount('Input tokens read from its prompt cache.'),
    cache_creation_input_tokens: reportedCount('Input tokens written to its prompt cache.'),
    context: {
      type: ['object', 'null'],
      description: 'Tokens in its context and the size of its context window, as it last reported them; null: not reported.',
      properties: { used: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 0 } },
      required: ['used', 'size'],
      additionalProperties: false,
    },
    cost: {
      type: ['array', 'null'],
      description: 'What its turns cost, a total per currency (its sessions report cumulative costs; each turn counts what it added); null: not reported.',
      items: {
        type: 'object',
        properties: { amount: { type: 'number', minimum: 0 }, currency: { type: 'string' } },
        required: ['amount', 'currency'],
        additionalProperties: false,
      },
    },
  },
  required: ['name', 'reported_turns', 'input_tokens', 'output_tokens', 'thought_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'context', 'cost'],
  additionalProperties: false,
} as const;

export const usageSchema = {
  type: 'object',
  properties: {
    calls: { type: 'integer', minimum: 0, description: 'Model calls Aion made for this thread, by every turn, failed ones included (none for a thread an agent holds: it calls its own model).' },
    input_tokens: tokenCount('Input tokens billed at the input price (neither read from nor written to the prompt cache).'),
    output_tokens: tokenCount('Output tokens.'),
    cache_creation_input_tokens: tokenCount('Input tokens written to the prompt cache.'),
    cache_read_input_tokens: tokenCount('Input tokens served from the prompt cache.'),
    agent: agentUsageSchema,
  },
  required: ['calls', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'agent'],
  additionalProperties: false,
} as const;

export type Usage = FromSchema<typeof usageSchema>;
export type AgentUsageTotals = NonNullable<Usage['agent']>;
/** What an agent reported, without whose it is. */
export type AgentUsage = Omit<AgentUsageTotals, 'name' | 'reported_turns'>;

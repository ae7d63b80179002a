// The `anthropic` provider through the real @anthropic-ai/sdk client, against
// a local Messages API on 127.0.0.1 (no test reaches the network).
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider, type AnthropicOptions } from '../../../src/assistant/providers/anthropic.js';
import { trimHistory } from '../../../src/assistant/providers/history.js';
import type { ModelMessage, ModelRequest, ProviderError } from '../../../src/assistant/providers/types.js';
import { apiError, message, startMessagesApi, type MessagesApi, type Responder } from './messages-api-server.js';
import { providerFailure } from './provider-failure.js';

const API_KEY = 'sk-ant-api03-TESTKEY-never-in-an-error-0123456789';

const request: ModelRequest = {
  system: 'You help operators of project shop, environment staging.',
  messages: [{ role: 'user', content: 'What is deployed?' }],
  tools: [
    { name: 'list_documents', description: 'List documents.', input_schema: { type: 'object', properties: {} } },
    { name: 'read_document', description: 'Read a document.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  ],
};

let api: MessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function providerAnswering(respond: Responder, options: Partial<AnthropicOptions> = {}) {
  api = await startMessagesApi(respond);
  return createAnthropicProvider({ apiKey: API_KEY, model: 'claude-test', baseURL: api.baseURL, maxRetries: 0, ...options });
}

describe('anthropic provider: requests', () => {
  it('sends model, max_tokens, the system prompt and the tools marked for prompt caching, and the messages in their canonical form', async () => {
    const long = 'x'.repeat(400);
    const history: ModelMessage[] = [
      { role: 'user', content: `old question ${long}` },
      { role: 'assistant', content: [{ type: 'text', text: `old answer ${long}` }] },
      { role: 'user', content: 'Read app.yaml' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_document', input: { path: 'app.yaml' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"text":"a: 1"}' }] },
    ];
    const trimmed = trimHistory(history, 100);
    expect(trimmed).toEqual(history.slice(2));
    const provider = await providerAnswering(() => message([{ type: 'text', text: 'a is 1' }], 'end_turn'));

    await provider.complete({ ...request, messages: trimmed });

    expect(api?.requests).toHaveLength(1);
    const [sent] = api?.requests ?? [];
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
      tools: [
        { name: 'list_documents', description: 'List documents.', input_schema: { type: 'object', properties: {} } },
        { ...request.tools[1], cache_control: { type: 'ephemeral' } },
      ],
      // Blocks always as arrays; marks on the newest message and on the one before the newest answer.
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Read app.yaml', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_document', input: { path: 'app.yaml' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"text":"a: 1"}', cache_control: { type: 'ephemeral' } }] },
      ],
    });
  });

  it('authenticates with the key', async () => {
    const provider = await providerAnswering(() => message([{ type: 'text', text: 'hi' }], 'end_turn'));
    await provider.complete(request);
    const headers = api?.requests[0]?.headers ?? {};
    // This SDK sends it as a bearer token; older ones used x-api-key.
    expect(headers.authorization === `Bearer ${API_KEY}` || headers['x-api-key'] === API_KEY).toBe(true);
  });

  it('leaves out an empty system prompt and an empty tool list, which the API would refuse', async () => {
    const provider = await providerAnswering(() => message([{ type: 'text', text: 'hi' }], 'end_turn'));
    await provider.complete({ system: '', messages: request.messages, tools: [] });
    const body = api?.requests[0]?.body ?? {};
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('tools');
  });
});

describe('anthropic provider: answers', () => {
  it('maps text and tool_use blocks, ignores others, and passes stop_reason through', async () => {
    const provider = await providerAnswering(() =>
      message(
        [
          { type: 'thinking', thinking: 'let me look', signature: 'sig' },
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_01', name: 'read_document', input: { path: 'app.yaml' } },
          { type: 'tool_use', id: 'toolu_02', name: 'list_documents', input: {} },
        ],
        'tool_use',
      ),
    );
    await expect(provider.complete(request)).resolves.toEqual({
      content: [
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read_document', input: { path: 'app.yaml' } },
        { type: 'tool_use', id: 'toolu_02', name: 'list_documents', input: {} },
      ],
      stop_reason: 'tool_use',
      usage: { model: 'claude-test', input_tokens: 12, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('passes a refusal through', async () => {
    const provider = await providerAnswering(() => message([], 'refusal'));
    await expect(provider.complete(request)).resolves.toMatchObject({ content: [], stop_reason: 'refusal' });
  });

  it('retries once by default, honouring retry-after-ms', async () => {
    const provider = await providerAnswering(
      (_request, attempt) =>
        attempt === 1 ? apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after-ms': '5' }) : message([{ type: 'text', text: 'ok' }], 'end_turn'),
      { maxRetries: undefined },
    );
    await expect(provider.complete(request)).resolves.toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(api?.requests).toHaveLength(2);
  });
});

describe('anthropic provider: failures', () => {
  it.each([
    [401, 'authentication_error', 'invalid x-api-key', 'Anthropic refused the API key (HTTP 401); check ANTHROPIC_API_KEY'],
    [403, 'permission_error', 'not allowed', 'Anthropic refused the API key (HTTP 403); check ANTHROPIC_API_KEY'],
    [429, 'rate_limit_error', 'slow down', 'rate limited by Anthropic; try again in a moment'],
    [529, 'overloaded_error', 'Overloaded', 'Anthropic is overloaded; try again in a moment'],
    [500, 'api_error', 'Internal server error', 'the Anthropic API failed (HTTP 500); try again in a moment'],
    [503, 'overloaded_error', 'Overloaded', 'Anthropic is overloaded; try again in a moment'],
    [404, 'not_found_error', 'model: claude-nope', 'Anthropic refused the request (HTTP 404): model: claude-nope'],
  ])('answers %i with a sentence', async (status, type, text, sentence) => {
    const provider = await providerAnswering(() => apiError(status, type, text));
    const error = await providerFailure(provider.complete(request));
    expect(error.message).toBe(sentence);
    expect(api?.requests).toHaveLength(1);
  });

  it('says it gave up after the retries', async () => {
    const provider = await providerAnswering(() => apiError(429, 'rate_limit_error', 'slow down', { 'retry-after-ms': '1' }), { maxRetries: 2 });
    const error = await providerFailure(provider.complete(request));
    expect(error.message).toBe('rate limited by Anthropic; try again in a moment');
    expect(api?.requests).toHaveLength(3);
  });

  it('times out when the API never answers', async () => {
    const provider = await providerAnswering(() => 'hang', { timeoutMs: 150 });
    const started = Date.now();
    const error = await providerFailure(provider.complete(request));
    expect(error.message).toBe('Anthropic did not answer within 0.15 s; try again in a moment');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says which host it could not reach', async () => {
    const closed = await startMessagesApi(() => 'hang');
    await closed.close();
    const provider = createAnthropicProvider({ apiKey: API_KEY, model: 'claude-test', baseURL: closed.baseURL, maxRetries: 0 });
    const error = await providerFailure(provider.complete(request));
    expect(error.message).toBe(`could not reach the Anthropic API at ${new URL(closed.baseURL).host}; check the network and ANTHROPIC_BASE_URL`);
  });

  it('stops when the turn is aborted', async () => {
    const provider = await providerAnswering(() => 'hang');
    const controller = new AbortController();
    const pending = provider.complete(request, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const error = await providerFailure(pending);
    expect(error.message).toBe('the request to Anthropic was cancelled');
  });

  it('never puts the API key in an error message, even when the API echoes it', async () => {
    const echo = `x-api-key ${API_KEY} is not valid for this model`;
    for (const [status, type] of [[401, 'authentication_error'], [400, 'invalid_request_error'], [429, 'rate_limit_error'], [529, 'overloaded_error'], [500, 'api_error']] as const) {
      const provider = await providerAnswering(() => apiError(status, type, echo));
      const error = await providerFailure(provider.complete(request));
      expect(error.message).not.toContain(API_KEY);
      expect(String(error)).not.toContain(API_KEY);
      await api?.close();
      api = undefined;
    }
  });

  it('keeps the API key out of the whole error, cause included, when the API does not echo it', async () => {
    const errors: ProviderError[] = [];
    for (const [respond, options] of [
      [() => apiError(401, 'authentication_error', 'invalid x-api-key'), {}],
      [() => 'hang', { timeoutMs: 50 }],
    ] satisfies Array<[Responder, Partial<AnthropicOptions>]>) {
      const provider = await providerAnswering(respond, options);
      errors.push(await providerFailure(provider.complete(request)));
      await api?.close();
      api = undefined;
    }
    const closed = await startMessagesApi(() => 'hang');
    await closed.close();
    const unreachable = createAnthropicProvider({ apiKey: API_KEY, model: 'claude-test', baseURL: closed.baseURL, maxRetries: 0 });
    errors.push(await providerFailure(unreachable.complete(request)));
    for (const error of errors) expect(inspect(error, { depth: Infinity })).not.toContain(API_KEY);
  });

  it('redacts an echoed key from the API message it quotes', async () => {
    const provider = await providerAnswering(() => apiError(400, 'invalid_request_error', `bad key ${API_KEY}`));
    const error = await providerFailure(provider.complete(request));
    expect(error.message).toBe('Anthropic refused the request (HTTP 400): bad key [redacted]');
  });
});

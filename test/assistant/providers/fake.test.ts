// The `fake` model's grammar (DESIGN.md §4), which the assistant's tests and the demo rely on.
import { describe, expect, it } from 'vitest';
import { createFakeProvider, FAKE_REFUSAL } from '../../../src/assistant/providers/fake.js';
import type { ModelMessage, ModelResponse, ToolResultBlock } from '../../../src/assistant/providers/types.js';
import { providerFailure } from './provider-failure.js';

const fake = createFakeProvider();

function ask(messages: ModelMessage[], signal?: AbortSignal): Promise<ModelResponse> {
  return fake.complete({ system: 'scope and rules', messages, tools: [] }, signal);
}

function say(text: string): Promise<ModelResponse> {
  return ask([{ role: 'user', content: text }]);
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const call = (id: number, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_use' as const, id: `toolu_fake_${id}`, name, input });

describe('fake model: plain messages', () => {
  it('is named fake', () => {
    expect(fake.name).toBe('fake');
  });

  it('echoes a message without commands as one block', async () => {
    await expect(say('hello\nthere')).resolves.toEqual({ content: [text('fake: hello\nthere')], stop_reason: 'end_turn' });
  });

  it('echoes only the first 200 characters, without cutting a character in half', async () => {
    const long = '😀'.repeat(150) + 'a'.repeat(150);
    const answer = await say(long);
    expect(answer.content).toEqual([text(`fake: ${'😀'.repeat(150)}${'a'.repeat(50)}`)]);
  });

  it('reads a message made of text blocks', async () => {
    const answer = await ask([{ role: 'user', content: [text('/say one'), text('/say two')] }]);
    expect(answer.content).toEqual([text('one'), text('two')]);
  });

  it('reads the newest user message with text, skipping tool-result-only ones', async () => {
    const answer = await ask([
      { role: 'user', content: '/say old' },
      { role: 'assistant', content: [text('old')] },
      { role: 'user', content: '/say newest' },
      { role: 'assistant', content: [call(1, 'list_documents')] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_1', content: '{}' }] },
      { role: 'assistant', content: [text('list_documents: ok')] },
    ]);
    expect(answer.content).toEqual([text('newest')]);
  });

  it('treats an unknown slash word as prose', async () => {
    await expect(say('/deploy now')).resolves.toEqual({ content: [text('fake: /deploy now')], stop_reason: 'end_turn' });
  });

  it('answers an empty history with an empty echo', async () => {
    await expect(ask([])).resolves.toEqual({ content: [text('fake: ')], stop_reason: 'end_turn' });
  });
});

describe('fake model: /tool and /say', () => {
  it('calls a tool with its JSON input', async () => {
    await expect(say('/tool read_document {"path": "app.yaml", "at": {"line": 3}}')).resolves.toEqual({
      content: [call(1, 'read_document', { path: 'app.yaml', at: { line: 3 } })],
      stop_reason: 'tool_use',
    });
  });

  it('calls a tool with {} when the input is omitted', async () => {
    await expect(say('/tool list_documents')).resolves.toEqual({ content: [call(1, 'list_documents')], stop_reason: 'tool_use' });
  });

  it('makes several calls and says several things, in order, with ids unique in the request', async () => {
    const answer = await say(['/say Looking.', '/tool list_documents', '/tool read_document {"path":"a.yaml"}', '/say Then:', '/tool read_document {"path":"b.yaml"}'].join('\n'));
    expect(answer).toEqual({
      content: [text('Looking.'), call(1, 'list_documents'), call(2, 'read_document', { path: 'a.yaml' }), text('Then:'), call(3, 'read_document', { path: 'b.yaml' })],
      stop_reason: 'tool_use',
    });
  });

  it('answers the same request the same way', async () => {
    const script = '/tool list_documents\n/say done';
    expect(await say(script)).toEqual(await say(script));
  });

  it('numbers its calls after those already in the history', async () => {
    const answer = await ask([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [call(1, 'list_documents'), call(2, 'list_environments')] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_1', content: '{}' }, { type: 'tool_result', tool_use_id: 'toolu_fake_2', content: '{}' }] },
      { role: 'assistant', content: [text('list_documents: ok\nlist_environments: ok')] },
      { role: 'user', content: '/tool read_document {"path":"app.yaml"}' },
    ]);
    expect(answer.content).toEqual([call(3, 'read_document', { path: 'app.yaml' })]);
  });

  it('says text with /say and ends the turn', async () => {
    await expect(say('/say All good.')).resolves.toEqual({ content: [text('All good.')], stop_reason: 'end_turn' });
  });

  it('ignores prose around commands, blank lines, indentation and CRLF', async () => {
    const answer = await say('Please check:\r\n\r\n   /tool list_documents  \r\nthanks!\r\n\t/say ok');
    expect(answer.content).toEqual([call(1, 'list_documents'), text('ok')]);
  });
});

describe('fake model: lines it cannot read', () => {
  it.each([
    ['/tool read_document {"path":', 'fake: /tool read_document needs a JSON object as its input; got {"path":'],
    ['/tool read_document [1, 2]', 'fake: /tool read_document needs a JSON object as its input; got [1, 2]'],
    ['/tool read_document null', 'fake: /tool read_document needs a JSON object as its input; got null'],
    ['/tool', 'fake: /tool needs a tool name'],
    ['/say', 'fake: /say needs text'],
    ['/slow soon', 'fake: /slow needs milliseconds, a whole number below 1000000000; got "soon"'],
    ['/slow 1000000000', 'fake: /slow needs milliseconds, a whole number below 1000000000; got "1000000000"'],
  ])('answers %j with a sentence saying why', async (line, sentence) => {
    await expect(say(line)).resolves.toEqual({ content: [text(sentence)], stop_reason: 'end_turn' });
  });

  it('still runs the other lines', async () => {
    const answer = await say('/tool list_documents\n/tool read_document {oops}\n/tool read_document {"path":"a"}');
    expect(answer).toEqual({
      content: [call(1, 'list_documents'), text('fake: /tool read_document needs a JSON object as its input; got {oops}'), call(2, 'read_document', { path: 'a' })],
      stop_reason: 'tool_use',
    });
  });
});

describe('fake model: /refuse and /fail', () => {
  it('refuses with a short text and stop_reason refusal', async () => {
    await expect(say('/refuse')).resolves.toEqual({ content: [text(FAKE_REFUSAL)], stop_reason: 'refusal' });
  });

  it('refuses instead of anything else the message asks', async () => {
    await expect(say('/tool delete_document {"path":"app.yaml"}\n/say sure\n/refuse')).resolves.toEqual({ content: [text(FAKE_REFUSAL)], stop_reason: 'refusal' });
  });

  it('fails with a ProviderError that says so', async () => {
    const error = await providerFailure(say('/say never\n/fail'));
    expect(error.message).toBe('the fake model failed, as /fail asked');
  });

  it('fails rather than refuses when asked both', async () => {
    await providerFailure(say('/refuse\n/fail'));
  });
});

describe('fake model: /slow', () => {
  it('answers after the given milliseconds', async () => {
    const started = performance.now();
    const answer = await say('/slow 80\n/say late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    expect(answer.content).toEqual([text('late')]);
  });

  it('adds several delays up', async () => {
    const started = performance.now();
    await say('/slow 40\n/slow 40\n/say late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('echoes the message when /slow is all it says', async () => {
    await expect(say('/slow 1')).resolves.toEqual({ content: [text('fake: /slow 1')], stop_reason: 'end_turn' });
  });

  it('waits before failing', async () => {
    const started = performance.now();
    await providerFailure(say('/fail\n/slow 60'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('stops waiting when aborted, with a ProviderError', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = ask([{ role: 'user', content: '/slow 60000\n/say never' }], controller.signal);
    setTimeout(() => controller.abort(), 30);
    const error = await providerFailure(pending);
    expect(error.message).toBe('the fake model was cancelled before it answered');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('does not answer a request already aborted', async () => {
    const error = await providerFailure(ask([{ role: 'user', content: 'hello' }], AbortSignal.abort()));
    expect(error.message).toBe('the fake model was cancelled before it answered');
  });
});

describe('fake model: tool results', () => {
  const calls: ModelMessage[] = [
    { role: 'user', content: '/tool read_document {"path":"app.yaml"}\n/tool set_secret {"name":"X"}\n/tool deploy\n/tool list_documents\n/tool delete_document\n/tool read_audit' },
    {
      role: 'assistant',
      content: [call(1, 'read_document', { path: 'app.yaml' }), call(2, 'set_secret', { name: 'X' }), call(3, 'deploy'), call(4, 'list_documents'), call(5, 'delete_document'), call(6, 'read_audit')],
    },
  ];
  const result = (id: number, content: string, isError?: boolean): ToolResultBlock => ({
    type: 'tool_result',
    tool_use_id: `toolu_fake_${id}`,
    content,
    ...(isError === undefined ? {} : { is_error: isError }),
  });

  it('answers once more, a line per call in order: ok, error or proposed', async () => {
    const answer = await ask([
      ...calls,
      {
        role: 'user',
        content: [
          result(1, '{"path":"app.yaml","text":"a: 1"}', false),
          result(2, '{"proposed":true,"proposal":"prop_1","status":"pending","tool":"set_secret"}'),
          result(3, '{"error":"production is protected: deploying there needs the operator role"}', true),
          result(4, '{"error":"the project is gone"}'),
          result(5, '{"proposal":"prop_2"}'),
          result(6, 'the executor crashed', true),
        ],
      },
    ]);
    expect(answer).toEqual({
      content: [
        text(
          [
            'read_document: ok',
            'set_secret: proposed',
            'deploy: error: production is protected: deploying there needs the operator role',
            'list_documents: error: the project is gone',
            'delete_document: proposed',
            'read_audit: error: the executor crashed',
          ].join('\n'),
        ),
      ],
      stop_reason: 'end_turn',
    });
  });

  it('names each call by matching tool_use_id in the previous assistant message, whatever the order', async () => {
    const answer = await ask([...calls, { role: 'user', content: [result(3, '{}'), result(1, '{}'), result(9, '{}')] }]);
    expect(answer.content).toEqual([text('deploy: ok\nread_document: ok\nunknown tool toolu_fake_9: ok')]);
  });

  it('answers the results rather than the commands of the message that asked for them', async () => {
    const answer = await ask([...calls, { role: 'user', content: [result(1, '{}')] }]);
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.content).toHaveLength(1);
  });
});

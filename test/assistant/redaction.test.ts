// Credentials an answer says are redacted before they are stored or streamed,
// as an operator's are parked: an agent echoing its own session credential
// (read back from the shared document here) leaves no token in the stored
// thread, GET thread or the turn's events, even when the token comes split
// between chunks; built-in answers are stored redacted, text and blocks.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentAnswer } from '../../src/acp/answer.js';
import { findOperator } from '../../src/access/operators.js';
import { generateToken } from '../../src/access/tokens.js';
import type { TurnEvent } from '../../src/wire/turn-event.js';
import { storeAnswer } from '../../src/assistant/proposing.js';
import { CredentialFilter, redactCredentials } from '../../src/assistant/redaction.js';
import { findThread } from '../../src/assistant/threads.js';
import { messages, turnEvents } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { followTurn } from '../helpers/sse.js';
import { message, startMessagesApi, type MessagesApi } from './providers/messages-api-server.js';

const deltas = (events: TurnEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');

describe('an agent answer', () => {
  const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text } });

  it('streams no credential, even one split between chunks, and loses no other text', () => {
    const token = generateToken('session');
    const events: TurnEvent[] = [];
    const answer = new AgentAnswer((e) => events.push(e), 1 << 20);
    const said = `My credential is ${token}, and an operator's is ${generateToken('operator')}.\nDone`;
    // Cut into pieces of 7 characters: every token crosses several chunks.
    for (let at = 0; at < said.length; at += 7) answer.apply(chunk(said.slice(at, at + 7)));
    const streamedBeforeEnd = deltas(events);
    expect(streamedBeforeEnd).not.toMatch(/aion_/);
    expect(streamedBeforeEnd).toContain('My credential is [credential], and');
    expect(answer.text()).toBe(said);
    // At the end the stream shows what it held back: all of the answer, redacted.
    expect(deltas(events)).toBe(redactCredentials(said));
    expect(deltas(events)).toBe("My credential is [credential], and an operator's is [credential].\nDone");
  });

  it('shows the text it held back before its next event, so the order stays', () => {
    const events: TurnEvent[] = [];
    const answer = new AgentAnswer((e) => events.push(e), 1 << 20);
    answer.apply(chunk('Reading app'));
    answer.apply({ sessionUpdate: 'plan', entries: [{ content: `use ${generateToken('service')}`, priority: 'medium', status: 'pending' }] });
    answer.apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: `curl -H "Bearer ${generateToken('session')}"`, kind: 'fetch', status: 'pending' });
    // 'app' waited for the word's end; the plan's arrival showed it first.
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'plan', 'tool_call']);
    expect(events.slice(0, 2)).toEqual([
      { type: 'text', delta: 'Reading ' },
      { type: 'text', delta: 'app' },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/aion_/);
    expect(JSON.stringify(answer.blocks())).not.toMatch(/aion_/);
  });

  it('holds back no more than a bounded word', () => {
    const filter = new CredentialFilter();
    expect(filter.push('x'.repeat(5000))).toBe('x'.repeat(5000));
    expect(filter.push('abc')).toBe('');
    expect(filter.release()).toBe('abc');
  });
});

describe('through the server', () => {
  let server: TestServer;
  let ada: Client;

  beforeAll(async () => {
    server = await startTestServer('pglite', { demo: true });
    ada = client(server.url, server.demoTokens.ada ?? '');
  });
  afterAll(() => server?.stop());

  const storedTexts = async (thread: string) =>
    JSON.stringify(await server.services.db.select({ text: messages.text, blocks: messages.blocks }).from(messages).where(eq(messages.threadId, thread)));

  it("an agent echoing the thread's session credential leaves it in no stored answer, GET thread or event", async () => {
    const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' })).body as { id: string }).id;
    const { token } = (await ada.post(`/api/v1/assistant/threads/${thread}/session-credential`)).body as { token: string };
    // The shared buffer holds it (the operator pasted it there); the agent reads it back and says it.
    expect((await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document: { path: 'app.yaml', text: `token: ${token}\n` } })).status).toBe(200);
    const events = followTurn(server.url, server.demoTokens.ada ?? '', thread);
    await events.open;
    const answered = await ada.post(`/api/v1/assistant/threads/${thread}/messages`, { text: '/read app.yaml' });
    expect(answered.status, answered.text).toBe(200);

    await events.done;
    const stream = events.raw();
    expect(stream).toContain('read: token: [credential]');
    expect(stream).not.toContain(token);
    const got = await ada.get(`/api/v1/assistant/threads/${thread}`);
    expect(got.text).toContain('read: token: [credential]');
    expect(got.text).not.toContain(token);
    expect(answered.text).not.toContain(token);
    expect(await storedTexts(thread)).not.toContain(token);
    // The turn's events as stored for every server, and the log.
    const stored = JSON.stringify(await server.services.db.select({ event: turnEvents.event }).from(turnEvents));
    expect(stored).toContain('read: token: [credential]');
    expect(stored).not.toContain(token);
    expect(server.logs.join('\n')).not.toContain(token);
  });

  it('a built-in answer is stored redacted, its text and its blocks', async () => {
    const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
    const token = generateToken('operator');
    const record = await findThread(server.services.db, await findOperator(server.services.db, 'ada'), thread);
    const said = `Use ${token} to sign in.`;
    await storeAnswer(
      server.services,
      record,
      { text: said, blocks: [{ role: 'assistant', content: [{ type: 'text', text: said }] }], stopReason: 'end_turn' },
      [],
      null,
    );
    const got = await ada.get(`/api/v1/assistant/threads/${thread}`);
    expect(got.text).toContain('Use [credential] to sign in.');
    expect(got.text).not.toContain(token);
    expect(await storedTexts(thread)).not.toContain(token);
  });
});

// The built-in assistant saying a credential (its model's words, from the
// stand-in Messages API on 127.0.0.1): redacted where it is stored, in the
// turn's events as stored for every server, over SSE, and in the log (issue 34).
describe('a credential the built-in model says', () => {
  let api: MessagesApi;
  let server: TestServer;
  let ada: Client;
  const token = generateToken('operator');

  beforeAll(async () => {
    api = await startMessagesApi(() => message([{ type: 'text', text: `Sign in with ${token} and you are done.` }], 'end_turn'));
    server = await startTestServer('pglite', {
      demo: true,
      env: { AION_MODEL: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test-key-for-redaction', ANTHROPIC_BASE_URL: api.baseURL, AION_ANTHROPIC_MODEL: 'claude-test' },
    });
    ada = client(server.url, server.demoTokens.ada ?? '');
  });
  afterAll(async () => {
    await server?.stop();
    await api?.close();
  });

  it('is redacted stored, streamed, over SSE and in the log', async () => {
    const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string }).id;
    const events = followTurn(server.url, server.demoTokens.ada ?? '', thread);
    await events.open;
    const answered = await ada.post(`/api/v1/assistant/threads/${thread}/messages`, { text: 'how do I sign in?' });
    expect(answered.status, answered.text).toBe(200);
    await events.done;
    const said = 'Sign in with [credential] and you are done.';
    const places: Record<string, string> = {
      stored: JSON.stringify(await server.services.db.select({ text: messages.text, blocks: messages.blocks }).from(messages).where(eq(messages.threadId, thread))),
      'GET thread': (await ada.get(`/api/v1/assistant/threads/${thread}`)).text,
      streamed: JSON.stringify(await server.services.db.select({ event: turnEvents.event }).from(turnEvents)),
      SSE: events.raw(),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text, where).not.toContain(token);
      expect(text, where).toContain(said);
    }
    expect(server.logs.join('\n')).not.toContain(token);
  });
});

// A turn on the embedded store, followed as the console follows it: from its
// first event when the follower comes late, after the last event it had with
// Last-Event-ID, the thread's `turn` while it runs, and the change stream
// that tells every tab what changed in the operator's threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { asSent, followTurn } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

let server: TestServer;
let ada: Client;
let adaToken: string;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true, env: { AION_MODEL: 'fake' } });
  adaToken = server.demoTokens.ada ?? '';
  ada = client(server.url, adaToken);
});
afterAll(() => server?.stop());

async function openThread(): Promise<string> {
  const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' });
  expect(opened.status).toBe(200);
  return (opened.body as ThreadResponse).id;
}

const view = async (id: string) => (await ada.get(`/api/v1/assistant/threads/${id}`)).body as ThreadResponse;

describe('following a turn', () => {
  it('replays a running turn from its first event to a follower that comes late, and says the turn in the thread', async () => {
    const id = await openThread();
    const answered = ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 1500\n/say one\n/tool set_secret {"name": "LATE", "value": "v"}' });
    await waitFor(async () => (await view(id)).turn !== null);
    const running = await view(id);
    expect(running.turn).toMatchObject({ agent: null, cancelling: false });
    expect(Date.parse(running.turn?.started_at ?? '')).not.toBeNaN();

    const late = followTurn(server.url, adaToken, id);
    const events = await late.done;
    expect(events.map((e) => e.type)).toEqual(['started', 'text', 'proposal', 'tool_call', 'text', 'ended']);
    // Ids name the turn and count its events, without a gap.
    expect(events.map((e) => e.id)).toEqual(events.map((_e, i) => `${running.turn?.id}:${i}`));
    expect((await answered).status).toBe(200);
    expect((await view(id)).turn).toBeNull();
  });

  it('resumes after the last event it had with Last-Event-ID, even once the turn has ended', async () => {
    const id = await openThread();
    const first = followTurn(server.url, adaToken, id);
    await first.open;
    expect((await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/say a\n/tool list_projects\n/say b' })).status).toBe(200);
    const all = await first.done;
    const resumed = await followTurn(server.url, adaToken, id, { lastEventId: all[1]?.id ?? '' }).done;
    expect(asSent(resumed)).toEqual(asSent(all.slice(2)));
  });

  it('starts afresh from a Last-Event-ID that is malformed or names another thread’s turn', async () => {
    const other = await openThread();
    const theirs = followTurn(server.url, adaToken, other);
    await theirs.open;
    await ada.post(`/api/v1/assistant/threads/${other}/messages`, { text: '/say theirs' });
    const foreign = (await theirs.done)[0]?.id ?? '';

    const id = await openThread();
    for (const lastEventId of [foreign, 'not-an-id', `${foreign.split(':')[0]}:-1`]) {
      const follower = followTurn(server.url, adaToken, id, { lastEventId });
      await follower.open;
      await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `/say mine` });
      const events = await follower.done;
      expect(events[0]?.data).toEqual({ type: 'started' });
      expect(JSON.stringify(events)).not.toContain('theirs');
    }
  });

  it('answers cancel true while a turn runs and false when none does', async () => {
    const id = await openThread();
    expect((await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body).toEqual({ cancelled: false });
    const answered = ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/slow 20000\n/say late' });
    await waitFor(async () => (await view(id)).turn !== null);
    expect((await ada.post(`/api/v1/assistant/threads/${id}/cancel`)).body).toEqual({ cancelled: true });
    expect(((await answered).body as ThreadResponse).messages.at(-1)).toMatchObject({ stop_reason: 'cancelled' });
  });
});

describe('the streams refuse what they must', () => {
  it('answer 401 without a token, and 404 for a thread that is not the caller’s or no uuid', async () => {
    const id = await openThread();
    for (const route of ['/api/v1/changes', `/api/v1/assistant/threads/${id}/events`]) {
      const anonymous = await fetch(server.url + route);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: string }).error).toMatch(/token/);
    }
    const olive = client(server.url, server.demoTokens.olive ?? '');
    expect((await olive.get(`/api/v1/assistant/threads/${id}/events`)).status).toBe(404);
    expect((await ada.get('/api/v1/assistant/threads/not-a-uuid/events')).status).toBe(404);
  });
});

describe('the change stream', () => {
  it("tells the operator's tabs what changed in their threads, and nothing of another operator's", async () => {
    const changes = await openChanges(adaToken);
    const olive = await openChanges(server.demoTokens.olive ?? '');
    try {
      const id = await openThread();
      await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: '/tool set_secret {"name": "SEEN", "value": "v"}' });
      const proposal = (await view(id)).proposals[0]?.id;
      await ada.post(`/api/v1/assistant/threads/${id}/proposals/${proposal}/reject`);
      await ada.delete(`/api/v1/assistant/threads/${id}`);
      await waitFor(() => changes.seen.some((c) => c.what === 'deleted'));
      const mine = changes.seen.filter((c) => c.thread === id).map((c) => c.what);
      expect(mine).toEqual(expect.arrayContaining(['turn_started', 'message', 'proposal', 'turn_ended', 'decision', 'deleted']));
      expect(mine.indexOf('turn_started')).toBeLessThan(mine.indexOf('turn_ended'));
      expect(olive.seen.filter((c) => c.thread === id)).toEqual([]);
    } finally {
      changes.close();
      olive.close();
    }
  });
});

/** Reads the `thread` events of `GET /api/v1/changes` until closed. */
async function openChanges(token: string) {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/api/v1/changes`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const seen: { thread: string; what: string }[] = [];
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader!.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (data && frame.includes('event: thread\n')) seen.push(JSON.parse(data.slice(6)) as { thread: string; what: string });
      }
    }
  })().catch(() => undefined);
  return { seen, close: () => abort.abort() };
}

// GET /api/v1/projects/{project}/changes: a project's writes as Server-Sent
// Events — a document written, an environment's deploys and secrets, the
// project's members — never its reads; members only, and a member removed
// meanwhile hears the stream end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectChange } from '../../src/wire/project-change.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { demoClients, mustCall } from '../helpers/tools.js';
import { waitFor } from '../helpers/wait.js';

const project = 'shop';

/** Follows the project's change stream as `token`: every change event so far, and whether the stream ended. */
async function followChanges(base: string, token: string, slug = project) {
  const abort = new AbortController();
  const response = await fetch(`${base}/api/v1/projects/${slug}/changes`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const seen: ProjectChange[] = [];
  let ended = false;
  void (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (data && frame.includes('event: change')) seen.push(JSON.parse(data.slice(6)) as ProjectChange);
      }
    }
  })()
    .catch(() => undefined)
    .finally(() => (ended = true));
  return { seen, ended: () => ended, close: () => abort.abort() };
}

describe.each(STORE_KINDS)("a project's change stream (%s)", (kind) => {
  let server: TestServer;
  let ada: Client;

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada } = demoClients(server));
  });
  afterAll(() => server?.stop());

  it('announces a document write, a deploy and a secret by environment, and a role change; a read announces nothing', async () => {
    const olive = await followChanges(server.url, server.demoTokens.olive ?? '');
    try {
      const seen = (change: ProjectChange) => olive.seen.filter((c) => JSON.stringify(c) === JSON.stringify(change)).length;
      const { revision, text } = await mustCall(ada, 'read_document', { project, path: 'app.yaml' });
      await mustCall(ada, 'write_document', { project, path: 'app.yaml', base_revision: revision, text: `${String(text)}# changed\n` });
      await waitFor(() => seen({ what: 'documents' }) === 1);
      await mustCall(ada, 'deploy', { project, environment: 'staging', path: 'app.yaml' });
      await waitFor(() => seen({ what: 'environment', environment: 'staging' }) === 1);
      await mustCall(ada, 'set_secret', { project, environment: 'production', name: 'FRESH_KEY', value: 'v' });
      await waitFor(() => seen({ what: 'environment', environment: 'production' }) === 1);
      // A deploy changes what is live, which the project carries too; the role change is the next.
      const projectChanges = seen({ what: 'project' });
      expect((await ada.put(`/api/v1/projects/${project}/members/dev`, { role: 'operator' })).status).toBe(200);
      await waitFor(() => seen({ what: 'project' }) === projectChanges + 1);
      // The reads in between (and the console's own) announced nothing.
      await mustCall(ada, 'read_document', { project, path: 'app.yaml' });
      expect(seen({ what: 'documents' })).toBe(1);
    } finally {
      olive.close();
    }
  });

  it('answers 404 to a caller who is no member, and ends the stream of a member removed meanwhile', async () => {
    expect((await ada.post('/api/v1/projects', { slug: 'quiet' })).status).toBe(201);
    const refused = await fetch(`${server.url}/api/v1/projects/quiet/changes`, { headers: { authorization: `Bearer ${server.demoTokens.vic}` } });
    expect(refused.status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/projects/${project}/changes`)).status).toBe(401);

    const vic = await followChanges(server.url, server.demoTokens.vic ?? '');
    expect((await ada.delete(`/api/v1/projects/${project}/members/vic`)).status).toBe(204);
    await waitFor(() => vic.ended());
    expect(vic.seen).toEqual([]);
  });
});

// Issue 29, DESIGN.md §14: stale is visible before anyone clicks, for a
// proposal that waits on nobody's approval too. A waiting edit whose document
// was saved again since is stale, with the reason, in the API; a waiting
// deploy pinned to a revision that is no longer the newest stays as it was
// (it still runs as shown) and names the newer one, which the console offers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';

let server: TestServer;
let ada: Client, olive: Client;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive } = demoClients(server));
});
afterAll(() => server.stop());

describe('a waiting proposal whose document moved', () => {
  it('an edit is stale with what moved; a pinned deploy keeps its revision and names the newer one', async () => {
    const doc = await mustCall(ada, 'read_document', { project: 'shop', path: 'app.yaml' });
    const revision = Number(doc.revision);
    const edit = JSON.stringify({ path: 'app.yaml', base_revision: revision, text: `${String(doc.text)}\n# proposed\n` });
    const opened = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as ThreadResponse;
    const answer = await ada.post(`/api/v1/assistant/threads/${opened.id}/messages`, { text: `/tool write_document ${edit}\n/tool deploy {"path": "app.yaml"}` });
    expect(answer.status, answer.text).toBe(200);
    const before = (answer.body as ThreadResponse).proposals;
    expect(before.map((p) => [p.tool, p.stale, p.newer_revision])).toEqual([
      ['write_document', false, null],
      ['deploy', false, null],
    ]);

    // Someone else saves the document.
    await mustCall(olive, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: revision, text: `${String(doc.text)}\n# olive\n` });
    const after = ((await ada.get(`/api/v1/assistant/threads/${opened.id}`)).body as ThreadResponse).proposals;
    expect(after[0]).toMatchObject({
      status: 'pending',
      stale: true,
      stale_reason: `app.yaml was saved again since this was proposed: r${revision + 1} is its newest, not the r${revision} this edits, so accepting it would be refused; ask for the edit again`,
    });
    expect(after[1]).toMatchObject({ status: 'pending', stale: false, stale_reason: null, newer_revision: revision + 1 });
    // The fingerprint is the proposal's, unchanged: the pin is what the card showed.
    expect(after[1]?.fingerprint).toBe(before[1]?.fingerprint);
  });
});

// Issue 29, DESIGN.md §14: every waiting write is stale, with a reason, the
// moment what it shows moves — not only an edit. The table walks each write
// tool: a proposal made in a thread, then someone changes its target over
// REST; the thread shows it `stale: true` with who changed what, and Accept
// answers 409 with that sentence (the proposal stays waiting). A change to
// another target leaves it as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';

let server: TestServer;
let ada: Client;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada } = demoClients(server));
  // A document nothing has live, for delete_document.
  await mustCall(ada, 'write_document', { project: 'shop', path: 'notes.yaml', text: 'a: 1\n', message: 'notes' });
});
afterAll(() => server.stop());

const staging = { project: 'shop', environment: 'staging' };

interface Row {
  tool: string;
  input: Record<string, unknown>;
  /** Someone else's write to the same target: [tool, input]. */
  moves: [string, Record<string, unknown>];
  /** The proposal's target in its reason. */
  target: string;
}

// In order: each row's change is the state the next one starts from (protection last: staging stays protected).
const TABLE: Row[] = [
  { tool: 'deploy', input: { path: 'app.yaml', revision: 2 }, moves: ['deploy', { ...staging, path: 'app.yaml', revision: 1 }], target: 'app.yaml in staging' },
  { tool: 'rollback', input: { path: 'app.yaml' }, moves: ['deploy', { ...staging, path: 'app.yaml', revision: 2 }], target: 'app.yaml in staging' },
  { tool: 'set_secret', input: { name: 'DATABASE_URL', value: 'postgres://new' }, moves: ['set_secret', { ...staging, name: 'DATABASE_URL', value: 'postgres://other' }], target: 'DATABASE_URL in staging' },
  { tool: 'delete_secret', input: { name: 'DATABASE_URL' }, moves: ['set_secret', { ...staging, name: 'DATABASE_URL', value: 'postgres://again' }], target: 'DATABASE_URL in staging' },
  { tool: 'set_member_role', input: { operator: 'dev', role: 'operator' }, moves: ['set_member_role', { project: 'shop', operator: 'dev', role: 'viewer' }], target: 'the role of dev' },
  { tool: 'remove_member', input: { operator: 'vic' }, moves: ['set_member_role', { project: 'shop', operator: 'vic', role: 'developer' }], target: 'the role of vic' },
  { tool: 'create_environment', input: { name: 'qa' }, moves: ['create_environment', { project: 'shop', name: 'qa' }], target: 'the environment qa' },
  { tool: 'delete_document', input: { path: 'notes.yaml' }, moves: ['write_document', { project: 'shop', path: 'notes.yaml', base_revision: 1, text: 'a: 2\n' }], target: 'notes.yaml' },
  {
    tool: 'set_environment_protection',
    input: { protected: true },
    moves: ['set_environment_protection', { ...staging, protected: true }],
    target: 'the protection of staging',
  },
];

async function propose(row: Row): Promise<{ thread: string; id: string }> {
  const opened = (await ada.post('/api/v1/assistant/threads', staging)).body as ThreadResponse;
  const answer = await ada.post(`/api/v1/assistant/threads/${opened.id}/messages`, { text: `/tool ${row.tool} ${JSON.stringify(row.input)}` });
  expect(answer.status, answer.text).toBe(200);
  const [proposal] = (answer.body as ThreadResponse).proposals;
  expect(proposal).toMatchObject({ tool: row.tool, status: 'pending', stale: false, stale_reason: null });
  return { thread: opened.id, id: proposal?.id ?? '' };
}

const proposalOf = async ({ thread, id }: { thread: string; id: string }) =>
  ((await ada.get(`/api/v1/assistant/threads/${thread}`)).body as ThreadResponse).proposals.find((p) => p.id === id);

describe('a waiting write whose target moved', () => {
  it.each(TABLE)('$tool: stale with who changed it, and Accept answers 409 with that sentence', async (row) => {
    const proposed = await propose(row);
    // Another target moving changes nothing.
    await mustCall(ada, 'set_secret', { ...staging, name: `UNRELATED_${row.tool.toUpperCase()}`, value: 'x' });
    expect(await proposalOf(proposed)).toMatchObject({ stale: false, stale_reason: null });

    await mustCall(ada, row.moves[0], row.moves[1]);
    const reason = new RegExp(`^${row.target} changed since this was proposed: ada ran ${row.moves[0]} at \\d\\d:\\d\\d:\\d\\d UTC, so what this shows is not what would run; ask again$`);
    const stale = await proposalOf(proposed);
    expect(stale).toMatchObject({ status: 'pending', stale: true, stale_reason: expect.stringMatching(reason) });

    const accepted = await ada.post(`/api/v1/assistant/threads/${proposed.thread}/proposals/${proposed.id}/accept`);
    expect(accepted.status).toBe(409);
    expect((accepted.body as { error: string }).error).toBe(`this proposal is stale, so it will not run: ${stale?.stale_reason ?? ''}`);
    // Still waiting, still saying why, until someone rejects it.
    expect(await proposalOf(proposed)).toMatchObject({ status: 'pending', stale: true, stale_reason: stale?.stale_reason });
  });

  it('Accept all stops at a stale one, runs nothing after it, and the thread says why', async () => {
    const opened = (await ada.post('/api/v1/assistant/threads', staging)).body as ThreadResponse;
    const answer = await ada.post(`/api/v1/assistant/threads/${opened.id}/messages`, {
      text: '/tool set_secret {"name": "LATER_KEY", "value": "v"}\n/tool set_secret {"name": "AFTER_KEY", "value": "v"}',
    });
    const [stale, after] = (answer.body as ThreadResponse).proposals;
    await mustCall(ada, 'set_secret', { ...staging, name: 'LATER_KEY', value: 'w' });
    // As the spec has it, Accept all answers 200 and stops where one cannot run, leaving the rest waiting.
    expect((await ada.post(`/api/v1/assistant/threads/${opened.id}/proposals/accept-all`)).status).toBe(200);
    expect(await proposalOf({ thread: opened.id, id: stale?.id ?? '' })).toMatchObject({
      status: 'pending',
      stale: true,
      stale_reason: expect.stringMatching(/^LATER_KEY in staging changed since this was proposed: ada ran set_secret/),
    });
    expect(await proposalOf({ thread: opened.id, id: after?.id ?? '' })).toMatchObject({ status: 'pending', stale: false });
    const secrets = await mustCall(ada, 'list_secrets', staging);
    const names = (secrets.secrets as { name: string; version: number }[]).map((x) => [x.name, x.version]);
    expect(names).toContainEqual(['LATER_KEY', 1]);
    expect(names.map(([name]) => name)).not.toContain('AFTER_KEY');
  });
});

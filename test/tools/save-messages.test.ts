// Issue 33 item 5 over REST: a save's optional message is kept with its
// revision and shown in the history and the audit; a message of the wrong type
// or too long is refused (422) with a sentence; the audit entries of a deploy and a
// rollback name the revision that went live (`made`), even when the input left
// it open; read_audit filters by environment; and a second rollback goes on to
// the revision before, never back to the one just rolled back from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callTool, demoClients, mustCall } from '../helpers/tools.js';

const shop = { project: 'shop' };
const staging = { project: 'shop', environment: 'staging' };

interface Entry {
  tool: string;
  environment: string | null;
  outcome: string;
  input: Record<string, unknown>;
}

let server: TestServer;
let ada: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada } = demoClients(server));
});
afterAll(() => server.stop());

async function save(path: string, text: string, message?: string): Promise<number> {
  const current = await callTool(ada, 'read_document', { ...shop, path });
  const base = current.is_error ? {} : { base_revision: current.result.revision };
  const written = await mustCall(ada, 'write_document', { ...shop, path, text, ...base, ...(message === undefined ? {} : { message }) });
  return written.revision as number;
}

async function audit(input: Record<string, unknown> = {}): Promise<Entry[]> {
  return (await mustCall(ada, 'read_audit', { ...shop, changes_only: true, ...input })).entries as Entry[];
}

describe('a save’s message', () => {
  it('is kept with the revision and shown in the history and the audit', async () => {
    const revision = await save('notes.yaml', 'service: notes\n', 'First notes, for the on-call');
    const { revisions } = await mustCall(ada, 'list_revisions', { ...shop, path: 'notes.yaml' });
    expect((revisions as { revision: number; message: string | null }[])[0]).toMatchObject({ revision, message: 'First notes, for the on-call' });
    expect((await mustCall(ada, 'read_document', { ...shop, path: 'notes.yaml' })).message).toBe('First notes, for the on-call');
    const [entry] = await audit({ tool: 'write_document' });
    expect(entry?.input).toMatchObject({ path: 'notes.yaml', message: 'First notes, for the on-call', made: { revision } });
  });

  it('is optional: a save without one keeps none', async () => {
    const revision = await save('notes.yaml', 'service: notes\nport: 1\n');
    const { revisions } = await mustCall(ada, 'list_revisions', { ...shop, path: 'notes.yaml' });
    expect((revisions as { revision: number; message: string | null }[])[0]).toMatchObject({ revision, message: null });
  });

  it('of the wrong type or too long is refused with a sentence, and nothing is saved', async () => {
    const before = (await mustCall(ada, 'read_document', { ...shop, path: 'notes.yaml' })).revision as number;
    for (const [message, sentence] of [
      [42, 'write_document: input.message must be string'],
      ['x'.repeat(501), 'write_document: input.message must NOT have more than 500 characters'],
    ] as const) {
      const answer = await callTool(ada, 'write_document', { ...shop, path: 'notes.yaml', text: 'service: other\n', base_revision: before, message });
      expect(answer.status).toBe(422);
      expect(answer.result.error).toBe(sentence);
    }
    expect((await mustCall(ada, 'read_document', { ...shop, path: 'notes.yaml' })).revision).toBe(before);
  });
});

describe('the audit of a deploy and a rollback', () => {
  it('names the revision that went live, and filters by environment', async () => {
    const first = await save('app.yaml', 'service: shop\nport: 8081\n', 'port 8081');
    await mustCall(ada, 'deploy', { ...staging, path: 'app.yaml' });
    const second = await save('app.yaml', 'service: shop\nport: 8082\n', 'port 8082');
    await mustCall(ada, 'deploy', { ...staging, path: 'app.yaml' });

    const [deployed] = await audit({ tool: 'deploy' });
    expect(deployed?.input).toMatchObject({ path: 'app.yaml', made: { revision: second } });
    expect(deployed?.input).not.toHaveProperty('revision');

    // A rollback brings back `first`; a second one goes on to what was live before it, not back to `second`.
    const back = await mustCall(ada, 'rollback', { ...staging, path: 'app.yaml' });
    expect(back.revision).toBe(first);
    const [rolledBack] = await audit({ tool: 'rollback' });
    expect(rolledBack?.input).toMatchObject({ path: 'app.yaml', made: { revision: first } });
    const further = await mustCall(ada, 'rollback', { ...staging, path: 'app.yaml' });
    expect(further.revision).toBeLessThan(first);
    expect(further.revision).not.toBe(second);

    const inStaging = await audit({ environment: 'staging' });
    expect(inStaging.length).toBeGreaterThanOrEqual(4);
    expect(new Set(inStaging.map((e) => e.environment))).toEqual(new Set(['staging']));
    const inProduction = await audit({ environment: 'production' });
    expect(inProduction.every((e) => e.environment === 'production')).toBe(true);
    expect(inProduction.some((e) => e.tool === 'rollback')).toBe(false);
  });

  it('refuses an environment filter of the wrong type with a sentence', async () => {
    const answer = await callTool(ada, 'read_audit', { ...shop, environment: 7 });
    expect(answer.status).toBe(422);
    expect(String(answer.result.error)).toMatch(/environment/);
  });
});

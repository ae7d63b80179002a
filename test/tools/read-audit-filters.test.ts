// read_audit's filters for the console's audit page: changes only (reads left
// out, refused writes and other actions kept), outcome, and a time range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/wire/audit.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { callTool, demoClients, mustCall } from '../helpers/tools.js';

describe.each(STORE_KINDS)('read_audit filters (%s)', (kind) => {
  let server: TestServer;
  let ada: Client;
  let started: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    const { ada: admin, vic } = demoClients(server);
    ada = admin;
    started = new Date().toISOString();
    const current = (await mustCall(ada, 'read_document', { project: 'shop', path: 'app.yaml' })) as { revision: number; text: string };
    await mustCall(ada, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: current.revision, text: `${current.text}# audited\n` });
    await callTool(vic, 'write_document', { project: 'shop', path: 'app.yaml', text: 'a: 1\n' });
  });
  afterAll(() => server.stop());

  const entries = async (input: Record<string, unknown>) =>
    ((await mustCall(ada, 'read_audit', { project: 'shop', limit: 200, ...input })).entries as AuditRecord[]).filter((e) => e.at >= started);

  it('leaves out reads with changes_only, keeping refused writes', async () => {
    const all = await entries({});
    expect(all.some((e) => e.tool === 'read_document')).toBe(true);
    const changes = await entries({ changes_only: true });
    expect(changes.map((e) => `${e.operator} ${e.tool} ${e.outcome}`)).toEqual(['vic write_document refused', 'ada write_document ok']);
  });

  it('filters by outcome and by time', async () => {
    expect((await entries({ outcome: 'refused' })).map((e) => e.operator)).toEqual(['vic']);
    expect(await entries({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await entries({ until: started })).toEqual([]);
    const window = await entries({ since: started, until: new Date(Date.now() + 60_000).toISOString(), changes_only: true });
    expect(window).toHaveLength(2);
  });

  it('refuses a time that is not one', async () => {
    const answer = await callTool(ada, 'read_audit', { project: 'shop', since: 'yesterday' });
    expect(answer.status).toBe(422);
  });
});

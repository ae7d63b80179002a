// The audit log keeps every entry (issue 9, item 1): entries the store cannot
// hold as they are (NUL, lone surrogates, nesting thousands deep, megabytes
// of text) are made storable and say so, and no entry takes another with it.
// Poison is interleaved with refused writes, on each kind of store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, type AuditEntry } from '../../src/domain/audit.js';
import { auditEntries, type Outcome } from '../../src/store/schema.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/store.js';
import { callTool } from '../helpers/tools.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const refusedWrite = (n: number): AuditEntry => ({
  operator: 'vic',
  via: 'rest',
  tool: 'write_document',
  project: 'shop',
  environment: null,
  outcome: 'refused',
  input: { project: 'shop', path: `n${n}.yaml`, text: 'a: 1' },
  error: 'you need document:write on shop; your role there is viewer',
});

const POISON: Partial<AuditEntry>[] = [
  { input: { path: 'sh\u0000op' } },
  { input: { ['key\u0000']: 1 } },
  { input: { text: 'half a pair \ud800 here' } },
  { input: { text: 'a low one alone \udc00' } },
  { input: nested(5000) },
  { input: { text: 'x'.repeat(300_000) } },
  { error: 'input has an unknown property \u0000; remove it' },
  { tool: 'read\u0000document', project: 'sh\ud800op' },
  { project: 'p'.repeat(5000) },
  { threadId: 'not-a-uuid' },
];

describe.each(STORE_KINDS)('the audit queue (%s)', (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(() => store.cleanup());

  it('stores every entry of a batch that interleaves poison with refused writes, and says what it changed', async () => {
    const errors: unknown[] = [];
    const audit = new AuditLog(store.store.db, (error) => errors.push(error));
    let n = 0;
    for (const poison of POISON) {
      audit.record(refusedWrite(n++));
      audit.record({ ...refusedWrite(n++), outcome: 'error', tool: 'read_document', ...poison });
    }
    audit.record(refusedWrite(n));
    await audit.flush();

    const rows = await store.store.db.select().from(auditEntries).orderBy(auditEntries.id);
    expect(rows).toHaveLength(2 * POISON.length + 1);
    expect(rows.filter((r) => r.outcome === 'refused')).toHaveLength(POISON.length + 1);
    const poisoned = rows.filter((r) => r.outcome === 'error');
    expect(poisoned).toHaveLength(POISON.length);
    for (const row of poisoned) {
      expect(row.input, JSON.stringify(row.input).slice(0, 200)).toMatchObject({ sanitised: expect.stringMatching(/\S/) });
    }
    expect(JSON.stringify(rows)).not.toMatch(/\\u0000|\\ud800|\\udc00/i);
    expect(poisoned[0]?.input).toEqual({ sanitised: '1 NUL character(s) or lone surrogate(s) replaced by U+FFFD', input: { path: 'sh\uFFFDop' } });
    expect(errors).toEqual([]);
  });

  it('writes the rest of a batch when one entry is refused anyway', async () => {
    const errors: unknown[] = [];
    const audit = new AuditLog(store.store.db, (error) => errors.push(error));
    const before = (await store.store.db.select().from(auditEntries)).length;
    audit.record(refusedWrite(100));
    // An outcome the column refuses (NOT NULL): no sanitising can save it.
    audit.record({ ...refusedWrite(101), outcome: null as unknown as Outcome });
    audit.record(refusedWrite(102));
    await audit.flush();
    const rows = await store.store.db.select().from(auditEntries);
    expect(rows).toHaveLength(before + 2);
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe.each(STORE_KINDS)('a viewer cannot erase the trace of refused writes (%s)', (kind) => {
  let server: TestServer;
  let vic: Client;
  let ada: Client;
  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    vic = client(server.url, server.demoTokens.vic ?? '');
    ada = client(server.url, server.demoTokens.ada ?? '');
  });
  afterAll(() => server.stop());

  it('keeps every refused write however much poison is sent with it', async () => {
    const poison = [
      { project: 'shop', path: 'a.yaml', ['x\u0000']: 1 },
      { project: 'shop', path: 'a.yaml', ['\ud800']: 1 },
      { project: 'shop', path: nested(3000) },
      { project: 'shop', path: 'a.yaml', text: { deep: nested(3000) } },
    ];
    const calls = poison.flatMap((input, i) => [
      callTool(vic, 'write_document', { project: 'shop', path: `trace-${i}.yaml`, text: 'a: 1' }),
      callTool(vic, 'read_document', input),
    ]);
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status === 200 && a.is_error)).toHaveLength(poison.length);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(poison.length);

    const { result } = await callTool(ada, 'read_audit', { project: 'shop', operator: 'vic', tool: 'write_document', limit: 200 });
    const entries = result.entries as { outcome: string; input: { path: string } }[];
    expect(entries.filter((e) => e.outcome === 'refused').map((e) => e.input.path).sort()).toEqual(poison.map((_, i) => `trace-${i}.yaml`));
    expect(server.logs.filter((line) => line.includes('audit entries could not be written'))).toEqual([]);
  });
});

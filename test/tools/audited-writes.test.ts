// Every write tool, run once, leaves exactly one audit entry naming what it
// acted on (DESIGN §10.1, §10.5; issue 34): the table below has a row for each
// write of the catalogue (a new one must be added), run in order through the
// REST tool route as ada, the demo's admin.
import { and, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/store/schema.js';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall } from '../helpers/tools.js';

let server: TestServer;
let ada: Client;
let olive: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive } = demoClients(server));
});
afterAll(() => server.stop());

const shop = { project: 'shop' };
const staging = { project: 'shop', environment: 'staging' };
const production = { project: 'shop', environment: 'production' };

interface Row {
  /** What must stand first (a change request to decide): answers the input. */
  input: () => Promise<Record<string, unknown>>;
  /** What the entry names: its project, environment and input as the audit keeps it. */
  target: (input: Record<string, unknown>) => { project: string | null; environment: string | null; input: Record<string, unknown> };
}

const wentLive = { deployment: expect.any(Number), revision: expect.any(Number) };
const at = (project: string | null, environment: string | null) => (input: Record<string, unknown>) => ({ project, environment, input });
/** A change request olive opens in production (it requires two approvals by then): ada decides it. */
const requested = async (name: string) => {
  const result = await mustCall(olive, 'set_secret', { ...production, name, value: 'v' });
  return (result.change_request as { id: string }).id;
};

// In order: a row may rely on those above it (rollback before deploy; production protected before its requests).
const WRITES: Record<string, Row> = {
  create_environment: { input: async () => ({ ...shop, name: 'qa' }), target: at('shop', null) },
  set_member_role: { input: async () => ({ ...shop, operator: 'vic', role: 'developer' }), target: at('shop', null) },
  remove_member: { input: async () => ({ ...shop, operator: 'dev' }), target: at('shop', null) },
  // A save's entry adds the revision it made; a deploy's and a rollback's, the deployment and the revision that went live.
  write_document: {
    input: async () => ({ ...shop, path: 'audited.yaml', text: 'a: 1\n' }),
    target: (input) => ({ ...shop, environment: null, input: { ...input, made: { revision: 1 } } }),
  },
  delete_document: { input: async () => ({ ...shop, path: 'audited.yaml' }), target: at('shop', null) },
  set_secret: {
    input: async () => ({ ...staging, name: 'AUDITED', value: 'audited-value-7c1' }),
    target: (input) => ({ ...staging, input: { ...input, value: '[redacted]' } }),
  },
  delete_secret: { input: async () => ({ ...staging, name: 'AUDITED' }), target: at('shop', 'staging') },
  rollback: { input: async () => ({ ...staging, path: 'app.yaml' }), target: (input) => ({ ...staging, input: { ...input, made: wentLive } }) },
  deploy: { input: async () => ({ ...staging, path: 'app.yaml' }), target: (input) => ({ ...staging, input: { ...input, made: wentLive } }) },
  set_environment_protection: { input: async () => ({ ...production, approvals_required: 2 }), target: at('shop', 'production') },
  // A decision keeps the request it decided and how.
  approve_change_request: {
    input: async () => ({ id: await requested('APPROVED'), comment: 'fine' }),
    target: ({ id, comment }) => ({ ...production, input: { change_request: id, comment, outcome: 'approved' } }),
  },
  decline_change_request: {
    input: async () => ({ id: await requested('DECLINED'), comment: 'not now' }),
    target: ({ id, comment }) => ({ ...production, input: { change_request: id, comment, status: 'declined' } }),
  },
};

describe('each write tool', () => {
  it('has a row in the table', () => {
    const writes = CATALOGUE.filter((tool) => tool.tag === 'write').map((tool) => tool.name);
    expect(Object.keys(WRITES).sort()).toEqual(writes.sort());
  });

  // Sequential, in the table's order.
  for (const [tool, row] of Object.entries(WRITES)) {
    it(`${tool}: audited once, ok, with the operator, its target and its input`, async () => {
      const input = await row.input();
      await server.services.audit.flush();
      const [last] = await server.services.db.select({ id: auditEntries.id }).from(auditEntries).orderBy(desc(auditEntries.id)).limit(1);
      await mustCall(ada, tool, input);
      await server.services.audit.flush();
      const entries = await server.services.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.tool, tool), gt(auditEntries.id, last?.id ?? 0)));
      expect(entries).toHaveLength(1);
      const { project, environment, input: kept } = row.target(input);
      expect(entries[0]).toMatchObject({ operator: 'ada', via: 'rest', outcome: 'ok', error: null, project, environment });
      expect(entries[0]?.input).toEqual(kept);
    });
  }
});

// DESIGN.md §10 invariant 11, for rollback: it deploys a revision again, so
// it checks it again — a revision that was clean when it was live but has
// diagnostics now (its secret is gone) is not put live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall, mustFail } from '../helpers/tools.js';

const staging = { project: 'shop', environment: 'staging' };

let server: TestServer;
let ada: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada } = demoClients(server));
});
afterAll(() => server.stop());

describe('rollback', () => {
  it('never puts live a revision that has diagnostics now', async () => {
    // The demo has r2 live in staging, referring to DATABASE_URL; r3 drops the reference.
    const { revision } = await mustCall(ada, 'read_document', { project: 'shop', path: 'app.yaml' });
    const written = await mustCall(ada, 'write_document', {
      project: 'shop',
      path: 'app.yaml',
      text: 'service: shop\nport: 8080\n',
      base_revision: revision,
    });
    await mustCall(ada, 'deploy', { ...staging, path: 'app.yaml' });
    await mustCall(ada, 'delete_secret', { ...staging, name: 'DATABASE_URL' });
    const before = await mustCall(ada, 'list_deployments', staging);

    const refused = await mustFail(ada, 'rollback', { ...staging, path: 'app.yaml' });
    expect(refused).toMatch(/^app\.yaml r2 has 1 diagnostic for staging, so it was not deployed; the first is \d+:\d+ .*DATABASE_URL/);
    expect(await mustCall(ada, 'list_deployments', staging)).toEqual(before);
    const { live } = await mustCall(ada, 'get_live_config', { ...staging, path: 'app.yaml' });
    expect((live as { revision: number }[])[0]?.revision).toBe(written.revision);
  });
});

// Protecting and unprotecting an environment: admins only, audited, and what
// protection means takes effect at once (a developer may no longer deploy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoClients, mustCall, mustFail } from '../helpers/tools.js';

const project = 'shop';
let server: TestServer;
let ada: Client, olive: Client, dev: Client;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ({ ada, olive, dev } = demoClients(server));
});
afterAll(() => server.stop());

describe('environment protection', () => {
  const deployAsDev = () => dev.post('/api/v1/assistant/tools/deploy', { project, environment: 'staging', path: 'app.yaml' });

  it('protects staging for an admin, after which a developer may not deploy there', async () => {
    expect((await deployAsDev()).body).toMatchObject({ is_error: false });
    const protectedNow = await mustCall(ada, 'set_environment_protection', { project, environment: 'staging', protected: true });
    expect(protectedNow).toEqual({
      project,
      environment: 'staging',
      protected: true,
      approvals_required: 1,
      requester_may_approve: false,
      was: { protected: false, approvals_required: 1, requester_may_approve: false },
    });
    const { environments } = await mustCall(dev, 'list_environments', { project });
    expect(environments).toContainEqual(expect.objectContaining({ name: 'staging', protected: true }));
    expect((await deployAsDev()).body).toMatchObject({
      is_error: true,
      result: { error: 'you need deploy on staging of shop; your role there is developer' },
    });
  });

  it('unprotects it again, and refuses anyone but an admin', async () => {
    expect(await mustFail(olive, 'set_environment_protection', { project, environment: 'staging', protected: false })).toBe(
      'you need environment:manage on shop; your role there is operator',
    );
    const unprotected = await mustCall(ada, 'set_environment_protection', { project, environment: 'staging', protected: false });
    expect(unprotected).toMatchObject({ protected: false, was: { protected: true } });
    expect((await deployAsDev()).body).toMatchObject({ is_error: false });
  });

  it('audits each change, refused or done', async () => {
    const { entries } = await mustCall(ada, 'read_audit', { project, tool: 'set_environment_protection' });
    const seen = (entries as { operator: string; outcome: string; environment: string; input: unknown }[]).map((e) => [
      e.operator,
      e.outcome,
      e.environment,
      e.input,
    ]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['ada', 'ok', 'staging', { project, environment: 'staging', protected: true }],
        ['ada', 'ok', 'staging', { project, environment: 'staging', protected: false }],
        ['olive', 'refused', 'staging', { project, environment: 'staging', protected: false }],
      ]),
    );
    expect(seen).toHaveLength(3);
  });
});

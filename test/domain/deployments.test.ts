// Deployments through the tools, as the demo operators call them: a deploy
// only of a clean revision, numbered per environment; rollback; the history;
// what is live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { callTool, demoClients, mustCall, mustFail } from '../helpers/tools.js';

const project = 'shop';
const staging = { project, environment: 'staging' };
const production = { project, environment: 'production' };

describe.each(STORE_KINDS)('deployments (%s)', (kind) => {
  let server: TestServer;
  let ada: Client, olive: Client, dev: Client, vic: Client;

  const liveRevision = async (environment: string, path = 'app.yaml') => {
    const { live } = await mustCall(vic, 'get_live_config', { project, environment, path });
    return (live as { revision: number }[])[0]?.revision;
  };
  const writeApp = async (text: string) => {
    const { revision } = await mustCall(vic, 'read_document', { project, path: 'app.yaml' });
    return (await mustCall(dev, 'write_document', { project, path: 'app.yaml', text, base_revision: revision })).revision as number;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada, olive, dev, vic } = demoClients(server));
  });
  afterAll(() => server.stop());

  it('starts with the demo app.yaml live in both environments, secrets unresolved', async () => {
    const { live } = await mustCall(vic, 'get_live_config', staging);
    expect(live).toEqual([
      {
        path: 'app.yaml',
        revision: 2,
        deployment: 2,
        deployed_at: expect.any(String),
        config: { service: 'shop', port: 8080, database: { url: '${secret:DATABASE_URL}' }, features: { new_checkout: true } },
      },
    ]);
    expect(await mustCall(vic, 'list_deployments', production)).toEqual({
      ...production,
      deployments: [
        { deployment: 1, path: 'app.yaml', revision: 1, operator: 'ada', via: 'rest', rollback: false, deployed_at: expect.any(String) },
      ],
    });
  });

  it('deploys a clean revision, numbered per environment', async () => {
    const revision = await writeApp('service: shop\nport: 8081\ndatabase:\n  url: ${secret:DATABASE_URL}\n');
    const deployed = await mustCall(dev, 'deploy', { ...staging, path: 'app.yaml' });
    expect(deployed).toEqual({
      ...staging,
      deployment: 3,
      path: 'app.yaml',
      revision,
      operator: 'dev',
      via: 'rest',
      rollback: false,
      deployed_at: expect.any(String),
    });
    expect(await liveRevision('staging')).toBe(revision);
    expect(await liveRevision('production')).toBe(1);

    const { environments } = await mustCall(vic, 'list_environments', { project });
    expect((environments as { name: string; live: unknown[] }[]).find((e) => e.name === 'staging')?.live).toEqual([
      { path: 'app.yaml', revision, deployment: 3, deployed_at: expect.any(String) },
    ]);
    const { documents } = await mustCall(vic, 'list_documents', { project });
    expect((documents as { path: string; live: unknown }[]).find((d) => d.path === 'app.yaml')?.live).toEqual({
      staging: revision,
      production: 1,
    });
  });

  it('refuses a revision with diagnostics, changing nothing', async () => {
    const revision = await writeApp('service: shop\nport: high\ndatabase:\n  url: ${secret:NOPE}\n');
    const before = await mustCall(vic, 'list_deployments', staging);
    const { diagnostics } = await mustCall(vic, 'check_document', { ...staging, path: 'app.yaml', revision });
    const [first] = diagnostics as { line: number; column: number; message: string }[];
    expect(first).toMatchObject({ line: 2, column: 7 });
    const refused = await mustFail(olive, 'deploy', { ...staging, path: 'app.yaml', revision });
    expect(refused).toBe(
      `app.yaml r${revision} has 2 diagnostics for staging, so it was not deployed; the first is 2:7 ${first?.message}`,
    );
    expect(await mustCall(vic, 'list_deployments', staging)).toEqual(before);
    expect(await liveRevision('staging')).toBe(revision - 1);
  });

  it('refuses a revision that refers to a secret the environment lacks', async () => {
    const revision = await writeApp('service: shop\nport: 8082\ndatabase:\n  url: ${secret:STAGING_ONLY}\n');
    await mustCall(dev, 'set_secret', { ...staging, name: 'STAGING_ONLY', value: 'only-here' });
    expect((await mustCall(dev, 'deploy', { ...staging, path: 'app.yaml', revision })).deployment).toBe(4);
    expect(await mustFail(olive, 'deploy', { ...production, path: 'app.yaml', revision })).toBe(
      `app.yaml r${revision} has 1 diagnostic for production, so it was not deployed; the first is 4:8 ` +
        'secret STAGING_ONLY is not set in this environment; set it with set_secret or remove the reference',
    );
  });

  it('checks permissions per environment: developers may not deploy to protected production', async () => {
    expect(await mustFail(dev, 'deploy', { ...production, path: 'app.yaml', revision: 1 })).toBe(
      'you need deploy on production of shop; your role there is developer',
    );
    expect(await mustFail(vic, 'deploy', { ...staging, path: 'app.yaml', revision: 1 })).toBe(
      'you need deploy on staging of shop; your role there is viewer',
    );
    const redeployed = await mustCall(olive, 'deploy', { ...production, path: 'app.yaml', revision: 1 });
    expect(redeployed).toMatchObject({ deployment: 2, revision: 1, operator: 'olive' });
  });

  it('refuses the schema, unknown documents and revisions, and bad input', async () => {
    expect(await mustFail(ada, 'deploy', { ...staging, path: 'aion.schema.yaml' })).toBe(
      "aion.schema.yaml is the project's schema: checks use its current revision, so it is never deployed",
    );
    expect(await mustFail(ada, 'deploy', { ...staging, path: 'nope.yaml' })).toBe(
      'no such document: nope.yaml; list_documents shows the paths',
    );
    expect(await mustFail(ada, 'deploy', { ...staging, path: 'app.yaml', revision: 99 })).toMatch(/^app\.yaml has no r99;/);
    expect(await mustFail(ada, 'deploy', { ...staging, path: '/etc/passwd.yaml' })).toMatch(/starts with "\/"/);
    expect(await mustFail(ada, 'deploy', { project, environment: 'qa', path: 'app.yaml' })).toBe('no such environment: qa in shop');
    expect((await callTool(ada, 'deploy', { ...staging })).status).toBe(422);
    expect((await callTool(ada, 'deploy', { ...staging, path: 'app.yaml', revision: '2' })).status).toBe(422);
    // A rollback may name the revision it was shown (a pinned proposal), as a number.
    expect((await callTool(ada, 'rollback', { ...staging, path: 'app.yaml', revision: '2' })).status).toBe(422);
    expect((await callTool(ada, 'rollback', { ...staging, path: 'app.yaml', target: 2 })).status).toBe(422);
  });

  it('rolls back to the revision live before, as a new deployment flagged rollback', async () => {
    const { deployments } = await mustCall(vic, 'list_deployments', { ...staging, limit: 3 });
    const [current, previous, earlier] = deployments as { revision: number; deployment: number }[];
    const rolled = await mustCall(dev, 'rollback', { ...staging, path: 'app.yaml' });
    expect(rolled).toMatchObject({ deployment: 5, revision: previous?.revision, rollback: true, operator: 'dev' });
    expect(await liveRevision('staging')).toBe(previous?.revision);

    // A second rollback goes on to what was live before that, never back to the revision it just rolled back from.
    expect(new Set([current?.revision, previous?.revision, earlier?.revision]).size).toBe(3);
    const again = await mustCall(dev, 'rollback', { ...staging, path: 'app.yaml' });
    expect(again).toMatchObject({ deployment: 6, revision: earlier?.revision, rollback: true });
    expect(again.revision).not.toBe(current?.revision);
  });

  it('skips redeployments of the same revision, and refuses when there is nothing earlier', async () => {
    // production: r1 (#1), r1 again (#2): nothing different was ever live there.
    expect(await mustFail(olive, 'rollback', { ...production, path: 'app.yaml' })).toBe(
      'app.yaml has been live in production only at r1; there is no earlier revision to roll back to',
    );
    expect(await mustFail(olive, 'rollback', { ...production, path: 'flags.yaml' })).toBe(
      'flags.yaml is not live in production; there is nothing to roll back',
    );
    expect(await mustFail(dev, 'rollback', { ...production, path: 'app.yaml' })).toBe(
      'you need deploy on production of shop; your role there is developer',
    );
  });

  it('lists deployments newest first, with a limit', async () => {
    const { deployments } = await mustCall(vic, 'list_deployments', { ...staging, limit: 3 });
    expect((deployments as { deployment: number }[]).map((d) => d.deployment)).toEqual([6, 5, 4]);
    const all = (await mustCall(vic, 'list_deployments', staging)).deployments as { rollback: boolean }[];
    expect(all.map((d) => d.rollback)).toEqual([true, true, false, false, false, false]);
    expect((await callTool(vic, 'list_deployments', { ...staging, limit: 0 })).status).toBe(422);
  });

  it('gives racing deploys to one environment distinct, consecutive numbers', async () => {
    const answers = await Promise.all(
      [1, 2, 1].map((revision) => callTool(olive, 'deploy', { ...staging, path: 'app.yaml', revision })),
    );
    expect(answers.every((a) => !a.is_error)).toBe(true);
    expect(answers.map((a) => a.result.deployment as number).sort((a, b) => a - b)).toEqual([7, 8, 9]);
  });

  it('reads what is live without a path, and refuses a path that is not live', async () => {
    await mustCall(dev, 'write_document', { project, path: 'worker.yaml', text: 'service: worker\nport: 9000\n' });
    await mustCall(dev, 'deploy', { ...staging, path: 'worker.yaml' });
    const { live } = await mustCall(vic, 'get_live_config', staging);
    expect((live as { path: string }[]).map((l) => l.path)).toEqual(['app.yaml', 'worker.yaml']);
    expect(await mustFail(vic, 'get_live_config', { ...production, path: 'worker.yaml' })).toBe(
      'worker.yaml is not live in production',
    );
  });
});

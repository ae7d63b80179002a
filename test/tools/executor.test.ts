// The executor's path, seen from its callers: REST's status codes, scope
// filling, read-only and tool filters, and one audit entry per run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperator } from '../../src/access/operators.js';
import type { Operator } from '../../src/access/operators.js';
import { AppError } from '../../src/errors.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client;
let dev: Client;
let adaOperator: Operator;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  dev = client(server.url, server.demoTokens.dev ?? '');
  adaOperator = await findOperator(server.services.db, 'ada');
});
afterAll(() => server.stop());

async function auditOf(tool: string) {
  return server.services.audit.list({ project: 'shop', limit: 200, tool });
}

describe('POST /api/v1/assistant/tools/{name}', () => {
  it('answers 404 with a sentence for an unknown tool', async () => {
    const answer = await ada.post('/api/v1/assistant/tools/drop_tables', {});
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'no such tool: drop_tables; GET /api/v1/assistant/tools lists them' });
  });

  it('answers 422 naming the field when the input does not match the schema', async () => {
    const wrongType = await ada.post('/api/v1/assistant/tools/list_members', { project: 7 });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body).toEqual({ error: 'list_members: input.project must be string' });
    const unknown = await ada.post('/api/v1/assistant/tools/whoami', { verbose: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ error: 'whoami: input has an unknown property verbose; remove it' });
    const notObject = await ada.post('/api/v1/assistant/tools/whoami', [1]);
    expect(notObject.status).toBe(422);
  });

  it('fills in nothing: a scoped tool without its project is a 422', async () => {
    const answer = await ada.post('/api/v1/assistant/tools/list_environments', {});
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: 'list_environments: input.project is missing; name the project (nothing filled it in)' });
    const noEnvironment = await ada.post('/api/v1/assistant/tools/list_secrets', { project: 'shop' });
    expect(noEnvironment.status).toBe(422);
  });

  it('answers a project or environment the caller cannot see with is_error, not a status', async () => {
    const answer = await dev.post('/api/v1/assistant/tools/list_environments', { project: 'secret-project' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ tool: 'list_environments', is_error: true, result: { error: 'no such project: secret-project' } });
    const env = await dev.post('/api/v1/assistant/tools/list_secrets', { project: 'shop', environment: 'moon' });
    expect(env.body).toEqual({ tool: 'list_secrets', is_error: true, result: { error: 'no such environment: moon in shop' } });
  });

  it('records one audit entry per run, with how it came and its outcome', async () => {
    const before = (await auditOf('list_members')).length;
    await ada.post('/api/v1/assistant/tools/list_members', { project: 'shop' }, { headers: { 'x-aion-via': 'console' } });
    await ada.post('/api/v1/assistant/tools/list_members', { project: 'shop' });
    const entries = await auditOf('list_members');
    expect(entries.length - before).toBe(2);
    expect(entries[0]).toMatchObject({ operator: 'ada', via: 'rest', outcome: 'ok', project: 'shop', input: { project: 'shop' } });
    expect(entries[1]).toMatchObject({ via: 'console' });

    await dev.post('/api/v1/assistant/tools/create_environment', { project: 'shop', name: 'nope' });
    const [refused] = await auditOf('create_environment');
    expect(refused).toMatchObject({ operator: 'dev', outcome: 'refused', error: 'you need environment:manage on shop; your role there is developer' });
  });

  it('rolls a failed write back and still audits it as an error', async () => {
    const answer = await ada.post('/api/v1/assistant/tools/remove_member', { project: 'shop', operator: 'ada' });
    expect(answer.body).toMatchObject({ is_error: true, result: { error: 'cannot remove ada, the last admin of shop; make another member admin first' } });
    const [entry] = await auditOf('remove_member');
    expect(entry).toMatchObject({ outcome: 'error', operator: 'ada' });
    const members = (await ada.get('/api/v1/projects/shop/members')).body as { operator: string }[];
    expect(members.map((m) => m.operator)).toContain('ada');
  });
});

describe('the executor for callers with a scope', () => {
  const run = (name: string, input: unknown, extra: object = {}) =>
    server.services.executor.run({ operator: adaOperator, via: 'mcp', ...extra }, name, input);

  it('fills project and environment the input leaves out from the caller’s scope', async () => {
    const outcome = await run('list_secrets', {}, { scope: { project: 'shop', environment: 'production' } });
    expect(outcome).toMatchObject({ is_error: false, result: { project: 'shop', environment: 'production' } });
    const explicit = await run('list_secrets', { environment: 'staging' }, { scope: { project: 'shop', environment: 'production' } });
    expect(explicit.result).toMatchObject({ environment: 'staging' });
  });

  it('refuses a write in read-only mode at execution, whatever the client sends', async () => {
    const outcome = await run('create_environment', { project: 'shop', name: 'sneaky' }, { readOnly: true });
    expect(outcome).toMatchObject({
      is_error: true,
      result: { error: 'create_environment is a write tool, and this connection is read-only' },
    });
    const envs = await run('list_environments', { project: 'shop' }, { readOnly: true });
    expect(JSON.stringify(envs.result)).not.toContain('sneaky');
  });

  it('knows only the tools a filter names', async () => {
    const only = new Set(['whoami']);
    expect((await run('whoami', {}, { only })).is_error).toBe(false);
    const error = await run('list_projects', {}, { only }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe('not_found');
  });
});

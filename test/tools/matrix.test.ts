// Every tool of the catalogue: its happy path, and its refusal for each role
// that lacks its permission. A tool missing from HAPPY fails the first test,
// so a new tool cannot skip this.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, ENVIRONMENT_PERMISSIONS, refusal, type Permission } from '../../src/access/can.js';
import type { Role } from '../../src/store/schema.js';
import { ROLES } from '../../src/wire/role.js';
import { CATALOGUE } from '../../src/tools/catalogue/index.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Happy {
  input: Record<string, unknown>;
  /** What the result must hold. */
  expect: Record<string, unknown>;
  /** Makes what the call needs first (a change request), and adds to the input. */
  before?: () => Promise<Record<string, unknown>>;
}

// In running order: later cases rely on what earlier ones did.
const HAPPY: Record<string, Happy> = {
  whoami: { input: {}, expect: { operator: 'ada', owner: true } },
  list_projects: { input: {}, expect: { projects: [expect.objectContaining({ slug: 'shop', role: 'admin' })] } },
  explain: { input: { concept: 'rollback' }, expect: { id: 'rollback', title: 'Rollback' } },
  list_environments: {
    input: { project: 'shop' },
    expect: { project: 'shop', environments: expect.arrayContaining([expect.objectContaining({ name: 'production', protected: true })]) },
  },
  create_environment: { input: { project: 'shop', name: 'qa' }, expect: { environment: 'qa', protected: false } },
  set_environment_protection: {
    input: { project: 'shop', environment: 'qa', protected: true },
    expect: { environment: 'qa', protected: true, was: { protected: false, approvals_required: 1 } },
  },
  list_members: { input: { project: 'shop' }, expect: { members: expect.arrayContaining([{ operator: 'vic', role: 'viewer' }]) } },
  set_member_role: { input: { project: 'shop', operator: 'temp', role: 'viewer' }, expect: { member: expect.objectContaining({ operator: 'temp', added: true }) } },
  remove_member: { input: { project: 'shop', operator: 'temp' }, expect: { removed: 'temp' } },
  list_secrets: { input: { project: 'shop', environment: 'staging' }, expect: { secrets: expect.arrayContaining([expect.objectContaining({ name: 'DATABASE_URL' })]) } },
  set_secret: { input: { project: 'shop', environment: 'staging', name: 'API_KEY', value: 'k-1' }, expect: { secret: expect.objectContaining({ name: 'API_KEY', version: 1 }) } },
  delete_secret: { input: { project: 'shop', environment: 'staging', name: 'API_KEY' }, expect: { deleted: 'API_KEY' } },
  list_documents: { input: { project: 'shop' }, expect: {} },
  read_document: { input: { project: 'shop', path: 'app.yaml' }, expect: {} },
  list_revisions: { input: { project: 'shop', path: 'app.yaml' }, expect: { path: 'app.yaml', revisions: expect.any(Array) } },
  check_document: { input: { project: 'shop', environment: 'staging', path: 'app.yaml' }, expect: {} },
  write_document: { input: { project: 'shop', path: 'notes.yaml', text: 'note: hello\n' }, expect: {} },
  diff_document: { input: { project: 'shop', path: 'app.yaml', environment: 'staging' }, expect: {} },
  delete_document: { input: { project: 'shop', path: 'notes.yaml' }, expect: {} },
  deploy: { input: { project: 'shop', environment: 'staging', path: 'app.yaml' }, expect: {} },
  rollback: { input: { project: 'shop', environment: 'staging', path: 'app.yaml' }, expect: {} },
  list_deployments: { input: { project: 'shop', environment: 'staging' }, expect: {} },
  get_live_config: { input: { project: 'shop', environment: 'staging' }, expect: {} },
  read_audit: { input: { project: 'shop', limit: 5 }, expect: { entries: expect.any(Array) } },
  // qa requires two approvals from here on: olive's changes there are change requests ada decides.
  list_change_requests: { input: { project: 'shop' }, expect: { change_requests: expect.any(Array) }, before: () => requestOnQa('LISTED').then(() => ({})) },
  get_change_request: { input: {}, expect: { tool: 'set_secret', status: 'pending' }, before: () => requestOnQa('READ') },
  approve_change_request: { input: {}, expect: { status: 'approved', decided_by: 'ada' }, before: () => requestOnQa('APPROVED') },
  decline_change_request: { input: { comment: 'not now' }, expect: { status: 'declined', comment: 'not now' }, before: () => requestOnQa('DECLINED') },
};

/** A change request of olive's on qa (protected earlier in the run), where ada requires two approvals first. */
async function requestOnQa(name: string): Promise<{ id: string }> {
  await call('ada', 'set_environment_protection', { project: 'shop', environment: 'qa', approvals_required: 2 });
  const answer = await call('olive', 'set_secret', { project: 'shop', environment: 'qa', name, value: 'v' });
  return { id: (answer.body as { result: { change_request: { id: string } } }).result.change_request.id };
}

const ENVIRONMENT_TOOLS = new Set(CATALOGUE.filter((t) => t.scope === 'environment').map((t) => t.name));
const DEMO_ROLE: Record<Role, string> = { viewer: 'vic', developer: 'dev', operator: 'olive', admin: 'ada' };

let server: TestServer;
let as: Record<string, Client>;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  as = Object.fromEntries(Object.entries(server.demoTokens).map(([name, token]) => [name, client(server.url, token)]));
  const created = await client(server.url, server.adminToken).post('/api/v1/operators', { name: 'temp' });
  expect(created.status).toBe(201);
});
afterAll(() => server.stop());

const call = (who: string, tool: string, input: unknown) => {
  const caller = as[who];
  if (!caller) throw new Error(`no demo operator ${who}`);
  return caller.post(`/api/v1/assistant/tools/${tool}`, input);
};

describe('the tool matrix', () => {
  it('has a happy path for every tool, and the catalogue holds the 22 tools of DESIGN.md §3 plus list_revisions, set_environment_protection and the four of change requests', () => {
    expect(CATALOGUE.map((t) => t.name).sort()).toEqual(Object.keys(HAPPY).sort());
    expect(CATALOGUE).toHaveLength(28);
  });

  it.each(Object.entries(HAPPY))('%s: runs for an admin', async (name, happy) => {
    const answer = await call('ada', name, { ...happy.input, ...(await happy.before?.()) });
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body as { tool: string; is_error: boolean; result: Record<string, unknown> };
    expect(body.is_error, JSON.stringify(body.result)).toBe(false);
    expect(body.tool).toBe(name);
    expect(body.result).toMatchObject(happy.expect);
  });

  const refusals = CATALOGUE.flatMap((tool) => {
    if (!tool.permission) return [];
    const permission = tool.permission as Permission;
    // Environment tools are refused where it matters most: the protected production.
    const production = { name: 'production', protected: true };
    const environment = ENVIRONMENT_TOOLS.has(tool.name) ? production : null;
    return ROLES.filter((role) => !can(role, permission, environment)).map((role) => ({ tool: tool.name, role, permission, environment }));
  });

  it('refuses at least one role for every permissioned tool but the project reads', () => {
    const refusedTools = new Set(refusals.map((r) => r.tool));
    for (const tool of CATALOGUE) {
      if (tool.permission && tool.permission !== 'project:read') expect(refusedTools.has(tool.name), tool.name).toBe(true);
    }
  });

  it.each(refusals)('$tool: refused for a $role with the missing permission', async ({ tool, role, permission, environment }) => {
    const happy = HAPPY[tool];
    if (!happy) throw new Error(`no happy path for ${tool}`);
    const input = environment ? { ...happy.input, environment: environment.name } : happy.input;
    const answer = await call(DEMO_ROLE[role], tool, input);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      tool,
      is_error: true,
      result: { error: refusal(role, permission, 'shop', environment) },
    });
  });

  const DECIDING = new Set(['approve_change_request', 'decline_change_request']);
  it('reports `allowed` as can() does, for each role, on production', async () => {
    for (const role of ROLES) {
      const answer = await as[DEMO_ROLE[role]]?.get('/api/v1/assistant/tools?project=shop&environment=production');
      const tools = (answer?.body as { tools: { name: string; permission: string | null; allowed: boolean }[] }).tools;
      for (const tool of tools) {
        // Deciding a change request takes deploy or secret:write on one of shop's environments (staging or production).
        const decides = DECIDING.has(tool.name) && [...ENVIRONMENT_PERMISSIONS].some((p) => [true, false].some((protectedOne) => can(role, p, { protected: protectedOne })));
        const expected = DECIDING.has(tool.name) ? decides : tool.permission === null || can(role, tool.permission as Permission, { protected: true });
        expect(tool.allowed, `${role} ${tool.name}`).toBe(expected);
      }
    }
  });
});

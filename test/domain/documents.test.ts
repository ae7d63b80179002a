// Documents through the tools, as the demo operators call them: revisions,
// stale and racing writes, delete while live, diff, and checks against the
// project's schema and an environment's secrets.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STORE_KINDS } from '../helpers/store.js';
import { callTool, demoClients, mustCall, mustFail } from '../helpers/tools.js';

const project = 'shop';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe.each(STORE_KINDS)('documents (%s)', (kind) => {
  let server: TestServer;
  let ada: Client, dev: Client, vic: Client;

  beforeAll(async () => {
    server = await startTestServer(kind, { demo: true });
    ({ ada, dev, vic } = demoClients(server));
  });
  afterAll(() => server.stop());

  it('lists the demo documents with their current and live revisions', async () => {
    const { documents } = await mustCall(vic, 'list_documents', { project });
    expect(documents).toEqual([
      { path: 'aion.schema.yaml', revision: 1, updated_at: expect.any(String), live: {} },
      { path: 'app.yaml', revision: 2, updated_at: expect.any(String), live: { staging: 2, production: 1 } },
    ]);
  });

  it('saves every write as a new revision and reads any of them', async () => {
    const first = 'service: flags\nport: 1\n';
    const created = await mustCall(dev, 'write_document', { project, path: 'flags.yaml', text: first, message: 'add flags' });
    expect(created).toEqual({
      project,
      path: 'flags.yaml',
      revision: 1,
      sha256: sha256(first),
      size: first.length,
      diagnostics: { staging: [], production: [] },
    });

    const second = 'service: flags\nport: 2\n';
    const saved = await mustCall(dev, 'write_document', { project, path: 'flags.yaml', text: second, base_revision: 1 });
    expect(saved).toMatchObject({ revision: 2, sha256: sha256(second) });

    const current = await mustCall(vic, 'read_document', { project, path: 'flags.yaml' });
    expect(current).toMatchObject({ path: 'flags.yaml', revision: 2, current_revision: 2, text: second, author: 'dev', message: null });
    const old = await mustCall(vic, 'read_document', { project, path: 'flags.yaml', revision: 1 });
    expect(old).toMatchObject({ revision: 1, current_revision: 2, text: first, message: 'add flags', sha256: sha256(first) });

    expect(await mustFail(vic, 'read_document', { project, path: 'flags.yaml', revision: 9 })).toBe(
      'flags.yaml has no r9; its revisions are r1 to r2',
    );
    expect(await mustFail(vic, 'read_document', { project, path: 'nope.yaml' })).toBe(
      'no such document: nope.yaml; list_documents shows the paths',
    );
  });

  it('lists revisions newest first with author, time, size and message, and pages them', async () => {
    const listed = await mustCall(vic, 'list_revisions', { project, path: 'flags.yaml' });
    expect(listed).toEqual({
      project,
      path: 'flags.yaml',
      current_revision: 2,
      revisions: [
        { revision: 2, author: 'dev', created_at: expect.any(String), size: 23, sha256: sha256('service: flags\nport: 2\n'), message: null },
        { revision: 1, author: 'dev', created_at: expect.any(String), size: 23, sha256: sha256('service: flags\nport: 1\n'), message: 'add flags' },
      ],
    });
    const revisions = listed.revisions as { created_at: string }[];
    expect(Date.parse(revisions[0]?.created_at ?? '')).toBeGreaterThanOrEqual(Date.parse(revisions[1]?.created_at ?? ''));
    const page = await mustCall(vic, 'list_revisions', { project, path: 'flags.yaml', limit: 1, before: 2 });
    expect((page.revisions as { revision: number }[]).map((r) => r.revision)).toEqual([1]);
    expect(await mustFail(vic, 'list_revisions', { project, path: 'nope.yaml' })).toBe(
      'no such document: nope.yaml; list_documents shows the paths',
    );
    expect((await callTool(vic, 'list_revisions', { project, path: 'flags.yaml', limit: 0 })).status).toBe(422);
  });

  it("saves a broken draft and answers each environment's diagnostics at once", async () => {
    await mustCall(dev, 'set_secret', { project, environment: 'staging', name: 'ONLY_STAGING', value: 'v' });
    const text = 'service: draft\nport: 1\nx: ${secret:ONLY_STAGING}\n';
    const saved = await mustCall(dev, 'write_document', { project, path: 'draft.yaml', text });
    expect(saved).toMatchObject({ revision: 1, diagnostics: { staging: [] } });
    const production = (saved.diagnostics as Record<string, { line: number; column: number; message: string }[]>).production;
    expect(production).toEqual([
      { line: 3, column: 4, message: expect.stringMatching(/^secret ONLY_STAGING is not set in this environment/) },
    ]);
    const broken = await mustCall(dev, 'write_document', { project, path: 'draft.yaml', text: 'port: high\n', base_revision: 1 });
    expect(broken.revision).toBe(2);
    for (const environment of ['staging', 'production']) {
      expect((broken.diagnostics as Record<string, unknown[]>)[environment]?.length, environment).toBeGreaterThan(0);
    }
    expect(await mustCall(vic, 'read_document', { project, path: 'draft.yaml' })).toMatchObject({ revision: 2, text: 'port: high\n' });
  });

  it('refuses a stale write, and one without a base on an existing document, overwriting nothing', async () => {
    const stale = await mustFail(dev, 'write_document', { project, path: 'flags.yaml', text: 'port: 9\n', base_revision: 1 });
    expect(stale).toBe('flags.yaml is at r2 and the write named base_revision 1; read r2 and redo the change on it');
    const blind = await mustFail(dev, 'write_document', { project, path: 'flags.yaml', text: 'port: 9\n' });
    expect(blind).toBe('flags.yaml is at r2 and the write named no base_revision; read r2 and redo the change on it');
    const ghost = await mustFail(dev, 'write_document', { project, path: 'ghost.yaml', text: 'a: 1\n', base_revision: 3 });
    expect(ghost).toBe('ghost.yaml does not exist (it may have been deleted); leave base_revision out to create it');

    const current = await mustCall(vic, 'read_document', { project, path: 'flags.yaml' });
    expect(current).toMatchObject({ revision: 2, text: 'service: flags\nport: 2\n' });
    expect(await mustFail(vic, 'read_document', { project, path: 'flags.yaml', revision: 3 })).toMatch(/has no r3/);
  });

  it('lets exactly one of two racing writes on the same base land', async () => {
    const texts = ['service: flags\nport: 31\n', 'service: flags\nport: 32\n'];
    const answers = await Promise.all(
      texts.map((text) => callTool(dev, 'write_document', { project, path: 'flags.yaml', text, base_revision: 2 })),
    );
    const landed = answers.filter((a) => !a.is_error);
    const refused = answers.filter((a) => a.is_error);
    expect(landed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.result.error).toBe(
      'flags.yaml is at r3 and the write named base_revision 2; read r3 and redo the change on it',
    );
    const winner = texts[answers.indexOf(landed[0] ?? answers[0]!)];
    expect(await mustCall(vic, 'read_document', { project, path: 'flags.yaml' })).toMatchObject({ revision: 3, text: winner });
  });

  it('lets exactly one of two racing creations of one path land', async () => {
    const answers = await Promise.all(
      ['a: 1\n', 'a: 2\n'].map((text) => callTool(dev, 'write_document', { project, path: 'race.yaml', text })),
    );
    expect(answers.filter((a) => !a.is_error)).toHaveLength(1);
    expect(answers.find((a) => a.is_error)?.result.error).toMatch(/^race\.yaml (is at r1|was created by someone else)/);
    expect(await mustCall(vic, 'read_document', { project, path: 'race.yaml' })).toMatchObject({ revision: 1 });
  });

  it('refuses writes to viewers, bad paths and unknown properties', async () => {
    expect(await mustFail(vic, 'write_document', { project, path: 'x.yaml', text: 'a: 1\n' })).toBe(
      'you need document:write on shop; your role there is viewer',
    );
    expect(await mustFail(dev, 'write_document', { project, path: '../x.yaml', text: 'a: 1\n' })).toBe(
      'the path "../x.yaml" has a ".." segment; paths cannot leave the project',
    );
    expect(await mustFail(dev, 'write_document', { project, path: 'x.txt', text: 'a: 1\n' })).toBe(
      'the path "x.txt" must end in .yaml, .yml or .json',
    );
    const unknown = await callTool(dev, 'write_document', { project, path: 'x.yaml', text: '', extra: 1 });
    expect(unknown).toMatchObject({ status: 422, result: { error: 'write_document: input has an unknown property extra; remove it' } });
    const notInteger = await callTool(dev, 'read_document', { project, path: 'app.yaml', revision: 1.5 });
    expect(notInteger.status).toBe(422);
  });

  it('diffs two revisions, and the current revision against what is live', async () => {
    const { diff, from, to } = await mustCall(vic, 'diff_document', { project, path: 'flags.yaml', from: 1, to: 2 });
    expect({ from, to }).toEqual({ from: 1, to: 2 });
    expect(diff).toBe(
      ['--- flags.yaml\tr1', '+++ flags.yaml\tr2', '@@ -1,2 +1,2 @@', ' service: flags', '-port: 1', '+port: 2', ''].join('\n'),
    );
    expect(await mustCall(vic, 'diff_document', { project, path: 'flags.yaml', to: 2 })).toMatchObject({ from: 1, to: 2, diff });
    expect(await mustCall(vic, 'diff_document', { project, path: 'flags.yaml', from: 2, to: 2 })).toMatchObject({ diff: '' });
    const fromNothing = await mustCall(vic, 'diff_document', { project, path: 'flags.yaml', to: 1 });
    expect(fromNothing).toMatchObject({ from: null, to: 1 });
    expect(fromNothing.diff).toContain('--- flags.yaml\t(empty)');

    const app = (await mustCall(vic, 'read_document', { project, path: 'app.yaml' })).text as string;
    await mustCall(dev, 'write_document', { project, path: 'app.yaml', text: app.replace('port: 8080', 'port: 8081'), base_revision: 2 });
    const staging = await mustCall(vic, 'diff_document', { project, path: 'app.yaml', environment: 'staging' });
    expect(staging).toMatchObject({ from: 2, to: 3 });
    expect(staging.diff).toContain('--- app.yaml\tr2 (live in staging)\n+++ app.yaml\tr3\n');
    expect(staging.diff).toContain('-port: 8080\n+port: 8081\n');
    const production = await mustCall(vic, 'diff_document', { project, path: 'app.yaml', environment: 'production', to: 2 });
    expect(production).toMatchObject({ from: 1, to: 2 });
    expect(production.diff).toContain('-  new_checkout: false\n+  new_checkout: true\n');

    expect(await mustFail(vic, 'diff_document', { project, path: 'flags.yaml', environment: 'staging' })).toBe(
      'flags.yaml is not live in staging; there is nothing to compare with',
    );
    expect(await mustFail(vic, 'diff_document', { project, path: 'app.yaml', environment: 'staging', from: 1 })).toMatch(
      /^name either from or environment/,
    );
    expect(await mustFail(vic, 'diff_document', { project, path: 'app.yaml', environment: 'qa' })).toBe(
      'no such environment: qa in shop',
    );
  });

  it('checks text against the schema and the environment secrets, at the offending line', async () => {
    const text = 'service: shop\nport: high\ndatabase:\n  url: ${secret:MISSING}\n';
    const checked = await mustCall(vic, 'check_document', { project, environment: 'staging', path: 'app.yaml', text });
    expect(checked).toMatchObject({ project, environment: 'staging', path: 'app.yaml', revision: null, ok: false });
    const diagnostics = checked.diagnostics as { line: number; column: number; message: string }[];
    expect(diagnostics.map((d) => [d.line, d.column])).toEqual([
      [2, 7],
      [4, 8],
    ]);
    expect(diagnostics[1]?.message).toBe('secret MISSING is not set in this environment; set it with set_secret or remove the reference');

    const stored = await mustCall(vic, 'check_document', { project, environment: 'production', path: 'app.yaml', revision: 1 });
    expect(stored).toMatchObject({ revision: 1, diagnostics: [], ok: true });
    const current = await mustCall(vic, 'check_document', { project, environment: 'production', path: 'app.yaml' });
    expect(current).toMatchObject({ revision: 3, ok: true });

    expect(await mustFail(vic, 'check_document', { project, environment: 'staging', path: 'app.yaml', text, revision: 1 })).toMatch(
      /^give either text or revision/,
    );
    const missingScope = await callTool(vic, 'check_document', { project, path: 'app.yaml' });
    expect(missingScope.status).toBe(422);
  });

  it('checks the schema document as a schema, and reports a broken schema in every check', async () => {
    const broken = 'type: object\nproperties:\n  port: { type: 12 }\n';
    const asSchema = await mustCall(vic, 'check_document', {
      project,
      environment: 'staging',
      path: 'aion.schema.yaml',
      text: broken,
    });
    expect(asSchema.ok).toBe(false);
    expect((asSchema.diagnostics as { line: number }[])[0]?.line).toBe(3);

    const schema = await mustCall(vic, 'read_document', { project, path: 'aion.schema.yaml' });
    await mustCall(dev, 'write_document', { project, path: 'aion.schema.yaml', text: broken, base_revision: 1 });
    const checked = await mustCall(vic, 'check_document', { project, environment: 'staging', path: 'app.yaml' });
    expect(checked.ok).toBe(false);
    expect((checked.diagnostics as { message: string }[])[0]?.message).toMatch(
      /^the project schema aion\.schema\.yaml r2 is broken \(3:\d+ .+\); fix it, then check again$/,
    );
    await mustCall(dev, 'write_document', { project, path: 'aion.schema.yaml', text: schema.text, base_revision: 2 });
    expect(await mustCall(vic, 'check_document', { project, environment: 'staging', path: 'app.yaml' })).toMatchObject({ ok: true });
  });

  it('refuses to delete a live document, and deletes one live nowhere with its revisions', async () => {
    expect(await mustFail(dev, 'delete_document', { project, path: 'app.yaml' })).toBe(
      'app.yaml is live in production and staging; a live document cannot be deleted',
    );
    expect(await mustCall(vic, 'read_document', { project, path: 'app.yaml', revision: 1 })).toMatchObject({ revision: 1 });

    expect(await mustFail(vic, 'delete_document', { project, path: 'flags.yaml' })).toBe(
      'you need document:write on shop; your role there is viewer',
    );
    expect(await mustCall(dev, 'delete_document', { project, path: 'flags.yaml' })).toEqual({ project, deleted: 'flags.yaml' });
    expect(await mustFail(vic, 'read_document', { project, path: 'flags.yaml' })).toMatch(/^no such document: flags\.yaml/);
    expect(await mustFail(dev, 'delete_document', { project, path: 'flags.yaml' })).toMatch(/^no such document/);

    const again = await mustCall(dev, 'write_document', { project, path: 'flags.yaml', text: 'service: f\nport: 1\n' });
    expect(again.revision).toBe(1);
    const paths = ((await mustCall(ada, 'list_documents', { project })).documents as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(['aion.schema.yaml', 'app.yaml', 'draft.yaml', 'flags.yaml', 'race.yaml']);
  });

  it('audits every delete, refused, failed or done', async () => {
    const { entries } = await mustCall(ada, 'read_audit', { project, tool: 'delete_document', limit: 5 });
    const outcomes = (entries as { outcome: string; operator: string }[]).map((e) => `${e.operator}:${e.outcome}`);
    // Refusals and failures are queued, writes commit with their entry: compare without order.
    expect(outcomes.sort()).toEqual(['dev:error', 'dev:error', 'dev:ok', 'vic:refused']);
  });
});

// The store's behaviour through the services, the same on PGlite and on the
// machine's PostgreSQL (AION_TEST_DATABASE_URL; CI sets it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember, setMemberRole } from '../../src/access/memberships.js';
import { createOperator, findOperator, type Operator } from '../../src/access/operators.js';
import { Authenticator, listTokens, mintToken, revokeToken } from '../../src/access/tokens.js';
import { ProjectDirectory } from '../../src/domain/project-directory.js';
import { createProject, findEnvironment, listProjects } from '../../src/domain/projects.js';
import { AppError } from '../../src/errors.js';
import { Changes } from '../../src/store/changes.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/store.js';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe.each(STORE_KINDS)('store on %s', (kind) => {
  let t: TestStore;
  let changes: Changes;
  let directory: ProjectDirectory;
  let auth: Authenticator;
  const openProject = (operator: Parameters<ProjectDirectory['open']>[0], slug: string) => directory.open(operator, slug);
  beforeAll(async () => {
    t = await openTestStore(kind);
    changes = await Changes.open(t.store, { warn: () => {}, info: () => {} });
    directory = new ProjectDirectory(t.store.db, changes);
    auth = new Authenticator(t.store.db, changes);
  });
  afterAll(() => t.cleanup());

  it('creates projects with staging and a protected production, visible to owners and members only', async () => {
    const db = t.store.db;
    const owner = await createOperator(db, { name: 'olga', owner: true });
    const member = await createOperator(db, { name: 'mel', owner: false });
    const stranger = await createOperator(db, { name: 'stan', owner: false });

    const create = (operator: Operator, input: { slug: string; name?: string }) =>
      changes.transaction(db, (tx, touch) => createProject(tx, touch, operator, input));
    await create(owner, { slug: 'alpha', name: 'Alpha' });
    expect((await listProjects(directory, owner))[0]).toEqual({
      slug: 'alpha',
      name: 'Alpha',
      role: 'admin',
      environments: [
        { name: 'production', protected: true, approvals_required: 1, requester_may_approve: false },
        { name: 'staging', protected: false, approvals_required: 1, requester_may_approve: false },
      ],
    });
    const alpha = await openProject(owner, 'alpha');
    expect(await setMemberRole(db, alpha, 'mel', 'developer')).toEqual({ operator: 'mel', role: 'developer', added: true });
    await changes.transaction(db, async (_tx, touch) => touch(`project:${alpha.id}`));

    expect((await listProjects(directory, member)).map((p) => [p.slug, p.role])).toEqual([['alpha', 'developer']]);
    expect(await listProjects(directory, stranger)).toEqual([]);
    expect((await failure(openProject(stranger, 'alpha'))).kind).toBe('not_found');
    expect((await failure(create(owner, { slug: 'alpha' }))).kind).toBe('conflict');
    expect(findEnvironment(alpha, 'production').protected).toBe(true);
    expect(() => findEnvironment(alpha, 'qa')).toThrow('no such environment: qa in alpha');
  });

  it('keeps one role per member and never loses the last admin', async () => {
    const db = t.store.db;
    const owner = await findOperator(db, 'olga');
    const alpha = await openProject(owner, 'alpha');
    await createOperator(db, { name: 'ann', owner: false });

    expect((await setMemberRole(db, alpha, 'mel', 'operator')).added).toBe(false);
    await setMemberRole(db, alpha, 'ann', 'viewer');
    // The directory holds the members (list_members reads them there), as the executor's writes leave it: told of the change.
    const membersOf = async () => {
      await changes.transaction(db, async (_tx, touch) => touch(`project:${alpha.id}`));
      return (await openProject(owner, 'alpha')).members;
    };
    expect(await membersOf()).toEqual([
      { operator: 'ann', role: 'viewer' },
      { operator: 'mel', role: 'operator' },
      { operator: 'olga', role: 'admin' },
    ]);

    const last = await failure(removeMember(db, alpha, 'olga'));
    expect(last.kind).toBe('conflict');
    expect(last.message).toBe('cannot remove olga, the last admin of alpha; make another member admin first');
    expect((await failure(setMemberRole(db, alpha, 'olga', 'viewer'))).kind).toBe('conflict');

    await setMemberRole(db, alpha, 'mel', 'admin');
    await removeMember(db, alpha, 'olga');
    expect((await membersOf()).map((m) => m.operator)).toEqual(['ann', 'mel']);
    expect((await failure(removeMember(db, alpha, 'olga'))).kind).toBe('not_found');
    expect((await failure(setMemberRole(db, alpha, 'nobody', 'viewer'))).message).toBe('no such operator: nobody');
  });

  it('stores tokens as hashes, lists them without the token, and refuses revoked ones', async () => {
    const db = t.store.db;
    const mel = await findOperator(db, 'mel');
    const minted = await mintToken(db, { operatorId: mel.id, name: 'ci', kind: 'operator' });
    expect(minted.token).toMatch(/^aion_[A-Za-z0-9_-]{43}$/);
    const caller = await auth.authenticate(minted.token);
    expect(caller).toMatchObject({ kind: 'operator', operator: { name: 'mel' } });

    const listed = await listTokens(db, mel.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(minted.token);
    expect(listed[0]?.last_used_at).not.toBeNull();

    const revoke = (id: string) => changes.transaction(db, (tx, touch) => revokeToken(tx, touch, mel.id, id));
    await revoke(minted.id);
    expect(await auth.authenticate(minted.token)).toBeNull();
    expect((await failure(revoke(minted.id))).kind).toBe('not_found');
    expect((await failure(revoke('not-a-uuid'))).kind).toBe('not_found');
  });

  it('ties a service token to one environment', async () => {
    const db = t.store.db;
    const owner = await findOperator(db, 'olga');
    const alpha = await openProject(owner, 'alpha');
    const staging = findEnvironment(alpha, 'staging');
    const minted = await mintToken(db, { operatorId: owner.id, name: 'web', kind: 'service', environmentId: staging.id });
    expect(minted.token).toMatch(/^aion_svc_/);
    expect(await auth.authenticate(minted.token)).toMatchObject({ kind: 'service', environmentId: staging.id });
    expect((await listTokens(db, owner.id)).find((x) => x.id === minted.id)).toMatchObject({
      kind: 'service',
      project: 'alpha',
      environment: 'staging',
    });
  });

  it('refuses duplicate operator names with a sentence', async () => {
    const error = await failure(createOperator(t.store.db, { name: 'mel', owner: false }));
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe('an operator named mel already exists; pick another name');
  });
});

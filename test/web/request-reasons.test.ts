// Issue 29 in the console, beyond deploy: a rollback or a secret set/delete
// that opens a change request asks "Why (shown to the approvers)" — nothing
// is asked without it — and the reason is on the request and in the audit;
// the protection settings offer 1–6 approvals and the "requester may approve"
// switch, which is refused (disabled, with the reason) where N is 1, as the
// API refuses it.
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleForFile, runToolAs } from './fixture.js';
import { client, type Client } from '../helpers/http.js';

const ui = consoleForFile();
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
  // r2 live in production too (while one approval is enough), so production has a rollback to ask for.
  await runToolAs(ui, 'ada', 'deploy', { project: 'shop', environment: 'production', path: 'app.yaml', revision: 2 });
  await runToolAs(ui, 'ada', 'set_environment_protection', { project: 'shop', environment: 'production', approvals_required: 2 });
});

interface Request {
  id: string;
  tool: string;
  reason: string | null;
  input: Record<string, unknown>;
}

async function requestOf(tool: string): Promise<Request | undefined> {
  const listed = (await ada.get('/api/v1/change-requests?project=shop&status=pending')).body as Request[];
  return listed.find((r) => r.tool === tool);
}

async function openedEntry(tool: string): Promise<{ input: { tool: string; input: { reason?: string } } } | undefined> {
  const audit = await runToolAs<{ entries: { input: { tool: string; input: { reason?: string } } }[] }>(ui, 'ada', 'read_audit', {
    project: 'shop',
    tool: 'change_request:open',
  });
  return audit.entries.find((e) => e.input.tool === tool);
}

describe('a change request asks why, whatever opens it', () => {
  it('Rollback in production asks why; the reason is on the request and in the audit', async () => {
    const { page, errors } = await ui.open('olive', '/projects/shop/environments/production');
    await page.getByRole('button', { name: 'Rollback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll back app.yaml in production' });
    await dialog.getByLabel('Environment name').fill('production');
    // Without a reason nothing is asked for.
    await dialog.getByRole('button', { name: 'Rollback' }).click();
    expect(await dialog.isVisible()).toBe(true);
    expect(await requestOf('rollback')).toBeUndefined();
    await dialog.getByLabel('Why (shown to the approvers)').fill('r2 breaks the health check');
    await dialog.getByRole('button', { name: 'Rollback' }).click();
    await page.getByRole('status').filter({ hasText: 'a change request was opened' }).waitFor();
    expect(await requestOf('rollback')).toMatchObject({ reason: 'r2 breaks the health check', input: { reason: 'r2 breaks the health check' } });
    expect((await openedEntry('rollback'))?.input.input.reason).toBe('r2 breaks the health check');
    expect(errors).toEqual([]);
  });

  it('setting and deleting a secret in production ask why; the value is never in the request', async () => {
    const { page, errors } = await ui.open('olive', '/projects/shop/environments/production');
    await page.getByLabel('Name', { exact: true }).fill('PAYMENT_KEY');
    await page.getByLabel('Value', { exact: true }).fill('pk-live-canary-7781');
    await page.getByRole('button', { name: 'Set secret' }).click();
    const set = page.getByRole('dialog', { name: 'Set PAYMENT_KEY in production' });
    expect(await set.textContent()).toContain('production requires 2 approvals');
    await set.getByLabel('Environment name').fill('production');
    await set.getByRole('button', { name: 'Set secret' }).click();
    expect(await set.isVisible()).toBe(true);
    await set.getByLabel('Why (shown to the approvers)').fill('rotate the payment key');
    await set.getByRole('button', { name: 'Set secret' }).click();
    await page.getByRole('status').filter({ hasText: 'a change request was opened' }).waitFor();
    const asked = await requestOf('set_secret');
    expect(asked).toMatchObject({ reason: 'rotate the payment key', input: { name: 'PAYMENT_KEY', value: '[redacted]', reason: 'rotate the payment key' } });
    expect(JSON.stringify(asked)).not.toContain('pk-live-canary-7781');
    expect((await openedEntry('set_secret'))?.input.input.reason).toBe('rotate the payment key');

    await page.getByRole('button', { name: 'Delete DATABASE_URL' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete DATABASE_URL from production' });
    await remove.getByLabel('Environment name').fill('production');
    await remove.getByLabel('Why (shown to the approvers)').fill('the database moved to the vault');
    await remove.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await requestOf('delete_secret'))?.reason, { timeout: 10_000 }).toBe('the database moved to the vault');
    expect((await openedEntry('delete_secret'))?.input.input.reason).toBe('the database moved to the vault');
    expect(errors).toEqual([]);
  });
});

describe('the protection settings in the console', () => {
  const project = async () =>
    ((await ada.get('/api/v1/projects/shop')).body as { environments: { name: string; approvals_required: number; requester_may_approve: boolean }[] }).environments.find(
      (e) => e.name === 'staging',
    );

  it('offer 1 to 6 approvals and the self-approval switch, refused where N is 1', async () => {
    await runToolAs(ui, 'ada', 'set_environment_protection', { project: 'shop', environment: 'staging', protected: true });
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging');
    const count = page.getByRole('combobox', { name: 'Approvals required' });
    await count.waitFor();
    expect(await count.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['1', '2', '3', '4', '5', '6']);
    const self = page.getByLabel('The requester may approve');
    // N = 1: nothing to approve, so the switch is off and says why.
    expect(await self.isDisabled()).toBe(true);
    expect(await self.isChecked()).toBe(false);
    const why = await self.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${why}"]`).textContent()).toMatch(/^With 1 approval nobody approves a change/);

    await count.selectOption('4');
    expect(await self.isDisabled()).toBe(false);
    await self.check();
    await page.getByRole('button', { name: 'Set approvals' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set the approvals of staging' });
    expect(await dialog.textContent()).toContain("staging would require 4 approvals for each change, and the requester may approve their own.");
    await dialog.getByLabel('Environment name').fill('staging');
    await dialog.getByRole('button', { name: 'Set approvals' }).click();
    await expect.poll(project, { timeout: 10_000 }).toMatchObject({ approvals_required: 4, requester_may_approve: true });
    await page.locator('p.muted', { hasText: "runs once 3 others approve, the requester's own approval counting as one" }).waitFor();

    // Back to 1: the switch turns off with it (the API would refuse it on), and at N = 4 that change is itself a request.
    await count.selectOption('1');
    expect(await self.isChecked()).toBe(false);
    expect(await self.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Set approvals' }).click();
    await dialog.getByLabel('Environment name').fill('staging');
    await dialog.getByRole('button', { name: 'Set approvals' }).click();
    await page.getByRole('status').filter({ hasText: 'a change request was opened' }).waitFor();
    expect(await requestOf('set_environment_protection')).toMatchObject({ input: { approvals_required: 1, requester_may_approve: false } });
    expect(errors).toEqual([]);
  });
});

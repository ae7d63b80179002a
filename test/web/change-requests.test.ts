// Two people for production (issue 21), in the console. With production at
// two approvals, olive's Deploy opens a change request instead of running
// (the editor says so, with a link); olive sees Approve refused with the
// sentence; ada's top bar counts it, live, and ada approves by typing the
// environment's name, so the deploy runs. A proposal accepted in a thread
// names its request and shows its result live. A secret change opens one too,
// declined with a comment. Screenshots and axe at 1440 and 390 px, light and dark.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { acceptInProduction, consoleForFile, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();
let ada: Client;
let olive: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
  olive = client(ui.server.url, ui.tokens.olive);
  await tool(ada, 'set_environment_protection', { project: 'shop', environment: 'production', approvals_required: 2 });
});

async function tool<T = Record<string, unknown>>(as: Client, name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await as.post(`/api/v1/assistant/tools/${name}`, input);
  const body = answer.body as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

const liveInProduction = async () =>
  (await tool<{ live: { revision: number }[] }>(ada, 'get_live_config', { project: 'shop', environment: 'production', path: 'app.yaml' })).live[0]?.revision;

async function shot(page: Page, name: string, selector: string): Promise<void> {
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  expect(await seriousViolations(page, selector)).toEqual([]);
}

describe('change requests', () => {
  it("olive's Deploy opens a request; olive may not approve it; ada's top bar counts it and ada approves by typing the name", async () => {
    const reviewer = await ui.open('ada', '/projects/shop/environments/production');
    const { page, errors } = await ui.open('olive', '/projects/shop/documents/app.yaml?environment=production');
    const before = await liveInProduction();

    const deploy = page.getByRole('button', { name: 'Deploy', exact: true });
    await expect.poll(() => deploy.getAttribute('aria-disabled')).toBeNull();
    await deploy.click();
    const confirm = page.getByRole('dialog', { name: 'Deploy to production' });
    await confirm.getByLabel('Environment name').fill('production');
    // A change request: the console asks why, for the approvers (issue 29); without it, nothing is asked.
    await confirm.getByRole('button', { name: 'Deploy' }).click();
    expect(await confirm.isVisible()).toBe(true);
    await confirm.getByLabel('Why (shown to the approvers)').fill('port 8081 for the new balancer');
    await confirm.getByRole('button', { name: 'Deploy' }).click();
    await page.getByRole('status').filter({ hasText: 'a change request was opened' }).waitFor();
    expect(await liveInProduction()).toBe(before);

    // The requester: Approve is refused, with the server's sentence; Withdraw is offered.
    await page.getByRole('link', { name: 'Open the change request' }).click();
    const card = page.locator('.card.request');
    const approve = card.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect(await approve.getAttribute('aria-disabled')).toBe('true');
    expect(await card.locator('.refusal').textContent()).toMatch(/^you asked for this change/);
    expect(await card.textContent()).toContain('Deploy app.yaml r2 to production');
    expect(await card.locator('dd.reason').first().textContent()).toBe('port 8081 for the new balancer');
    expect(await card.locator('.line-diff').textContent()).toContain('+ ');
    await card.getByRole('button', { name: 'Withdraw' }).waitFor();
    await shot(page, 'change-request-requester-light', '#page');

    // The reviewer's tab, open all along, counts it without a reload and leads to it.
    const count = reviewer.page.getByRole('link', { name: '1 change request to approve' });
    await count.click();
    const theirs = reviewer.page.locator('.card.request', { hasText: 'Deploy app.yaml r2 to production' });
    await theirs.getByRole('button', { name: 'Approve' }).click();
    const dialog = reviewer.page.getByRole('dialog', { name: 'Approve a change to production' });
    await dialog.locator('.line-diff').waitFor();
    const confirmApprove = dialog.getByRole('button', { name: 'Approve' });
    expect(await confirmApprove.isDisabled()).toBe(true);
    await shot(reviewer.page, 'change-request-approve-light', 'dialog[open]');
    // By keyboard: the name field has the focus; Enter approves once the name matches.
    await reviewer.page.keyboard.type('production');
    await reviewer.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await theirs.locator('.status', { hasText: /^approved$/ }).waitFor();
    expect(await liveInProduction()).toBe(2);
    await count.waitFor({ state: 'detached' });
    // The requester's page follows, live.
    await card.locator('.status', { hasText: /^approved$/ }).waitFor();
    expect(errors).toEqual([]);
    expect(reviewer.errors).toEqual([]);
  });

  it("a thread's accepted proposal names its request and shows its result when approved", async () => {
    await tool(ada, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: 2, text: 'service: shop\nport: 8081\n', message: 'a new port' });
    const { page, errors } = await ui.open('olive', '/projects/shop/environments/production');
    const card = await acceptInProduction(page, `/tool deploy ${JSON.stringify({ environment: 'production', path: 'app.yaml' })}`);
    const line = card.locator('.card-request');
    expect(await line.textContent()).toMatch(/^Change request pending: production of shop requires 2 approvals/);
    expect(await card.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    await shot(page, 'change-request-proposal-light', '[aria-label=Assistant]');

    const href = await line.getByRole('link', { name: 'Open the change request' }).getAttribute('href');
    const id = href?.split('/').pop() ?? '';
    expect((await ada.post(`/api/v1/change-requests/${id}/approve`, {})).status).toBe(200);
    await card.locator('.status', { hasText: /^accepted$/ }).waitFor();
    expect(await line.textContent()).toMatch(/^Change request approved: approved by ada; deploy ran\./);
    expect(errors).toEqual([]);
  });

  it('a secret change opens a request that ada declines with a comment; the page passes axe at 1440 and 390 px, light and dark', async () => {
    const { page, errors } = await ui.open('olive', '/projects/shop/environments/production');
    await page.getByLabel('Name', { exact: true }).fill('FEATURE_KEY');
    await page.getByLabel('Value').fill('s3cret');
    await page.getByRole('button', { name: 'Set secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set FEATURE_KEY in production' });
    await dialog.getByLabel('Environment name').fill('production');
    // A change request: the console asks why, for the approvers.
    await dialog.getByLabel('Why (shown to the approvers)').fill('the feature flag service needs it');
    await dialog.getByRole('button', { name: 'Set secret' }).click();
    await page.getByRole('status').filter({ hasText: 'a change request was opened' }).waitFor();

    const reviewer = await ui.open('ada', '/projects/shop/change-requests?show=for-me');
    const theirs = reviewer.page.locator('.card.request', { hasText: 'Set secret FEATURE_KEY in production' });
    await theirs.getByRole('button', { name: 'Decline' }).click();
    const decline = reviewer.page.getByRole('dialog', { name: 'Decline a change to production' });
    await reviewer.page.keyboard.type('Not before the audit on Friday.');
    await decline.getByRole('button', { name: 'Decline' }).click();
    await theirs.locator('.status', { hasText: /^declined$/ }).waitFor();
    expect(await theirs.textContent()).toContain('Not before the audit on Friday.');
    const secrets = await tool<{ secrets: { name: string }[] }>(ada, 'list_secrets', { project: 'shop', environment: 'production' });
    expect(secrets.secrets.map((s) => s.name)).not.toContain('FEATURE_KEY');

    // One more waits, so the page shows every state; each scheme and width is scanned.
    await tool(olive, 'rollback', { project: 'shop', environment: 'production', path: 'app.yaml', reason: 'the new port breaks the health check' });
    for (const scheme of ['light', 'dark'] as const) {
      const tab = await ui.open('ada', '/projects/shop/change-requests?show=all', scheme);
      await tab.page.locator('.card.request.pending').getByRole('button', { name: 'Approve' }).waitFor();
      for (const width of [1440, 390]) {
        await tab.page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
        await shot(tab.page, `change-requests-${width}-${scheme}`, 'body');
      }
      expect(tab.errors).toEqual([]);
    }
    expect(errors).toEqual([]);
    expect(reviewer.errors).toEqual([]);
  });
});

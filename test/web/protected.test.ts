// Every change to a protected environment asks for its name, wherever it
// starts (Accept, Accept all, Rollback, Deploy, a secret), and shows what
// changes: the diff from what is live, the revision that comes back. A
// rollback elsewhere still confirms, naming that revision. One dialog for
// all: focus stays in it, Escape cancels, Enter confirms only when the name
// matches, and focus goes back to the button. Screenshots are saved for
// review, with an axe scan of the dialog.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, sendMessage, seriousViolations } from './fixture.js';

const ui = consoleForFile();
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
});

async function tool<T = Record<string, unknown>>(name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await ada.post(`/api/v1/assistant/tools/${name}`, input);
  const body = answer.body as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

/** The revision of app.yaml live in an environment. */
const liveIn = async (environment: string) =>
  (await tool<{ live: { revision: number }[] }>('get_live_config', { project: 'shop', environment, path: 'app.yaml' })).live[0]?.revision;
const current = async () => (await tool<{ revision: number }>('read_document', { project: 'shop', path: 'app.yaml' })).revision;

const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement);
const focusInDialog = (page: Page) => page.evaluate<boolean>("document.activeElement?.closest('dialog[open]') != null");

async function newConversation(page: Page): Promise<void> {
  const opened = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/assistant/threads');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await opened;
  await expect.poll(() => page.locator('.card.proposal').count()).toBe(0);
}

const deployCall = (environment: string) => `/tool deploy ${JSON.stringify({ environment, path: 'app.yaml' })}`;

/** Saves a screenshot of the page and fails on a serious or critical axe violation inside the open dialog. */
async function review(page: Page, name: string): Promise<void> {
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);
}

describe('changes to a protected environment', () => {
  it('Accept of a production deploy shows the diff from live and asks for production; a wrong name keeps it disabled, the right one runs it', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/production');
    const before = { live: await liveIn('production'), current: await current() };
    expect(before.live).toBeLessThan(before.current);
    await newConversation(page);
    await sendMessage(page, deployCall('production'));
    const card = page.locator('.card.proposal').filter({ hasText: 'deploy app.yaml in production' }).last();
    await card.waitFor();
    // The card itself says which revision goes live over which (pinned when proposed: DESIGN.md §14), with the diff.
    await card.locator('.line-diff').waitFor();
    expect(await card.textContent()).toContain(`r${before.live} is live in production; r${before.current} would replace it`);
    expect(await card.locator('.line-diff').textContent()).toContain('+ ');

    const accept = card.getByRole('button', { name: 'Accept' });
    await accept.click();
    const dialog = page.getByRole('dialog', { name: 'Accept a change to production' });
    await dialog.waitFor();
    await dialog.locator('.line-diff').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Accept' });
    const name = dialog.getByLabel('Environment name');
    expect(await isFocused(name)).toBe(true);
    expect(await confirm.isDisabled()).toBe(true);
    expect(await dialog.textContent()).toMatch(/Type production to confirm/);
    await review(page, 'protected-accept-light');

    // Focus stays inside; Escape cancels and gives the focus back to Accept.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page)).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog(page)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => isFocused(accept)).toBe(true);
    expect(await card.locator('.status').textContent()).toBe('waiting for your decision');

    // By keyboard: a wrong name keeps Accept disabled and Enter does nothing; the right one runs it.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.type('Production');
    expect(await confirm.isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await dialog.isVisible()).toBe(true);
    expect(await liveIn('production')).toBe(before.live);
    await name.fill('production');
    expect(await confirm.isDisabled()).toBe(false);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await card.locator('.status').filter({ hasText: /^accepted$/ }).waitFor();
    expect(await liveIn('production')).toBe(before.current);
    expect(errors).toEqual([]);
  });

  it('Rollback on production asks for its name and names the revision that comes back', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/production');
    const history = (await tool<{ deployments: { revision: number }[] }>('list_deployments', { project: 'shop', environment: 'production' })).deployments;
    const [now, earlier] = history.map((d) => d.revision);
    expect(now).not.toBe(earlier);
    const rollback = page.getByRole('button', { name: 'Rollback' });
    await expect.poll(() => rollback.isEnabled()).toBe(true);
    await rollback.click();
    const dialog = page.getByRole('dialog', { name: 'Roll back app.yaml in production' });
    await dialog.locator('.line-diff').waitFor();
    expect(await dialog.textContent()).toContain(`app.yaml r${now} is live in production; rollback brings back r${earlier}`);
    const confirm = dialog.getByRole('button', { name: 'Rollback' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Environment name').fill('staging');
    expect(await confirm.isDisabled()).toBe(true);
    await review(page, 'protected-rollback-light');
    await dialog.getByLabel('Environment name').fill('production');
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => liveIn('production')).toBe(earlier);
    expect(errors).toEqual([]);
  });

  it('Rollback on staging confirms without typing, naming the revision that comes back', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging');
    const history = (await tool<{ deployments: { revision: number }[] }>('list_deployments', { project: 'shop', environment: 'staging' })).deployments;
    const [now, earlier] = history.map((d) => d.revision);
    const rollback = page.getByRole('button', { name: 'Rollback' });
    await expect.poll(() => rollback.isEnabled()).toBe(true);
    await rollback.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Roll back app.yaml in staging' });
    await dialog.locator('.line-diff').waitFor();
    expect(await dialog.textContent()).toContain(`app.yaml r${now} is live in staging; rollback brings back r${earlier}`);
    expect(await dialog.getByRole('textbox').count()).toBe(0);
    const confirm = dialog.getByRole('button', { name: 'Rollback' });
    expect(await isFocused(confirm)).toBe(true);
    await review(page, 'staging-rollback-light');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => liveIn('staging')).toBe(earlier);
    expect(errors).toEqual([]);
  });

  it('the editor’s Rollback on production asks for the name, naming the revision that comes back', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml?environment=production');
    await page.locator('.cm-content').waitFor();
    await page.getByRole('button', { name: 'Rollback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll back app.yaml in production' });
    await dialog.locator('.change-summary').waitFor();
    expect(await dialog.textContent()).toMatch(/rollback brings back r\d+|nothing to roll back|rolled back already/);
    const confirm = dialog.getByRole('button', { name: 'Rollback' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('Accept all asks once, naming production, when a waiting proposal changes it', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging', 'dark');
    const target = await current();
    expect(await liveIn('production')).not.toBe(target);
    await newConversation(page);
    await sendMessage(page, [deployCall('staging'), deployCall('production')].join('\n'));
    await expect.poll(() => page.locator('.card.proposal').count()).toBe(2);
    await page.getByRole('button', { name: 'Accept all' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accept all, changing production' });
    await dialog.locator('.line-diff').waitFor();
    // Only the production change is listed, with its diff.
    expect(await dialog.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['deploy app.yaml in production']);
    expect(await dialog.textContent()).toContain(`r${target} would replace it`);
    const confirm = dialog.getByRole('button', { name: 'Accept all' });
    expect(await confirm.isDisabled()).toBe(true);
    await review(page, 'protected-accept-all-dark');
    await dialog.getByLabel('Environment name').fill('production');
    await confirm.click();
    await expect.poll(() => page.locator('.card.proposal .status').allTextContents()).toEqual(['accepted', 'accepted']);
    expect(await liveIn('production')).toBe(target);
    expect(await liveIn('staging')).toBe(target);
    expect(errors).toEqual([]);
  });

  it('a secret set on production asks for its name; on staging it does not', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/production');
    const form = page.getByRole('form', { name: 'Set a secret' });
    await form.getByLabel('Name').fill('API_KEY');
    await form.getByLabel('Value').fill('s3cr3t');
    await form.getByRole('button', { name: 'Set secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set API_KEY in production' });
    await dialog.getByText('Adds API_KEY to production').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Set secret' });
    expect(await confirm.isDisabled()).toBe(true);
    await review(page, 'protected-secret-light');
    await dialog.getByLabel('Environment name').fill('production');
    await confirm.click();
    await page.getByRole('cell', { name: 'API_KEY', exact: true }).waitFor();
    const listed = await tool<{ secrets: { name: string }[] }>('list_secrets', { project: 'shop', environment: 'production' });
    expect(listed.secrets.map((s) => s.name)).toContain('API_KEY');

    // Deleting it asks too; Cancel leaves it.
    await page.getByRole('button', { name: 'Delete API_KEY' }).click();
    const deleting = page.getByRole('dialog', { name: 'Delete API_KEY from production' });
    await deleting.getByText('Deletes API_KEY (v1) from production').waitFor();
    await deleting.getByRole('button', { name: 'Cancel' }).click();
    await deleting.waitFor({ state: 'hidden' });
    expect((await tool<{ secrets: { name: string }[] }>('list_secrets', { project: 'shop', environment: 'production' })).secrets.map((s) => s.name)).toContain('API_KEY');

    // Staging is not protected: the secret is set at once.
    const staging = await ui.open('ada', '/projects/shop/environments/staging');
    const stagingForm = staging.page.getByRole('form', { name: 'Set a secret' });
    await staging.page.getByRole('heading', { name: /^staging/ }).waitFor();
    await stagingForm.getByLabel('Name').fill('API_KEY');
    await stagingForm.getByLabel('Value').fill('s3cr3t');
    await stagingForm.getByRole('button', { name: 'Set secret' }).click();
    await staging.page.getByRole('cell', { name: 'API_KEY', exact: true }).waitFor();
    expect(await staging.page.locator('dialog[open]').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(staging.errors).toEqual([]);
  });

  it("the editor's Deploy to production shows what is live against the revision that would go live", async () => {
    await tool('rollback', { project: 'shop', environment: 'production', path: 'app.yaml' });
    const [live, saved] = [await liveIn('production'), await current()];
    expect(live).not.toBe(saved);
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml?environment=production');
    await page.locator('.problems').filter({ hasText: /checked for production/ }).waitFor();
    const deploy = page.locator('.toolbar').getByRole('button', { name: 'Deploy', exact: true });
    await deploy.click();
    const dialog = page.getByRole('dialog', { name: 'Deploy to production' });
    await dialog.locator('.line-diff').waitFor();
    expect(await dialog.textContent()).toContain(`app.yaml r${live} is live in production; r${saved} would replace it`);
    await review(page, 'protected-deploy-light');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => isFocused(deploy)).toBe(true);
    expect(await liveIn('production')).toBe(live);
    expect(errors).toEqual([]);
  });
});

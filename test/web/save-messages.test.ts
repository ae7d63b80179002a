// Issue 33 item 5 and the lows around it, in the console: a save from the
// editor carries the message typed beside Save, and History shows it; the
// audit filters by environment, names the revision a deploy put live (not
// "(current)") and shows a save's message; a second Rollback offers the
// revision before, not the one just rolled back from; on a phone the audit
// and the history stack their rows instead of scrolling sideways; a viewer's
// audit page says why it is empty at once.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, moderateViolations, SCREENSHOTS } from './fixture.js';

const ui = consoleForFile();
/** Room for a machine shared by many test runs. */
const ROOM = 180_000;

async function tool<T>(name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await client(ui.server.url, ui.tokens.ada).post(`/api/v1/assistant/tools/${name}`, { project: 'shop', ...input });
  const body = answer.body as { is_error: boolean; result: T };
  if (answer.status !== 200 || body.is_error) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return body.result;
}

const rowsOf = (page: Page, table: string) => page.getByRole('region', { name: table }).locator('tbody tr');
/** How far the table's box scrolls sideways: 0 when its rows fit. */
const sideways = (page: Page, table: string) =>
  page.evaluate<number>(`(() => { const box = document.querySelector('[role=region][aria-label=${JSON.stringify(table)}]'); return box ? box.scrollWidth - box.clientWidth : -1; })()`);

describe('a save’s message', () => {
  it('is typed beside Save, kept with the revision and shown in History and the audit', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml?environment=staging');
    await page.locator('.cm-content').waitFor();
    await page.locator('.problems-summary').filter({ hasText: 'checked for staging' }).waitFor();
    const before = (await tool<{ revision: number }>('read_document', { path: 'app.yaml' })).revision;
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n# raised for the on-call\n');
    await page.locator('h1', { hasText: 'unsaved' }).waitFor();
    const message = page.getByRole('textbox', { name: 'Save message (optional)' });
    await message.fill('Note for the on-call');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'save-message-light.png') });
    await message.press('Enter');
    const saved = before + 1;
    await page.locator('.notice-line').filter({ hasText: `Saved r${saved} with the message “Note for the on-call”.` }).waitFor();
    // Saved: nothing left to save, so the field goes until the next change.
    expect(await message.count()).toBe(0);
    expect((await tool<{ message: string | null }>('read_document', { path: 'app.yaml', revision: saved })).message).toBe('Note for the on-call');

    await page.getByRole('link', { name: 'History' }).click();
    const row = rowsOf(page, 'Revisions').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^r${saved}\\b`) }) });
    await row.waitFor();
    expect(await row.locator('td.message-cell').textContent()).toBe('Note for the on-call');

    await page.goto(`${ui.server.url}/projects/shop/audit?tool=write_document`);
    const write = rowsOf(page, 'Audit entries').first();
    await write.waitFor();
    expect(await write.locator('td.target').textContent()).toBe(`app.yaml r${saved} “Note for the on-call”`);
    expect(errors).toEqual([]);
  }, ROOM);
});

describe('the audit', () => {
  it('names the revision a deploy and a rollback put live, and filters by environment', async () => {
    const { revision } = await tool<{ revision: number }>('read_document', { path: 'app.yaml' });
    await tool('deploy', { environment: 'staging', path: 'app.yaml' });
    const back = await tool<{ revision: number }>('rollback', { environment: 'staging', path: 'app.yaml' });
    const { page, errors } = await ui.open('ada', '/projects/shop/audit');
    const rows = rowsOf(page, 'Audit entries');
    await rows.first().waitFor();
    await page.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name: /^Environment/ }).selectOption('staging');
    await expect.poll(() => new URL(page.url()).searchParams.get('environment')).toBe('staging');
    // While the filtered list loads the table may be empty, and every row of nothing is "in staging".
    const stagingOnly = async () => {
      const shown = await rows.locator('td.target').allTextContents();
      return shown.length > 0 && shown.every((t) => t.includes('staging'));
    };
    await expect.poll(stagingOnly).toBe(true);
    const targets = await rows.locator('td.target').allTextContents();
    expect(targets[0]).toBe(`app.yaml r${back.revision} in staging`);
    expect(targets[1]).toBe(`app.yaml r${revision} → staging`);
    expect(targets.some((t) => t.includes('(current)'))).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-environment-light.png') });

    await page.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name: /^Environment/ }).selectOption('production');
    await expect.poll(async () => {
      const shown = await rows.locator('td.target').allTextContents();
      return shown.length > 0 && shown.every((t) => t.includes('production'));
    }).toBe(true);
    expect(await moderateViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, ROOM);

  it('a second Rollback offers the revision before, not the one just rolled back from', async () => {
    const { deployments } = await tool<{ deployments: { revision: number; rollback: boolean }[] }>('list_deployments', { environment: 'staging' });
    const [live, undone] = deployments;
    expect(live?.rollback).toBe(true);
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging');
    const rollback = page.getByRole('button', { name: 'Rollback' });
    await expect.poll(() => rollback.isEnabled()).toBe(true);
    await rollback.click();
    const dialog = page.getByRole('dialog', { name: 'Roll back app.yaml in staging' });
    await dialog.locator('.change-summary').waitFor();
    const summary = (await dialog.locator('.change-summary').textContent()) ?? '';
    await page.screenshot({ path: path.join(SCREENSHOTS, 'rollback-again-light.png') });
    expect(summary).not.toContain(`brings back r${undone?.revision}`);
    const server = await client(ui.server.url, ui.tokens.ada).post('/api/v1/assistant/tools/rollback', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    const answer = server.body as { is_error: boolean; result: { revision?: number; error?: string } };
    // The dialog says what the server does: the same revision, or the same "nothing left".
    if (answer.is_error) expect(summary).toContain('rolled back already');
    else expect(summary).toContain(`brings back r${answer.result.revision}`);
    expect(errors).toEqual([]);
  }, ROOM);

  it('and the history stack their rows on a phone instead of scrolling sideways', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await ui.open('ada', '/projects/shop/audit', scheme);
      await page.setViewportSize({ width: 390, height: 800 });
      await rowsOf(page, 'Audit entries').first().waitFor();
      expect(await sideways(page, 'Audit entries')).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `audit-stacked-${scheme}-390.png`) });
      expect(await moderateViolations(page)).toEqual([]);
      await page.goto(`${ui.server.url}/projects/shop/documents/app.yaml/history`);
      await rowsOf(page, 'Revisions').first().waitFor();
      expect(await sideways(page, 'Revisions')).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `history-stacked-${scheme}-390.png`) });
      expect(await moderateViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    }
  }, ROOM);

  it('tells a viewer at once why it shows nothing', async () => {
    const { page, errors } = await ui.open('vic', '/projects/shop');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit', exact: true }).click();
    const started = Date.now();
    await page.getByText('You cannot read the audit of shop: only its operators and admins can, and your role there is viewer.').waitFor();
    const took = Date.now() - started;
    console.error(`viewer's audit page: the reason shown ${took} ms after the click`);
    expect(took).toBeLessThan(1000);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(errors).toEqual([]);
  }, ROOM);
});

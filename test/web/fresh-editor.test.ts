// What is typed into a freshly opened editor is never lost (issue 33's known
// defect): with the page's CPU slowed down (CDP), text typed the moment the
// editor shows its document — while the operator's permissions, the project
// and the first check are still on their way — is still there once the page
// has settled, shown as unsaved, and is what Save saves.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, signInTab } from './fixture.js';

const ui = consoleForFile();
const SLOWDOWN = 6;

async function slowTab(): Promise<{ page: Page; errors: string[] }> {
  const tab = await ui.blank();
  const cdp = await tab.context.newCDPSession(tab.page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  return tab;
}

/** Types `line` at the top of the text as soon as the editor shows its first line; says whether it was read-only then. */
async function typeAtOnce(page: Page, line: string): Promise<boolean> {
  await page.locator('.cm-content .cm-line').first().waitFor();
  const readOnlyThen = (await page.locator('.cm-content').getAttribute('aria-readonly')) === 'true';
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  return readOnlyThen;
}

/** Waits until the page has settled (checked, permissions read), then checks the typed line is still the first. */
async function expectKept(page: Page, line: string): Promise<void> {
  await page.locator('.problems').filter({ hasText: /checked for staging/ }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Save', exact: true }).and(page.locator(':not([aria-disabled="true"])')).waitFor({ timeout: 60_000 });
  // A moment more for anything late (a revision read again, a remount) to have replaced it.
  await page.waitForTimeout(1500);
  expect(await page.locator('.cm-content .cm-line').first().textContent()).toBe(line);
  await expect.poll(() => page.locator('h1').textContent()).toContain('unsaved');
}

describe('a freshly opened editor, on a slow CPU', () => {
  it('keeps what is typed the moment a document opens from its address', async () => {
    const { page, errors } = await slowTab();
    await signInTab(page, ui.links.ada, '/projects/shop/documents/app.yaml?environment=staging');
    const line = '# typed at once, from the address';
    const readOnlyThen = await typeAtOnce(page, line);
    console.error(`typed while the editor was ${readOnlyThen ? 'read-only' : 'writable'}`);
    await expectKept(page, line);

    await page.keyboard.press('Control+s');
    await page.locator('.notice-line').filter({ hasText: /Saved r\d+/ }).waitFor({ timeout: 30_000 });
    const saved = await client(ui.server.url, ui.tokens.ada).post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml' });
    expect((saved.body as { result: { text: string } }).result.text.split('\n')[0]).toBe(line);
    expect(errors).toEqual([]);
  }, 180_000);

  it('keeps what is typed the moment a document opens from the documents list', async () => {
    const { page, errors } = await slowTab();
    await signInTab(page, ui.links.ada, '/projects/shop/documents?environment=staging');
    await page.locator('#page').getByRole('link', { name: 'app.yaml', exact: true }).click();
    const line = '# typed at once, from the list';
    const readOnlyThen = await typeAtOnce(page, line);
    console.error(`typed while the editor was ${readOnlyThen ? 'read-only' : 'writable'}`);
    await expectKept(page, line);
    // And after a reload, from the tab's draft.
    await page.reload();
    await page.locator('.cm-content .cm-line').first().filter({ hasText: line }).waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 180_000);
});

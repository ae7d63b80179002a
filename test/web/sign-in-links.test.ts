// Sign-in links (`#token=`) are read on load and on `hashchange` (a link
// pasted into an open tab, `/` included), always cleared from the address
// bar, and never switch operators silently: a link for another operator asks
// first (Keep is the default), a link for the one signed in is just cleared.
// Screenshots of the question, light and dark, with an axe scan of it.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleForFile, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();

/** Pastes a link into the open tab's address bar: only the fragment changes, so the page does not reload. */
async function paste(page: Page, token: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(`#token=${token}`)}`);
}

const signedInAs = (page: Page) => page.locator('.topbar .muted').textContent();
const storedToken = (page: Page) => page.evaluate<string | null>("sessionStorage.getItem('aion.token')");
const question = (page: Page) => page.getByRole('dialog', { name: 'Sign in as olive instead of ada?' });

describe('sign-in links in an open tab', () => {
  it("asks before switching to another operator's link; Keep keeps the first, and the token leaves the address bar", async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await paste(page, ui.tokens.olive);
    await question(page).waitFor();
    expect(page.url()).not.toContain('token');
    expect(new URL(page.url()).pathname).toBe('/projects/shop');
    expect(await question(page).textContent()).toContain('Unsaved drafts stay in this tab’s storage');
    // Keep is the default: Enter keeps.
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Keep ada');
    await page.getByRole('button', { name: 'Keep ada' }).click();
    await expect.poll(() => question(page).count()).toBe(0);
    expect(await signedInAs(page)).toBe('ada');
    expect(await storedToken(page)).toBe(ui.tokens.ada);
    expect(page.url()).not.toContain('token');
    expect(errors).toEqual([]);
  });

  it('switches to the other operator on Switch (the tab keeps its storage)', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await page.evaluate("sessionStorage.setItem('aion.draft.test', 'kept')");
    await paste(page, ui.tokens.olive);
    await page.getByRole('button', { name: 'Switch to olive' }).click();
    await expect.poll(() => signedInAs(page)).toBe('olive');
    expect(await storedToken(page)).toBe(ui.tokens.olive);
    expect(await page.evaluate("sessionStorage.getItem('aion.draft.test')")).toBe('kept');
    expect(page.url()).not.toContain('token');
    expect(errors).toEqual([]);
  });

  it('keeps the open document’s draft across the switch: shown as unsaved, with its text, and saved with it', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml');
    await page.locator('.cm-content[contenteditable="true"]').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('# drafted before the switch\n');
    await page.getByText('• unsaved').waitFor();
    await paste(page, ui.tokens.olive);
    await page.getByRole('button', { name: 'Switch to olive' }).click();
    await expect.poll(() => signedInAs(page)).toBe('olive');
    await page.getByText('• unsaved').waitFor();
    await expect.poll(() => page.locator('.cm-content').textContent()).toContain('# drafted before the switch');
    await page.locator('.cm-content[contenteditable="true"]').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('• unsaved').count()).toBe(0);
    const saved = await fetch(`${ui.server.url}/api/v1/assistant/tools/read_document`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ui.tokens.olive}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'shop', path: 'app.yaml' }),
    });
    expect(((await saved.json()) as { result: { text: string } }).result.text).toContain('# drafted before the switch');
    expect(errors).toEqual([]);
  });

  it('reads a link pasted on `/` too', async () => {
    const { page, errors } = await ui.open('ada', '/');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await paste(page, ui.tokens.olive);
    await question(page).waitFor();
    expect(page.url()).toBe(new URL('/', ui.server.url).toString());
    await page.keyboard.press('Escape');
    await expect.poll(() => question(page).count()).toBe(0);
    expect(await signedInAs(page)).toBe('ada');
    expect(errors).toEqual([]);
  });

  it('asks on a link that loads the page as well (another path), rather than switching silently', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/audit');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await page.goto(ui.links.olive);
    await question(page).waitFor();
    expect(page.url()).not.toContain('token');
    await page.getByRole('button', { name: 'Keep ada' }).click();
    await expect.poll(() => question(page).count()).toBe(0);
    expect(await signedInAs(page)).toBe('ada');
    expect(errors).toEqual([]);
  });

  it("clears the signed-in operator's own link without a question", async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await paste(page, ui.tokens.ada);
    await expect.poll(() => page.url()).not.toContain('token');
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await signedInAs(page)).toBe('ada');
    expect(errors).toEqual([]);
  });

  it('signs a signed-out tab in from a pasted link', async () => {
    const { page, errors } = await ui.blank();
    await page.goto(ui.server.url);
    await page.getByLabel('Token').waitFor();
    await paste(page, ui.tokens.ada);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(page.url()).not.toContain('token');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    expect(errors).toEqual([]);
  });

  it('says so when the link is not accepted, and keeps the operator', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await expect.poll(() => signedInAs(page)).toBe('ada');
    await paste(page, 'aion_not-a-real-token');
    const dialog = page.getByRole('dialog', { name: 'A sign-in link for another operator' });
    await dialog.getByRole('alert').filter({ hasText: 'was not accepted' }).waitFor();
    expect(page.url()).not.toContain('token');
    expect(await dialog.getByRole('button', { name: /^Switch/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Keep ada' }).click();
    expect(await signedInAs(page)).toBe('ada');
    expect(await storedToken(page)).toBe(ui.tokens.ada);
    // The refused token's 401 is the browser's own console line, not the app's.
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`asks in words, calmly (${scheme}), with no serious axe violation`, async () => {
      const { page, errors } = await ui.open('ada', '/projects/shop', scheme);
      await expect.poll(() => signedInAs(page)).toBe('ada');
      await paste(page, ui.tokens.olive);
      await page.getByRole('button', { name: 'Switch to olive' }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `sign-in-link-switch-${scheme}.png`) });
      expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

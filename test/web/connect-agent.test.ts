// "Connect an agent" in the console: the conversation's live session
// credentials (created, expires, last used) with a Revoke for each, a new one
// shown once with its command, all without a mouse; a revoked credential is
// refused at once. A screenshot of the dialog is saved for review, with an
// axe scan of it.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client, request } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();

async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return;
  }
  throw new Error('Tab never reached the control');
}

const contextWith = (threadId: string, token: string) => request(ui.server.url, 'GET', `/api/v1/assistant/threads/${threadId}/context`, { token });

describe('connecting an agent', () => {
  it('lists the live credentials, mints one shown once, and revokes one, by keyboard', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    const assistant = page.getByRole('region', { name: 'Assistant' });
    await assistant.getByRole('button', { name: 'New conversation' }).click();
    const connect = assistant.getByRole('button', { name: 'Connect an agent' });
    await connect.waitFor();
    const ada = client(ui.server.url, ui.tokens.ada);
    const threadId = ((await ada.get('/api/v1/assistant/threads')).body as { id: string }[])[0]?.id ?? '';

    // One credential minted earlier (by curl) and used since.
    const earlier = (await ada.post(`/api/v1/assistant/threads/${threadId}/session-credential`)).body as { id: string; token: string };
    expect((await contextWith(threadId, earlier.token)).status).toBe(200);

    await tabTo(page, connect);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Connect an agent to this conversation' });
    const rows = dialog.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').nth(2).textContent()).not.toBe('never');
    // The token is never listed: only a new credential's, once.
    expect(await dialog.textContent()).not.toContain(earlier.token);

    // Focus starts on "New credential"; Enter mints one, and its command takes the focus.
    await expect.poll(() => dialog.getByRole('button', { name: 'New credential' }).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const command = dialog.getByLabel(/Command \(stdio\)/);
    await command.waitFor();
    const minted = /--token (aion_ses_\S+)/.exec(await command.inputValue())?.[1] ?? '';
    expect(minted).toMatch(/^aion_ses_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => command.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().locator('td').nth(2).textContent()).toBe('never');

    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connect-agent-light.png') });
    expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);

    // Revoke the earlier one (the older, second row) by keyboard: it is refused at once, the new one serves.
    await tabTo(page, rows.nth(1).getByRole('button', { name: /^Revoke the credential created/ }));
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(1);
    expect((await contextWith(threadId, earlier.token)).status).toBe(401);
    expect((await contextWith(threadId, minted)).status).toBe(200);
    // Focus stays in the dialog; Escape closes it.
    await expect.poll(() => page.evaluate("document.activeElement?.closest('dialog') !== null")).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });
});

// A document's history: its revisions listed, any two diffed, one restored
// as a new revision (as an operator), read-only with a sentence for a
// viewer; the editor names the revisions its diffs compare with, and the
// deploy dialog shows what goes live. Screenshots saved for review, with axe.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
  // A third revision with a message, so there is something to pick between.
  const current = await tool<{ revision: number; text: string }>('read_document', { project: 'shop', path: 'app.yaml' });
  await tool('write_document', {
    project: 'shop',
    path: 'app.yaml',
    base_revision: current.revision,
    text: current.text.replace('port: 8080', 'port: 9090'),
    message: 'serve on 9090',
  });
});

async function tool<T = Record<string, unknown>>(name: string, input: Record<string, unknown>): Promise<T> {
  const body = (await ada.post(`/api/v1/assistant/tools/${name}`, input)).body as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

const HISTORY = '/projects/shop/documents/app.yaml/history';

describe("a document's history", () => {
  it('lists the revisions, diffs any two, and restores one as a new revision with a message (operator)', async () => {
    const { page, errors } = await ui.open('olive', '/projects/shop/documents');
    await page.getByRole('link', { name: 'History of app.yaml' }).click();
    await page.getByRole('heading', { name: 'History of app.yaml' }).waitFor();
    const rows = page.getByRole('region', { name: 'Revisions' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().textContent()).toContain('serve on 9090');
    // By default the current revision against the one before; then r1 against r3.
    await page.getByRole('heading', { name: 'Diff r2 → r3' }).waitFor();
    await page.getByLabel('Diff from r1').check();
    await page.getByRole('heading', { name: 'Diff r1 → r3' }).waitFor();
    const diff = page.getByLabel('Changes to app.yaml from r1 to r3');
    await expect.poll(() => diff.textContent()).toContain('+ port: 9090');
    expect(new URL(page.url()).search).toBe('?from=1&to=3');

    await rows.filter({ has: page.getByRole('rowheader', { name: /^r1/ }) }).getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore r1 of app.yaml' });
    await dialog.locator('.line-diff').waitFor();
    expect(await dialog.textContent()).toContain('as a new revision, r4, on top of r3. Nothing is deployed.');
    const message = dialog.getByLabel('Message');
    expect(await message.inputValue()).toBe('restore r1');
    await message.fill('restore r1: back to 8080');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'history-restore-light.png') });
    expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);
    await message.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Restored r1 as r4.' }).waitFor();
    await expect.poll(() => rows.count()).toBe(4);
    await page.getByRole('heading', { name: 'Diff r3 → r4' }).waitFor();

    const [first, restored] = await Promise.all([
      tool<{ text: string }>('read_document', { project: 'shop', path: 'app.yaml', revision: 1 }),
      tool<{ text: string; author: string; message: string }>('read_document', { project: 'shop', path: 'app.yaml', revision: 4 }),
    ]);
    expect(restored).toMatchObject({ text: first.text, author: 'olive', message: 'restore r1: back to 8080' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'history-light.png') });
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer, saying why beside the disabled Restore', async () => {
    const { page, errors } = await ui.open('vic', HISTORY);
    const why = 'you need document:write on shop; your role there is viewer';
    await page.getByText(`You can read this history but not restore a revision: ${why}.`).waitFor();
    const restore = page.getByRole('button', { name: 'Restore' }).first();
    expect(await restore.getAttribute('aria-disabled')).toBe('true');
    expect(await restore.getAttribute('title')).toBe(why);
    await restore.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'history-viewer-light.png') });
    expect(errors).toEqual([]);
  });

  it("the editor names the revisions its diffs compare with and links the history; the deploy dialog shows what goes live", async () => {
    const current = await tool<{ revision: number; text: string }>('read_document', { project: 'shop', path: 'app.yaml' });
    await tool('write_document', { project: 'shop', path: 'app.yaml', base_revision: current.revision, text: `${current.text}# reviewed\n` });
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml?environment=production');
    await page.locator('.problems').filter({ hasText: /checked for production/ }).waitFor();
    const live = (await tool<{ live: { revision: number }[] }>('get_live_config', { project: 'shop', environment: 'production', path: 'app.yaml' })).live[0]?.revision;
    const options = await page.locator('#diff-mode option').allTextContents();
    expect(options).toContain(`Diff: live r${live}`);
    expect(options.some((o) => /^Diff: saved r\d+$/.test(o))).toBe(true);

    await page.locator('.toolbar').getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy to production' });
    await dialog.locator('.line-diff').waitFor();
    expect(await dialog.textContent()).toContain(`app.yaml r${live} is live in production; r${current.revision + 1} would replace it`);
    expect(await dialog.locator('.line-diff').textContent()).toContain('+ # reviewed');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.locator('.toolbar').getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History of app.yaml' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the history page at every width, light and dark', () => {
  it.each(['light', 'dark'] as const)('has no serious accessibility violation (%s)', async (scheme) => {
    const { page, errors } = await ui.open('ada', HISTORY, scheme);
    for (const width of [1440, 1024, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.locator('.line-diff').waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `history-${width}-${scheme}.png`) });
      expect(await seriousViolations(page, 'main, body'), `${width} ${scheme}`).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

// The console end to end, on the editor and the assistant: lint marks,
// save, deploy, a conflict that loses nothing (merged), proposals decided in the
// panel, and an MCP agent editing the open buffer.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { answerOf, httpClient } from '../mcp/clients.js';
import { consoleForFile, sendMessage } from './fixture.js';

const ui = consoleForFile();
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
});

const EDITOR = '/projects/shop/documents/app.yaml?environment=staging';

async function tool<T = Record<string, unknown>>(name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await ada.post(`/api/v1/assistant/tools/${name}`, input);
  const body = answer.body as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

const stored = () => tool<{ text: string; revision: number }>('read_document', { project: 'shop', path: 'app.yaml' });

/** The editor's text, read off its lines (the documents here are far shorter than a viewport). */
function editorText(page: Page): Promise<string> {
  return page.evaluate<string>(`[...document.querySelectorAll('.cm-content .cm-line')].map((line) => line.textContent).join('\\n')`);
}

async function openEditor(): Promise<{ page: Page; errors: string[] }> {
  const tab = await ui.open('ada', EDITOR);
  await tab.page.locator('.cm-content').waitFor();
  await status(tab.page, '.problems', /checked for staging/);
  return tab;
}

async function replaceText(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

/** Waits until an element's text matches, and returns it. */
async function status(page: Page, selector: string, pattern: RegExp, timeout = 10_000): Promise<string> {
  const match = page.locator(selector).filter({ hasText: pattern }).first();
  await match.waitFor({ timeout });
  return (await match.textContent()) ?? '';
}

/** Waits until the editor has this line. */
function line(page: Page, text: string, timeout = 10_000): Promise<void> {
  return page.locator('.cm-line').filter({ hasText: new RegExp(`^${text}$`) }).first().waitFor({ timeout });
}

/** Waits until the nth proposal card's status reads `text`. */
/**
 * "New conversation", and wait until the panel shows one with nothing in it:
 * a new one, or an empty one reused (no POST then). The panel may first show
 * the scope's latest thread, with a proposal waiting.
 */
async function startEmptyConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect.poll(async () => (await page.locator('.thread .message').count()) + (await page.locator('.card.proposal').count())).toBe(0);
}

function cardStatus(page: Page, index: number, text: string): Promise<void> {
  return page.locator('.card.proposal .status').nth(index).filter({ hasText: new RegExp(`^${text}$`) }).waitFor();
}

describe('the editor', () => {
  it('marks an error as it is typed, then saves the fix and deploys it to staging, where the live endpoint serves it', async () => {
    const { page, errors } = await openEditor();
    const before = await stored();
    await replaceText(page, before.text.replace('port: 8080', 'port: "ten"'));
    await page.locator('.cm-lintRange-error').waitFor();
    expect(await status(page, '.problems', /1 problem/)).toMatch(/3:7 .*port/);
    // The draft is read back a moment after the text appears.
    await expect.poll(() => page.locator('h1').textContent()).toContain('unsaved');
    // The buffer against the saved revision, in the editor itself.
    await page.getByLabel('Diff').selectOption('saved');
    await page.locator('.cm-deletedChunk').first().waitFor();
    await page.getByLabel('Diff').selectOption('off');

    await replaceText(page, before.text.replace('port: 8080', 'port: 9090'));
    await status(page, '.problems', /No problems/);
    await page.getByRole('button', { name: 'Save' }).click();
    await status(page, '.notice-line', new RegExp(`Saved r${before.revision + 1}`));
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await status(page, '.notice-line', /Deployed r\d+ to staging/);

    const minted = await ada.post('/api/v1/tokens', { name: 'live', service: { project: 'shop', environment: 'staging' } });
    const live = await client(ui.server.url, (minted.body as { token: string }).token).get('/api/v1/live/shop/staging/app.yaml');
    expect(live.status).toBe(200);
    expect((live.body as { port: number }).port).toBe(9090);
    expect(errors).toEqual([]);
  });

  it("asks to type a protected environment's name before deploying there", async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/documents/app.yaml?environment=production');
    await status(page, '.problems', /No problems — checked for production/);
    await page.locator('.toolbar').getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy to production' });
    const confirm = dialog.getByRole('button', { name: 'Deploy' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Environment name').fill('production');
    await confirm.click();
    await status(page, '.notice-line', /Deployed r\d+ to production/);
    expect(errors).toEqual([]);
  });

  it('keeps the typed text through a conflicting save and a reload, and merges it with theirs when asked', async () => {
    const { page, errors } = await openEditor();
    const base = await stored();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.insertText('# mine\n');
    await tool('write_document', { project: 'shop', path: 'app.yaml', base_revision: base.revision, text: base.text.replace('9090', '9191') });

    await page.getByRole('button', { name: 'Save' }).click();
    await status(page, '.merge-panel', new RegExp(`ada saved r${base.revision + 1}`));
    expect(await editorText(page)).toContain('# mine');

    await page.reload();
    await page.locator('.cm-content').waitFor();
    expect(await editorText(page)).toContain('# mine');
    // The draft is read back a moment after the text appears.
    await expect.poll(() => page.locator('h1').textContent()).toContain('unsaved');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.merge-panel').getByRole('button', { name: 'Merge' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await status(page, '.notice-line', new RegExp(`Saved r${base.revision + 2}`));
    // Their change stays: the merge keeps both.
    const saved = await stored();
    expect(saved.text).toBe('# mine\n' + base.text.replace('9090', '9191'));
    expect(errors).toEqual([]);
  });
});

describe('the assistant panel', () => {

  const card = (page: Page, index: number) => page.locator('.card.proposal').nth(index);

  it('shows a proposed write with its diff; Accept saves it and the editor shows it; Reject changes nothing; Accept all stops at a failure', async () => {
    const { page, errors } = await openEditor();
    await page.getByRole('button', { name: 'New conversation' }).click();
    const base = await stored();
    // Whatever port the earlier tests left, the write changes it.
    const port = /port: (\d+)/.exec(base.text)?.[1] ?? '';
    const proposed = base.text.replace(`port: ${port}`, 'port: 8181');
    const write = (text: string, revision: number) =>
      `/tool write_document ${JSON.stringify({ project: 'shop', path: 'app.yaml', base_revision: revision, text })}`;

    await sendMessage(page, write(proposed, base.revision));
    await card(page, 0).waitFor();
    const diff = (await card(page, 0).locator('.line-diff').textContent()) ?? '';
    expect(diff).toContain(`- port: ${port}`);
    expect(diff).toContain('+ port: 8181');
    expect(await card(page, 0).textContent()).toContain('waiting for your decision');
    await card(page, 0).getByRole('button', { name: 'Accept' }).click();
    await cardStatus(page, 0, 'accepted');
    await line(page, 'port: 8181');
    await status(page, '.toolbar', new RegExp(`r${base.revision + 1} ·`));

    await sendMessage(page, write(proposed.replace('8181', '8282'), base.revision + 1));
    await card(page, 1).waitFor();
    await card(page, 1).getByRole('button', { name: 'Reject' }).click();
    await cardStatus(page, 1, 'rejected');
    expect((await stored()).revision).toBe(base.revision + 1);

    const secret = (name: string) => `/tool set_secret ${JSON.stringify({ project: 'shop', environment: 'staging', name, value: 'v' })}`;
    await sendMessage(page, [secret('FIRST_FLAG'), write('stale: true\n', 1), secret('THIRD_FLAG')].join('\n'));
    await card(page, 4).waitFor();
    await page.getByRole('button', { name: 'Accept all' }).click();
    await cardStatus(page, 3, 'failed');
    const statuses = await page.locator('.card.proposal .status').allTextContents();
    expect(statuses.slice(2)).toEqual(['accepted', 'failed', 'waiting for your decision']);
    expect(await card(page, 3).locator('.error').textContent()).toMatch(/revision/);
    expect(errors).toEqual([]);
  });

  it('keeps the focus after a decision by keyboard: on the next waiting proposal\'s Accept, then on the message box', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging');
    await startEmptyConversation(page);
    const secret = (name: string) => `/tool set_secret ${JSON.stringify({ project: 'shop', environment: 'staging', name, value: 'v' })}`;
    await sendMessage(page, ['FOCUS_ONE', 'FOCUS_TWO', 'FOCUS_THREE'].map(secret).join('\n'));
    await card(page, 2).waitFor();
    const accept = (index: number) => card(page, index).getByRole('button', { name: 'Accept', exact: true });
    const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement);

    await accept(0).focus();
    await page.keyboard.press('Enter');
    await cardStatus(page, 0, 'accepted');
    await expect.poll(() => isFocused(accept(1))).toBe(true);

    await page.keyboard.press('Tab');
    expect(await isFocused(card(page, 1).getByRole('button', { name: 'Reject' }))).toBe(true);
    await page.keyboard.press('Enter');
    await cardStatus(page, 1, 'rejected');
    await expect.poll(() => isFocused(accept(2))).toBe(true);

    await page.keyboard.press('Enter');
    await cardStatus(page, 2, 'accepted');
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Message', exact: true }))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows the sentence of a failed turn and keeps the typed text', async () => {
    const { page } = await ui.open('ada', '/projects/shop');
    await startEmptyConversation(page);
    await sendMessage(page, '/fail');
    const alert = page.getByRole('region', { name: 'Assistant' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/the fake model failed, as \/fail asked; your message is kept/);
    expect(await page.getByLabel('Message').inputValue()).toBe('/fail');
  });

  it('applies an MCP agent edit to the open buffer within 2 s, keeping the cursor and the unsaved text', async () => {
    const { page, errors } = await openEditor();
    await page.getByRole('button', { name: 'New conversation' }).click();
    // The operator's own unsaved edit, with the cursor left at its end.
    await page.locator('.cm-line', { hasText: /^service: shop$/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.insertText(' # mine');

    // The conversation the panel just opened: the newest of shop/staging with no message yet.
    type ThreadRow = { id: string; project: string; environment: string; messages: unknown[] };
    const opened = async () =>
      ((await ada.get('/api/v1/assistant/threads')).body as ThreadRow[]).find(
        (t) => t.project === 'shop' && t.environment === 'staging' && t.messages.length === 0,
      );
    await expect.poll(opened).toBeDefined();
    const thread = (await opened()) as ThreadRow;
    const contextPath = `/api/v1/assistant/threads/${thread.id}/context`;
    await expect.poll(async () => JSON.stringify((await ada.get(contextPath)).body), { timeout: 5000 }).toContain('service: shop # mine');

    const credential = (await ada.post(`/api/v1/assistant/threads/${thread.id}/session-credential`)).body as { token: string };
    const agent = await httpClient(ui.server.url, credential.token);
    try {
      const text = ((await ada.get(contextPath)).body as { document: { text: string } }).document.text;
      const port = /^port: \d+$/m.exec(text)?.[0] ?? 'port:';
      const started = Date.now();
      const edit = await agent.callTool({
        name: 'assistant_document_edit',
        arguments: { edits: [{ old_string: port, new_string: 'port: 7171' }, { old_string: '# The shop service.', new_string: '# The shop service.\n# edited by the agent' }] },
      });
      expect(answerOf(edit).isError).toBe(false);
      await line(page, 'port: 7171', 2000);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await agent.close();
    }
    await page.keyboard.type('!');
    const after = await editorText(page);
    expect(after).toContain('# edited by the agent\n');
    expect(after).toContain('service: shop # mine!\n');
    expect(await page.locator('.cm-agent-line').count()).toBeGreaterThan(0);
    // The draft is read back a moment after the text appears.
    await expect.poll(() => page.locator('h1').textContent()).toContain('unsaved');
    expect(errors).toEqual([]);
  });
});

describe('two windows of one operator on one conversation', () => {
  it('each shares its own screen when it changes, and neither answers the other’s', async () => {
    // Each window its own browser context (no shared storage, no leader between them), each on a document of its
    // own, both showing the operator's newest conversation of shop/staging with Share context on.
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })).body as { id: string };
    const contextPath = `/api/v1/assistant/threads/${thread.id}/context`;
    const revision = async () => ((await ada.get(contextPath)).body as { revision?: number }).revision ?? 0;
    const first = await openEditor();
    const second = await ui.open('ada', '/projects/shop/documents/aion.schema.yaml?environment=staging');
    await second.page.locator('.cm-content').waitFor();
    for (const { page } of [first, second]) await expect.poll(() => page.locator('.thread-holder').count()).toBe(1);
    // Both have shared their screen once they settled.
    await expect.poll(async () => (await revision()) >= 2, { timeout: 10_000 }).toBe(true);
    await first.page.waitForTimeout(1000);
    const settled = await revision();
    await first.page.waitForTimeout(3000);
    // Before, each revision of the other's screen made a window send its own (the whole document) again, without end.
    expect(await revision(), 'revisions of the shared context in 3 s while nobody acted').toBe(settled);

    // An act in either window shares that window's screen.
    await first.page.locator('.cm-content').click();
    await first.page.keyboard.insertText('# from the first window\n');
    await expect.poll(async () => JSON.stringify((await ada.get(contextPath)).body), { timeout: 5000 }).toContain('# from the first window');
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
});

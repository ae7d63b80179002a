// Answers an operator can read, and conversations they can keep in order
// (issue 20, item 8): an answer's Markdown rendered safely (raw HTML shown as
// text, never run; links safe), code blocks with Copy, each message's time,
// tool calls that open to their input and result; conversations with a
// short title, renamed, deleted and searched, an empty one reused by "New
// conversation". Screenshots and an axe scan of the panel, light and dark,
// also at 390 px.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, sendMessage, seriousViolations } from './fixture.js';

const STAGING = '/projects/shop/environments/staging';
const PRODUCTION = '/projects/shop/environments/production';

const ui = consoleForFile([], { AION_ASSISTANT_RATE: '1000/1m' });
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
});

interface Thread {
  id: string;
  title: string;
  project: string | null;
  environment: string;
  messages: { at: string; role: string }[];
}

const threads = async () => (await ada.get('/api/v1/assistant/threads')).body as Thread[];
const panel = (page: Page) => page.getByRole('region', { name: 'Assistant' });
const answers = (page: Page) => page.locator('.thread .message.assistant');

/** The fake model echoes prose as `fake: ` and the message: the message is the answer's Markdown. */
const MARKDOWN = ['', '## Rollout plan', '- **check** `app.yaml`', '- deploy it', '', '```yaml', 'port: 8080', '```'].join('\n');
const HOSTILE = [
  '<img src=x onerror="document.title=\'pwned\'"> <script>window.pwned=1</script>',
  '[docs](https://example.com/runbook) [bad](javascript:alert(1)) [shop](/projects/shop)',
].join('\n');

/** Ada's tab on `where`, with a conversation of its own (an empty one reused, or a new one). */
async function conversation(where = STAGING, scheme: 'light' | 'dark' = 'light') {
  const tab = await ui.open('ada', where, scheme);
  await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
  await tab.page.getByRole('button', { name: 'New conversation' }).click();
  await tab.page.locator('.thread-holder').waitFor();
  await expect.poll(() => tab.page.locator('.thread .message').count()).toBe(0);
  return tab;
}

describe('an answer', () => {
  it('renders its Markdown: a heading, a list with bold and code, a code block that Copy puts on the clipboard', async () => {
    const { page, errors } = await conversation();
    await sendMessage(page, MARKDOWN);
    const answer = answers(page).last();
    await answer.locator('h5', { hasText: 'Rollout plan' }).waitFor();
    expect(await answer.locator('ul > li').allTextContents()).toEqual(['check app.yaml', 'deploy it']);
    expect(await answer.locator('li strong').textContent()).toBe('check');
    expect(await answer.locator('li code').textContent()).toBe('app.yaml');
    const block = answer.locator('.code-block');
    expect(await block.locator('.code-label').textContent()).toBe('yaml');
    expect(await block.locator('pre').textContent()).toBe('port: 8080');

    await block.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => block.locator('.copy').textContent()).toBe('Copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('port: 8080');
    // The operator's own message stays as typed.
    expect(await page.locator('.thread .message.user').last().textContent()).toContain('## Rollout plan');
    expect(errors).toEqual([]);
  });

  it('shows raw HTML as text and never runs it; links are safe: out in a new tab, in the console in this one, javascript: never', async () => {
    const { page, errors } = await conversation();
    const title = await page.title();
    await sendMessage(page, HOSTILE);
    const answer = answers(page).last();
    await answer.getByRole('link', { name: 'docs' }).waitFor();
    expect(await answer.textContent()).toContain('<img src=x onerror="document.title=\'pwned\'"> <script>window.pwned=1</script>');
    expect(await page.locator('.thread img, .thread script').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.title()).toBe(title);

    const docs = answer.getByRole('link', { name: 'docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/runbook');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await answer.getByRole('link', { name: 'bad' }).count()).toBe(0);
    expect(await answer.textContent()).toContain('[bad](javascript:alert(1))');
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);

    // A page of the console opens in this tab, still signed in.
    const shop = answer.getByRole('link', { name: 'shop' });
    expect(await shop.getAttribute('target')).toBeNull();
    await shop.click();
    await page.waitForURL(/\/projects\/shop$/);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('says when each message was stored', async () => {
    const { page, errors } = await conversation();
    await sendMessage(page, '/say timed');
    await answers(page).filter({ hasText: 'timed' }).waitFor();
    const times = page.locator('.thread .message-time time');
    await expect.poll(() => times.count()).toBe(2);
    const stored = (await threads()).find((t) => t.messages.length === 2 && t.title === '/say timed');
    expect(await times.evaluateAll((all) => all.map((t) => t.getAttribute('datetime')))).toEqual(stored?.messages.map((m) => m.at));
    expect(await times.first().textContent()).toMatch(/\d{1,2}:\d{2}/);
    expect(await times.first().getAttribute('title')).toMatch(/\d{4}/);
    expect(errors).toEqual([]);
  });

  it('lists its tool calls in plain words; each opens, by mouse or keyboard, to its input and result', async () => {
    const { page, errors } = await conversation();
    await sendMessage(page, '/tool read_document {"project":"shop","path":"app.yaml"}\n/tool no_such_tool {"x":1}');
    const read = page.locator('.entry .tool-call', { hasText: 'read_document' });
    await read.waitFor();
    expect(await read.locator('.kind').textContent()).toBe('read');
    expect(await read.locator('.status').textContent()).toBe('done');
    const failed = page.locator('.entry .tool-call', { hasText: 'no_such_tool' });
    expect(await failed.locator('.status').textContent()).toBe('failed');

    const io = read.locator('.tool-io');
    expect(await io.isVisible()).toBe(false);
    await read.locator('summary').click();
    await io.waitFor();
    expect(await io.locator('.code-block').first().locator('pre').textContent()).toBe(
      // As the model wrote it, live and stored alike.
      JSON.stringify({ project: 'shop', path: 'app.yaml' }, null, 2),
    );
    expect(await io.locator('.code-block').nth(1).locator('.code-label').textContent()).toBe('Result');
    expect(await io.locator('.code-block').nth(1).locator('pre').textContent()).toContain('"path": "app.yaml"');

    // The keyboard opens the other: Enter on its line.
    await failed.locator('summary').focus();
    await page.keyboard.press('Enter');
    await failed.locator('.tool-io').waitFor();
    expect(await failed.locator('.code-label').nth(1).textContent()).toBe('Error');
    expect(await failed.locator('.tool-io').textContent()).toContain('no_such_tool');
    expect(errors).toEqual([]);
  });
});

describe('conversations', () => {
  it('are titled short from the first message, renamed in place (Escape leaves the title), and deleted after asking', async () => {
    const { page, errors } = await conversation();
    await sendMessage(page, '## Why does   staging restart every night after the deploy of the new version?\n/say looking');
    await answers(page).filter({ hasText: 'looking' }).waitFor();
    const bar = panel(page).locator('.thread-bar');
    /** The title the bar shows: the picker's choice, or the title alone when there is nothing else to pick. */
    const shownTitle = () => bar.locator('select option:checked, span.title').first().textContent({ timeout: 1000 });
    await expect.poll(shownTitle).toBe('Why does staging restart every night after the deploy of the…');

    await bar.getByRole('button', { name: 'Rename conversation' }).click();
    const field = bar.getByLabel('Conversation title');
    await field.fill('Not this one');
    await field.press('Escape');
    await expect.poll(shownTitle).toBe('Why does staging restart every night after the deploy of the…');
    // Focus went back to the button that started it.
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Rename conversation');

    await page.keyboard.press('Enter');
    await field.fill('  Nightly   restarts ');
    await field.press('Enter');
    await expect.poll(shownTitle).toBe('Nightly restarts');
    const renamed = (await threads()).find((t) => t.title === 'Nightly restarts');
    expect(renamed).toBeDefined();

    await bar.getByRole('button', { name: 'Delete conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
    expect(await dialog.textContent()).toContain('“Nightly restarts” goes for good: its 2 messages');
    // Keep is first: Escape keeps it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await ada.get(`/api/v1/assistant/threads/${renamed?.id}`)).status).toBe(200);

    await bar.getByRole('button', { name: 'Delete conversation' }).click();
    await dialog.getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(async () => (await ada.get(`/api/v1/assistant/threads/${renamed?.id}`)).status).toBe(404);
    await expect.poll(() => panel(page).getByText('Nightly restarts').count()).toBe(0);
    // This tab deleted it: no word that it went elsewhere.
    await page.waitForTimeout(300);
    expect(await panel(page).getByText('was deleted elsewhere').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('are searched in titles and messages across projects and environments; a found one is shown, on its own page', async () => {
    const elsewhere = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'production', page: PRODUCTION })).body as Thread;
    await ada.post(`/api/v1/assistant/threads/${elsewhere.id}/messages`, { text: 'Rotate the cache keys\n/say the vermilion runbook says to rotate them on Tuesdays' });
    const { page, errors } = await conversation();
    await sendMessage(page, '/say nothing vermilion here, only teal');
    await answers(page).filter({ hasText: 'only teal' }).waitFor();

    await panel(page).getByRole('button', { name: 'Search conversations' }).click();
    const search = panel(page).getByRole('searchbox', { name: 'Search conversations' });
    await expect.poll(() => search.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await search.fill('VERMILION tuesdays');
    const found = panel(page).getByRole('list', { name: 'Conversations found' }).getByRole('button');
    await expect.poll(() => found.count()).toBe(1);
    expect(await found.textContent()).toContain('Rotate the cache keys');
    expect(await found.textContent()).toContain('shop / production');
    expect(await found.locator('mark').textContent()).toBe('vermilion');
    await search.fill('vermilion');
    await expect.poll(() => found.count()).toBe(2);
    await search.fill('no conversation says this');
    await panel(page).getByText('No conversation has “no conversation says this”.').waitFor();

    // Escape goes back to the conversation, focus to the search's button.
    await search.press('Escape');
    await answers(page).filter({ hasText: 'only teal' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Search conversations');

    await panel(page).getByRole('button', { name: 'Search conversations' }).click();
    await search.fill('tuesdays');
    await found.first().click();
    await page.waitForURL(/\/environments\/production$/);
    await answers(page).filter({ hasText: 'the vermilion runbook' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('reuse an empty one for "New conversation" instead of piling them up, per holder; the picker lists none that is empty', async () => {
    const { page, errors } = await ui.open('ada', '/');
    let opened = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/assistant/threads') opened += 1;
    });
    const unscoped = async () => (await threads()).filter((t) => t.project === null);
    const newConversation = panel(page).getByRole('button', { name: 'New conversation' });
    await newConversation.click();
    await expect.poll(async () => (await unscoped()).filter((t) => t.messages.length === 0).length).toBe(1);
    const empty = (await unscoped()).find((t) => t.messages.length === 0);
    await newConversation.click();
    await newConversation.click();
    await page.waitForTimeout(300);
    expect(opened).toBe(1);
    expect((await unscoped()).filter((t) => t.messages.length === 0).map((t) => t.id)).toEqual([empty?.id]);

    // A conversation this tab has just sent to is not empty, even before its stored view says so.
    await sendMessage(page, '/slow 1000\n/say now it has a message');
    await page.locator('.working').waitFor();
    await newConversation.click();
    await expect.poll(() => opened).toBe(2);
    await expect.poll(async () => (await unscoped()).filter((t) => t.messages.length === 0).length).toBe(1);
    await sendMessage(page, '/say a second one');
    await answers(page).filter({ hasText: 'a second one' }).waitFor();

    // An empty one opened elsewhere is reused too, and the picker does not offer it.
    const stray = (await ada.post('/api/v1/assistant/threads', { page: '/' })).body as Thread;
    const picker = panel(page).getByLabel('Conversation', { exact: true });
    await page.reload();
    await picker.waitFor();
    const offered = await picker.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    expect(offered).not.toContain(stray.id);
    await picker.selectOption({ index: 1 });
    await newConversation.click();
    await expect.poll(() => picker.inputValue()).toBe(stray.id);
    expect((await unscoped()).filter((t) => t.messages.length === 0).map((t) => t.id)).toEqual([stray.id]);
    expect(opened).toBe(2);

    // Per holder: the demo agent gets an empty conversation of its own, reused in its turn.
    const holder = panel(page).getByLabel('Conversation with');
    await holder.selectOption('demo-agent');
    await newConversation.click();
    await expect.poll(() => opened).toBe(3);
    await expect.poll(async () => (await unscoped()).filter((t) => t.messages.length === 0).length).toBe(2);
    await newConversation.click();
    await holder.selectOption({ index: 0 });
    await newConversation.click();
    await expect.poll(() => picker.inputValue()).toBe(stray.id);
    expect(opened).toBe(3);
    expect(errors).toEqual([]);
  });

  it('open in the page’s environment only once it is known: while the project is read, New conversation and Send wait', async () => {
    const { page, errors } = await ui.blank();
    // The project's read held back, as on a loaded server: the page knows "shop" but not yet its environments.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/projects/shop', async (route) => {
      await held;
      await route.continue();
    });
    const target = new URL(PRODUCTION, ui.links.ada);
    target.hash = new URL(ui.links.ada).hash;
    // Everything else the panel needs is read: only the environment is unknown.
    const statusRead = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/assistant/status' && r.ok());
    await page.goto(target.toString());
    await statusRead;
    const newConversation = panel(page).getByRole('button', { name: 'New conversation' });
    await page.waitForTimeout(300);
    expect(await newConversation.isDisabled()).toBe(true);
    expect(await page.getByLabel('Message').isDisabled()).toBe(true);

    release();
    await newConversation.click();
    await sendMessage(page, '/say where am I');
    await answers(page).filter({ hasText: 'where am I' }).waitFor();
    const newest = (await threads()).find((t) => t.messages.some((m) => m.role === 'assistant') && t.title.includes('where am I'));
    expect(newest).toMatchObject({ project: 'shop', environment: 'production' });
    expect(errors).toEqual([]);
  });
});

describe.each(['light', 'dark'] as const)('%s', (scheme) => {
  it('reads calmly, with no serious axe violation in the panel: an answer with its tool call open, then the search', async () => {
    const { page, errors } = await conversation(STAGING, scheme);
    await sendMessage(page, MARKDOWN);
    await answers(page).last().locator('.code-block').waitFor();
    await sendMessage(page, '/say Reading the document first.\n/tool read_document {"project":"shop","path":"app.yaml"}');
    const read = page.locator('.entry .tool-call', { hasText: 'read_document' }).last();
    await read.locator('summary').click();
    await read.locator('.tool-io').waitFor();
    await read.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, `answers-${scheme}.png`) });
    expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);

    await panel(page).getByRole('button', { name: 'Search conversations' }).click();
    await panel(page).getByRole('searchbox', { name: 'Search conversations' }).fill('rollout');
    await panel(page).getByRole('list', { name: 'Conversations found' }).getByRole('button').first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, `answers-search-${scheme}.png`) });
    expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);

    await panel(page).getByRole('searchbox', { name: 'Search conversations' }).press('Escape');
    await panel(page).getByRole('button', { name: 'Rename conversation' }).click();
    await page.screenshot({ path: path.join(SCREENSHOTS, `answers-rename-${scheme}.png`) });
    expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);
    await panel(page).getByLabel('Conversation title').press('Escape');

    // On a phone the panel is a drawer: a code block scrolls within itself, the conversation never sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Assistant', exact: true }).click();
    await panel(page).locator('.code-block').first().scrollIntoViewIfNeeded();
    expect(await page.locator('.thread').evaluate((thread) => thread.scrollWidth - thread.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, `answers-390-${scheme}.png`) });
    expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);
    expect(errors).toEqual([]);
  });
});

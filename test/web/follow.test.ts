// The conversation follows its newest message: ten turns in, the newest
// answer, the running turn's Stop and a proposal card are in view, and what
// is typed while a turn runs stays; opening a thread shows its newest
// message; an operator who scrolled up stays where they are and a "New
// messages" pill (mouse or keyboard) takes them down; a message refused
// because a proposal waits brings that proposal into view.
// Screenshots of the pill, light and dark, with an axe scan of the panel.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, pageStaysPut, SCREENSHOTS, sendMessage, seriousViolations } from './fixture.js';

const STAGING = '/projects/shop/environments/staging';

const ui = consoleForFile([], { AION_ASSISTANT_RATE: '1000/1m' });

/** The panel's answers (the last one is the newest). */
const answers = (page: Page) => page.locator('.thread .message.assistant');
const pill = (page: Page) => page.getByRole('button', { name: 'New messages' });

/** Whether the whole element is inside the thread's visible part. */
function inView(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const thread = element.closest('.thread');
    if (!thread) return false;
    const box = thread.getBoundingClientRect();
    const rect = element.getBoundingClientRect();
    return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
  });
}

const scrollTop = (page: Page) => page.locator('.thread').evaluate((thread) => thread.scrollTop);
const scrollToTop = (page: Page) => page.locator('.thread').evaluate((thread) => thread.scrollTo({ top: 0 }));

/** A thread of ada's in shop/staging with `turns` answers ("line 1"…), made over the API. */
async function longThread(turns: number, last?: string): Promise<string> {
  const ada = client(ui.server.url, ui.tokens.ada);
  const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: STAGING })).body as { id: string };
  for (let i = 1; i <= turns; i++) {
    const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: `/say line ${i}` });
    expect(answer.status).toBe(200);
  }
  if (last) expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: last })).status).toBe(200);
  return thread.id;
}

/** Ada's tab on staging with the thread `id` open. */
async function openThread(id: string, scheme: 'light' | 'dark' = 'light') {
  const tab = await ui.open('ada', STAGING, scheme);
  const picker = tab.page.getByLabel('Conversation', { exact: true });
  await tab.page.locator('.thread-holder').waitFor();
  // The list may still be reading: choose the thread once it is offered, and see it chosen.
  await expect.poll(async () => (await picker.count()) === 0 || (await picker.locator(`option[value="${id}"]`).count()) > 0).toBe(true);
  if ((await picker.count()) > 0) {
    await picker.selectOption(id);
    await expect.poll(() => picker.inputValue()).toBe(id);
  }
  return tab;
}

describe('the conversation follows its newest message', () => {
  it('keeps the newest answer and the running turn in view, turn after turn', async () => {
    const { page, errors } = await ui.open('ada', STAGING);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.locator('.thread-holder').waitFor();
    // Seven turns took the newest answer below the fold before the panel followed it.
    for (let i = 1; i <= 8; i++) {
      await sendMessage(page, `/say line ${i}`);
      const answer = answers(page).filter({ hasText: new RegExp(`line ${i}$`) });
      await answer.waitFor();
      await expect.poll(() => inView(answer)).toBe(true);
    }
    expect(await scrollTop(page)).toBeGreaterThan(0);
    // A turn that takes its time: its Stop is in view while it runs, then its answer.
    await sendMessage(page, '/slow 1500\n/say the slow one');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await expect.poll(() => inView(stop)).toBe(true);
    // The box emptied as the message went: the next one typed meanwhile stays when the turn ends.
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    expect(await box.inputValue()).toBe('');
    await box.fill('typed while it ran');
    const slow = answers(page).filter({ hasText: 'the slow one' });
    await slow.waitFor();
    await expect.poll(() => inView(slow)).toBe(true);
    await expect.poll(() => stop.count()).toBe(0);
    expect(await box.inputValue()).toBe('typed while it ran');
    await expect.poll(() => pill(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('opens a long thread at its newest message, and at it again after a reload', async () => {
    const id = await longThread(12);
    const { page, errors } = await openThread(id);
    const newest = answers(page).filter({ hasText: /line 12$/ });
    await newest.waitFor();
    await expect.poll(() => inView(newest)).toBe(true);
    await page.reload();
    await newest.waitFor();
    await expect.poll(() => inView(newest)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('stays where an operator scrolled up to, and "New messages" takes them down (mouse and keyboard)', async () => {
    const id = await longThread(12);
    const { page, errors } = await openThread(id);
    await answers(page).filter({ hasText: /line 12$/ }).waitFor();

    await scrollToTop(page);
    await sendMessage(page, '/say while you read');
    const fresh = answers(page).filter({ hasText: 'while you read' });
    await fresh.waitFor();
    await pill(page).waitFor();
    expect(await scrollTop(page)).toBe(0);
    expect(await inView(fresh)).toBe(false);
    expect(await inView(answers(page).filter({ hasText: /line 1$/ }))).toBe(true);

    await pill(page).click();
    await expect.poll(() => inView(fresh)).toBe(true);
    await expect.poll(() => pill(page).count()).toBe(0);
    // Focus went into the thread, not to the page: arrow keys scroll it.
    await expect.poll(() => page.evaluate('document.activeElement?.className')).toBe('thread');

    // By keyboard: Tab reaches the pill, Enter takes the operator down.
    await scrollToTop(page);
    await sendMessage(page, '/say once more');
    const again = answers(page).filter({ hasText: 'once more' });
    await again.waitFor();
    await pill(page).waitFor();
    await page.getByLabel('Message').focus();
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('↓ New messages');
    await page.keyboard.press('Enter');
    await expect.poll(() => inView(again)).toBe(true);
    await expect.poll(() => pill(page).count()).toBe(0);

    // Scrolling down by hand puts the pill away too.
    await scrollToTop(page);
    await sendMessage(page, '/say and again');
    // The answer first: one that lands after the scroll is new below what the operator scrolled to, and the pill rightly stays.
    await answers(page).filter({ hasText: 'and again' }).waitFor();
    await pill(page).waitFor();
    await page.locator('.thread').evaluate((thread) => thread.scrollTo({ top: thread.scrollHeight }));
    await expect.poll(() => pill(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('brings the waiting proposal into view when a message is refused because it waits', async () => {
    const ada = client(ui.server.url, ui.tokens.ada);
    const stored = (await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml' })).body as {
      result: { text: string; revision: number };
    };
    const write = { project: 'shop', path: 'app.yaml', base_revision: stored.result.revision, text: stored.result.text.replace('port: 8080', 'port: 8443') };
    const id = await longThread(10, `/say I propose serving on 8443.\n/tool write_document ${JSON.stringify(write)}`);
    const { page, errors } = await openThread(id);
    const card = page.locator('.card.proposal.pending');
    await card.waitFor();
    await expect.poll(() => inView(card.getByRole('button', { name: 'Accept', exact: true }))).toBe(true);

    await scrollToTop(page);
    expect(await inView(card.locator('h3'))).toBe(false);
    await sendMessage(page, '/say is anyone there?');
    await page.getByRole('alert').filter({ hasText: 'a proposal is still waiting' }).waitFor();
    await expect.poll(() => inView(card.locator('h3'))).toBe(true);
    // Only the thread scrolled to it: the top bar stays where it was.
    await pageStaysPut(page);
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`shows the pill calmly over the thread (${scheme}), with no serious axe violation`, async () => {
      const id = await longThread(12);
      const { page, errors } = await openThread(id, scheme);
      await answers(page).filter({ hasText: /line 12$/ }).waitFor();
      await page.locator('.thread').evaluate((thread) => thread.scrollTo({ top: thread.scrollHeight / 3 }));
      await sendMessage(page, '/say something new');
      await answers(page).filter({ hasText: 'something new' }).waitFor();
      await pill(page).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `follow-pill-${scheme}.png`) });
      expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

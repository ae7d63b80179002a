// Six tabs of one operator in one browser, all on one conversation: each
// sends a message, and every other tab shows that message and its answer
// within a second — the browser's six connections to a host are not used up
// by streams (the tabs share one, their leader's), so no send waits. The
// connections are counted as the system sees them (`ss`: the streams and the
// pool the browser keeps for plain requests) and as the browser does (the
// requests still answering, by connection: at most two).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, sendMessage, signInTab } from './fixture.js';
import { HeldCount } from './held-count.js';

const STAGING = '/projects/shop/environments/staging';
const TABS = 6;

const ui = consoleForFile([], { AION_ASSISTANT_RATE: '1000/1m' });

/** The browser's established TCP connections to the server (the test's own client, a node process, left out). */
function browserConnections(port: number): number {
  const lines = execFileSync('ss', ['-tnpH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.trim() && !line.includes('"node"')).length;
}

/** Follows the streams `page` holds open (responses of text/event-stream still arriving), by request, with the connection each came on. */
async function openResponses(page: Page): Promise<Map<string, string>> {
  const open = new Map<string, string>();
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (response.mimeType === 'text/event-stream') open.set(requestId, `${response.connectionId}`);
  });
  cdp.on('Network.loadingFinished', ({ requestId }) => open.delete(requestId));
  cdp.on('Network.loadingFailed', ({ requestId }) => open.delete(requestId));
  await cdp.send('Network.enable');
  return open;
}

/** Has `page` note when each message of the conversation first shows, on its own clock (the test's waits would cost more than what they measure). */
function noteMessages(page: Page): Promise<void> {
  return page.evaluate(`(() => {
    const seen = (window.seenMessages = {});
    const note = () => {
      for (const message of document.querySelectorAll('.thread .message')) seen[message.className + '|' + message.textContent.trim()] ??= Date.now();
    };
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
    note();
  })()`);
}

/** When `page` showed both the operator's message `text` and the answer `answer` (the later of the two), or null. */
function shownAt(page: Page, text: string, answer: string): Promise<number | null> {
  return page.evaluate(`(() => {
    const at = (kind, body) => Object.entries(window.seenMessages).find(([key]) => key.includes(kind) && key.endsWith(body))?.[1];
    const asked = at('user', ${JSON.stringify(text)});
    const answered = at('assistant', ${JSON.stringify(answer)});
    return asked === undefined || answered === undefined ? null : Math.max(asked, answered);
  })()`);
}

/** Opens thread `id` in `page`'s assistant panel. */
async function showThread(page: Page, id: string): Promise<void> {
  const picker = page.getByLabel('Conversation', { exact: true });
  await page.locator('.thread-holder').waitFor();
  // The operator's only thread is shown without a picker.
  await expect.poll(async () => (await picker.count()) === 0 || (await picker.locator(`option[value="${id}"]`).count()) > 0).toBe(true);
  if ((await picker.count()) === 0) return;
  await picker.selectOption(id);
  await expect.poll(() => picker.inputValue()).toBe(id);
}

describe('tabs of one browser', () => {
  it('six tabs each send, and every tab sees every message and answer within a second, over at most two connections', async () => {
    const ada = client(ui.server.url, ui.tokens.ada);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: STAGING })).body as { id: string };
    const first = await ui.open('ada', STAGING);
    const pages = [first.page];
    for (let i = 1; i < TABS; i++) pages.push(await first.context.newPage());
    const responses = await Promise.all(pages.map(openResponses));
    /** The topics of each stream the leader opened, in order. */
    const streams: string[][] = [];
    for (const page of pages) {
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/v1/stream') streams.push(url.searchParams.getAll('topic'));
      });
    }
    await first.page.reload();
    await first.page.getByRole('button', { name: 'Sign out' }).waitFor();
    for (const page of pages.slice(1)) await signInTab(page, ui.links.ada, STAGING);
    for (const page of pages) await showThread(page, thread.id);
    for (const page of pages) await noteMessages(page);

    const port = Number(new URL(ui.server.url).port);
    let most = 0;
    /** The connections long-lived responses held. */
    const longLived = new HeldCount();
    /** The longest a tab showed a message and its answer after the sending tab showed the answer. */
    const lags: number[] = [];
    /** How long each send took to show its answer in its own tab (what the machine's load costs). */
    const turns: number[] = [];
    const counting = setInterval(() => {
      most = Math.max(most, browserConnections(port));
      longLived.add(new Set(responses.flatMap((open) => [...open.values()])).size);
    }, 100);
    try {
      for (const [i, page] of pages.entries()) {
        const text = `from tab ${i + 1}`;
        const sent = Date.now();
        await sendMessage(page, `/say ${text}`);
        await page.locator('.thread .message.assistant', { hasText: text }).waitFor({ timeout: 10_000 });
        const answered = (await shownAt(page, `/say ${text}`, text)) ?? Date.now();
        turns.push(answered - sent);
        for (const other of pages) {
          await expect.poll(() => shownAt(other, `/say ${text}`, text), { timeout: 10_000 }).not.toBeNull();
          lags.push(((await shownAt(other, `/say ${text}`, text)) ?? 0) - answered);
        }
      }
    } finally {
      clearInterval(counting);
    }
    await pages[TABS - 1]?.screenshot({ path: path.join(SCREENSHOTS, 'six-tabs.png') });
    const slowest = Math.max(...lags);
    // The figures go with every assertion, so a failure in CI's tail says what was measured.
    const measured = `sends answered in ${turns.join(', ')} ms; the other tabs showed them ${lags.join(', ')} ms later; at most ${longLived.most} connections held by long-lived responses (${longLived.peak} at any one moment), ${most} established (ss)`;
    console.error(`six tabs: ${measured}`);
    expect(slowest, measured).toBeLessThanOrEqual(1000);
    expect(longLived.most, measured).toBeGreaterThan(0);
    expect(longLived.most, measured).toBeLessThanOrEqual(2);
    // What Chromium keeps open to one host over HTTP/1.1 for plain requests: 5 to 7 seen (its pool of six, and
    // now and then a socket it opened ahead); the streams hold at most two of them, so plain requests always find one.
    expect(most, measured).toBeLessThanOrEqual(8);
    for (const page of pages) expect(await page.getByText('Not sent yet').count()).toBe(0);
    // One entry per topic the tabs share: six tabs sharing one conversation's context hear each revision once.
    const topics = (streams.at(-1) ?? []).map((topic) => topic.split('@')[0]);
    expect(topics.filter((topic) => topic === `context:${thread.id}`), topics.join(' ')).toHaveLength(1);
    // (A turn's followers each resume at their own event: those entries may repeat.)
    const sharable = topics.filter((topic) => !topic?.startsWith('turn:'));
    expect(new Set(sharable).size, topics.join(' ')).toBe(sharable.length);
    // Six sign-ins and six turns: under a loaded machine this takes minutes; the lags above are what is measured.
  }, 240_000);

  it('where no stream can be had, says live updates are paused, and a send still goes and is answered', async () => {
    const tab = await ui.blank();
    // A proxy that never answers event streams.
    await tab.page.route('**/api/v1/stream?*', () => undefined);
    await signInTab(tab.page, ui.links.ada, STAGING);
    const paused = tab.page.getByRole('status').filter({ hasText: 'Live updates paused' });
    await paused.waitFor({ timeout: 10_000 });
    await tab.page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(tab.page, '/say polled');
    await tab.page.locator('.thread .message.assistant', { hasText: 'polled' }).waitFor({ timeout: 10_000 });
    await tab.page.screenshot({ path: path.join(SCREENSHOTS, 'live-updates-paused.png') });
    await tab.page.unrouteAll({ behavior: 'ignoreErrors' });
    await paused.waitFor({ state: 'detached', timeout: 20_000 });
  });
});

// The console on plain HTTP to a host name (not localhost): not a secure
// context, so the browser gives it no Web Locks, no crypto.subtle and no
// crypto.randomUUID. Its tabs still share one stream, chosen among themselves
// over a BroadcastChannel (web/src/api/election.ts), and when the leading
// tab closes another takes the stream over within a few seconds. The name
// `aion.test` is mapped to 127.0.0.1 inside the browser; nothing leaves the
// loopback.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldCount } from './held-count.js';
import { client } from '../helpers/http.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { consoleForFile, signInTab } from './fixture.js';

const HOST = 'aion.test';
const STAGING = '/projects/shop/environments/staging';
const TABS = 4;
/** How long a closed leader's tabs may go without a stream (the election waits 3.5 s for a silent leader; a closing one says so). */
const HANDOVER_MS = 5000;

const ui = consoleForFile([], { AION_ALLOWED_ORIGINS: `http://${HOST}` });
let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
});
afterAll(() => browser?.close());

/** The event streams `page` holds open now (responses of text/event-stream still arriving). */
async function openStreams(page: Page): Promise<Set<string>> {
  const open = new Set<string>();
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (response.mimeType === 'text/event-stream') open.add(requestId);
  });
  cdp.on('Network.loadingFinished', ({ requestId }) => open.delete(requestId));
  cdp.on('Network.loadingFailed', ({ requestId }) => open.delete(requestId));
  await cdp.send('Network.enable');
  return open;
}

describe('tabs on plain HTTP to another host (no Web Locks)', () => {
  it('share one stream, and a closed leader hands it over within a few seconds', async () => {
    const ada = client(ui.server.url, ui.tokens.ada);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: STAGING })).body as { id: string };
    const link = new URL(ui.links.ada);
    link.hostname = HOST;
    const context = await browser.context();
    const tabs: { page: Page; streams: Set<string> }[] = [];
    const errors: string[] = [];
    for (let i = 0; i < TABS; i++) {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      tabs.push({ page, streams: await openStreams(page) });
      await signInTab(page, link.toString(), STAGING);
    }
    const first = tabs[0]?.page as Page;
    // What the test claims of the page: no secure context, so none of what it offers.
    expect(await first.evaluate('[isSecureContext, typeof navigator.locks, typeof crypto.subtle, typeof crypto.randomUUID]')).toEqual([
      false,
      'undefined',
      'undefined',
      'undefined',
    ]);

    const streamsNow = () => tabs.reduce((sum, tab) => sum + tab.streams.size, 0);
    await expect
      .poll(streamsNow, { timeout: 20_000 })
      .toBe(1)
      .catch((error: unknown) => {
        console.error(`page errors: ${errors.join('\n') || 'none'}`);
        throw error;
      });
    const held = new HeldCount();
    for (const until = Date.now() + 3000; Date.now() < until; ) {
      held.add(streamsNow());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(held.most, `streams held across ${TABS} tabs (${held.peak} at any one moment)`).toBe(1);
    expect(held.peak, 'streams at any one moment: one answering, and at most one opening to replace it').toBeLessThanOrEqual(2);

    const leader = tabs.find((tab) => tab.streams.size > 0);
    if (!leader) throw new Error('no tab holds the stream');
    tabs.splice(tabs.indexOf(leader), 1);
    const closedAt = Date.now();
    await leader.page.close({ runBeforeUnload: true });
    await expect.poll(streamsNow, { timeout: HANDOVER_MS + 5000, interval: 100 }).toBe(1);
    const handedOverIn = Date.now() - closedAt;
    console.error(`without Web Locks: at most ${held.most} stream across ${TABS} tabs; the closed leader's stream was taken over in ${handedOverIn} ms`);
    expect(handedOverIn).toBeLessThanOrEqual(HANDOVER_MS);

    // The new leader's stream carries every tab's topics: a message sent elsewhere shows in each tab.
    for (const { page } of tabs) await page.locator('.thread-holder').waitFor();
    for (const { page } of tabs) {
      const picker = page.getByLabel('Conversation', { exact: true });
      if ((await picker.count()) > 0) await picker.selectOption(thread.id);
    }
    const sent = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: '/say after the handover' });
    expect(sent.status, sent.text).toBe(200);
    for (const { page } of tabs) await page.locator('.thread .message.assistant', { hasText: 'after the handover' }).waitFor({ timeout: 10_000 });
    await expect.poll(streamsNow, { timeout: 5000, interval: 100 }).toBe(1);
    await context.close();
  }, 180_000);
});

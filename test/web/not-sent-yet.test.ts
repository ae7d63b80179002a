// A message the server has not heard of: sent while the network between the
// browser and the server stalls (a loopback relay holds everything the
// browser sends, its connections still up, so nothing in the page fails),
// the conversation says "Sending…", then after a few seconds "Not sent yet —
// waiting for the connection", and never that the assistant is working.
// Once the relay lets it through, the message reaches the server and is
// answered, exactly once.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, sendMessage, signInTab } from './fixture.js';
import { relay } from './relay.js';

const STAGING = '/projects/shop/environments/staging';
const TEXT = '/say delivered once';

const ui = consoleForFile();

interface Seen {
  sending?: number;
  notSent?: number;
  working?: string;
}

describe('a send the server has not heard of', () => {
  it('says "Sending…", then "Not sent yet", never "working", and goes exactly once when the connection is back', async () => {
    const ada = client(ui.server.url, ui.tokens.ada);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: STAGING })).body as { id: string };
    const through = await relay(ui.server.url);
    try {
      const { page } = await ui.blank();
      await signInTab(page, `${through.origin}/${new URL(ui.links.ada).hash}`, STAGING);
      await page.locator('.thread-holder').waitFor();
      // The operator's only thread is the one shown.
      await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
      // The page notes, on its own clock, when each line first shows, and any "working" line at all.
      await page.evaluate(`(() => {
        const seen = (window.sendSeen = {});
        const note = () => {
          const text = document.querySelector('.thread')?.textContent ?? '';
          if (text.includes('Sending…')) seen.sending ??= Date.now();
          if (text.includes('Not sent yet — waiting for the connection')) seen.notSent ??= Date.now();
          const working = [...document.querySelectorAll('.thread .working')].map((e) => e.textContent).find((t) => / is working/.test(t));
          if (working) seen.working ??= working;
        };
        new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
      })()`);

      through.hold();
      const heldAt = Date.now();
      await sendMessage(page, TEXT);
      const notSent = page.locator('.thread').getByText('Not sent yet — waiting for the connection.');
      await notSent.waitFor({ timeout: 10_000 });
      // A while longer: still not sent, still not working.
      await page.waitForTimeout(2000);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'not-sent-yet.png') });
      const seen = (await page.evaluate('window.sendSeen')) as Seen;
      expect(seen.sending, 'Sending… shown').toBeDefined();
      expect(seen.notSent, 'Not sent yet shown').toBeGreaterThan(seen.sending ?? Infinity);
      expect(seen.working, 'a working line for a turn the server does not know').toBeUndefined();
      const stored = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as { messages: { role: string; text: string }[] };
      expect(stored.messages.filter((m) => m.text === TEXT)).toEqual([]);
      console.error(`not sent yet: "Sending…" ${(seen.sending ?? 0) - heldAt} ms after the hold, "Not sent yet" ${(seen.notSent ?? 0) - (seen.sending ?? 0)} ms after that`);

      through.release();
      await page.locator('.thread .message.assistant', { hasText: 'delivered once' }).waitFor({ timeout: 15_000 });
      await expect.poll(() => notSent.count()).toBe(0);
      const after = (await ada.get(`/api/v1/assistant/threads/${thread.id}`)).body as { messages: { role: string; text: string }[] };
      expect(after.messages.filter((m) => m.role === 'user' && m.text === TEXT)).toHaveLength(1);
      expect(after.messages.filter((m) => m.role === 'assistant' && m.text.includes('delivered once'))).toHaveLength(1);
    } finally {
      await through.close();
    }
  }, 120_000);
});

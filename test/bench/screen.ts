// A turn's event on screen (DESIGN.md §11, the console): the operator's tab
// follows a turn it sent; this process follows the same turn over its own
// stream. Each text event is timed where this process receives it (as good as
// when the server sent it, on loopback) and in the page at the first frame
// that paints it; both clocks are this machine's.
import { existsSync } from 'node:fs';
import { followTurn } from '../helpers/sse.js';
import { CHROMIUM, launchBrowser } from '../web/browser.js';
import { median, ms, percentile, type Row } from './lib.js';

const TURNS = 15;
const STAGING = '/projects/shop/environments/staging';

/** Records, in the page, when each `marker-N` is first painted in an answer (epoch ms). */
const WATCH_MARKERS = `(() => {
  const seen = (window.__painted = {});
  new MutationObserver(() => {
    // The answer as it streams, or as stored: never the operator's own message, which names the marker too.
    const text = [...document.querySelectorAll('.thread .live, .thread .message.assistant')].map((e) => e.textContent).join(' ');
    for (const match of text.matchAll(/marker-(\\d+)/g)) {
      if (seen[match[1]] !== undefined) continue;
      seen[match[1]] = null;
      requestAnimationFrame(() => (seen[match[1]] = performance.timeOrigin + performance.now()));
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

export async function screenRows(url: string, token: string): Promise<Row[]> {
  if (!existsSync(CHROMIUM)) return [{ measure: "a turn's event on screen", figure: 'not measured', target: `needs ${CHROMIUM}`, met: null }];
  process.stdout.write(`screen: ${TURNS} turns followed in a tab and here…\n`);
  const browser = await launchBrowser();
  try {
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(`${url}/#token=${token}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(`${url}${STAGING}`);
    const opened = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/assistant/threads'));
    await page.getByRole('button', { name: 'New conversation' }).click();
    const threadId = ((await (await opened).json()) as { id: string }).id;
    await page.locator('.thread-holder').waitFor();
    await page.evaluate(WATCH_MARKERS);
    const delays: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const here = followTurn(url, token, threadId);
      await here.open;
      const box = page.getByLabel('Message');
      await box.fill(`/slow 200\n/say marker-${i}`);
      await page.locator('.message-box').getByRole('button', { name: 'Send', exact: true }).and(page.locator(':enabled')).waitFor();
      await box.press('Enter');
      const received = await here.until((e) => e.data.type === 'text' && e.data.delta.includes(`marker-${i}`));
      await here.done;
      const painted = await page.waitForFunction((n) => (globalThis as unknown as { __painted: Record<string, number | null> }).__painted[n] ?? null, String(i));
      // Below zero (the tab painted it before this process read it) counts as no delay at all.
      delays.push(Math.max(0, ((await painted.jsonValue()) as number) - (performance.timeOrigin + received.at)));
    }
    delays.sort((a, b) => a - b);
    return [
      {
        measure: `a turn's text on screen after this process received it, ${TURNS} turns: p50 / worst`,
        figure: `${ms(median(delays))} / ${ms(delays.at(-1) ?? NaN)}`,
        target: '≤ 100 ms (p50)',
        met: median(delays) <= 100,
      },
      { measure: `  the same, p90`, figure: ms(percentile(delays, 90)), target: 'reported', met: null },
    ];
  } finally {
    await browser.close();
  }
}

// Tabs before a request waits (issue 36): one operator opens tabs of the
// console in one browser, one after another, each on a project's page with
// the assistant panel; after each, the newest tab asks for the project list.
// The figure is the first tab count at which that plain request waited past
// a bound (its browser's connections held by streams); the goal is none.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, launchBrowser } from '../web/browser.js';
import type { Row } from './lib.js';

const MOST_TABS = 12;
/** A plain request slower than this waited in the browser's queue (on loopback it takes milliseconds). */
const WAITED_MS = 2000;

export async function tabRows(url: string, token: string): Promise<Row[]> {
  const measure = `tabs of one browser before a plain request waits (up to ${MOST_TABS})`;
  if (!existsSync(CHROMIUM)) return [{ measure, figure: 'not measured', target: `needs ${CHROMIUM}`, met: null }];
  const browser = await launchBrowser();
  try {
    const context = await browser.context();
    let waitedAt: number | null = null;
    let slowest = 0;
    for (let tabs = 1; tabs <= MOST_TABS && waitedAt === null; tabs++) {
      const page = await context.newPage();
      await page.goto(`${url}/projects/shop/environments/staging#token=${token}`);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const took = await page.evaluate(`(async () => {
        const started = performance.now();
        const token = sessionStorage.getItem('aion.token');
        const answer = await Promise.race([
          fetch('/api/v1/projects', { headers: { authorization: 'Bearer ' + token } }).then((r) => r.arrayBuffer()),
          new Promise((resolve) => setTimeout(resolve, ${WAITED_MS})),
        ]);
        return answer === undefined ? null : performance.now() - started;
      })()`);
      if (typeof took === 'number') slowest = Math.max(slowest, took);
      else waitedAt = tabs;
    }
    const figure = waitedAt === null ? `none up to ${MOST_TABS} (slowest ${Math.round(slowest)} ms)` : `${waitedAt}`;
    return [{ measure, figure, target: 'unlimited', met: waitedAt === null }];
  } finally {
    await browser.close();
  }
}

// Alone: `npx tsx test/bench/tabs.ts URL TOKEN` against a running `ops serve --demo`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [url, token] = process.argv.slice(2);
  if (!url || !token) throw new Error('usage: tsx test/bench/tabs.ts URL TOKEN');
  console.error(JSON.stringify(await tabRows(url, token)));
}

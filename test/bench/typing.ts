// Typing in a 1 MiB document (issue 33): keys typed at the end of its text
// once it is open and checked, and in its middle, as fast as the page takes them,
// with the demo's small document typed in a tab beside it in the same
// seconds for comparison; each key timed in the page from its key event to
// the end of the frame after the editor's update (test/web/typing.ts).
import { existsSync } from 'node:fs';
import { CHROMIUM, launchBrowser } from '../web/browser.js';
import { largeYaml, percentileOf, typeSideBySide, typingFigures } from '../web/typing.js';
import { ms, type Row } from './lib.js';

const KEYS = 100;
const BUDGET_MS = 50;
const PATH = 'bench-large.yaml';

export async function typingRows(url: string, token: string): Promise<Row[]> {
  if (!existsSync(CHROMIUM)) return [{ measure: 'typing in a 1 MiB document', figure: 'not measured', target: `needs ${CHROMIUM}`, met: null }];
  process.stdout.write(`typing: ${KEYS * 2} keys in a 1 MiB document, ${KEYS * 2} in a small one…\n`);
  const text = largeYaml(1_040_000);
  const written = await fetch(`${url}/api/v1/assistant/tools/write_document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: 'shop', path: PATH, text }),
  });
  if (((await written.json()) as { is_error?: boolean }).is_error !== false) throw new Error(`writing ${PATH} failed (${written.status})`);
  const browser = await launchBrowser();
  try {
    // A context per tab, as two operators' windows: the sign-in is kept per tab.
    const open = async (doc: string) => {
      const page = await (await browser.context()).newPage();
      await page.goto(`${url}/#token=${token}`);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.goto(`${url}/projects/shop/documents/${doc}?environment=staging`);
      return page;
    };
    const { atEnd, inMiddle, smallKeys } = await typeSideBySide(open, { large: PATH, small: 'app.yaml', middle: 'service-4000:' }, KEYS);
    const large = [...atEnd, ...inMiddle].sort((a, b) => a - b);
    const p95 = percentileOf(large, 95);
    return [
      { measure: `typing in a 1 MiB document, p95 per key (${KEYS * 2} keys)`, figure: ms(p95), target: `≤ ${BUDGET_MS} ms`, met: p95 <= BUDGET_MS },
      { measure: '  the same, p50 / worst', figure: `${ms(percentileOf(large, 50))} / ${ms(large.at(-1) ?? NaN)}`, target: 'reported', met: null },
      { measure: '  at the end / in the middle', figure: `${typingFigures(atEnd)} / ${typingFigures(inMiddle)}`, target: 'reported', met: null },
      { measure: '  a small document typed beside it, p95 (p50)', figure: `${ms(percentileOf(smallKeys, 95))} (${ms(percentileOf(smallKeys, 50))})`, target: 'reported', met: null },
    ];
  } finally {
    await browser.close();
  }
}

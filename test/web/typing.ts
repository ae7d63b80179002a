// Typing in a large document, measured inside the page: for each key, from
// the key event's own time stamp (when the browser took it, so a key that
// waited behind the previous one's work counts that wait) to the end of the
// first frame after the editor's update. Used by `npm run bench` and
// typing.test.ts.
import type { Page } from 'playwright-core';

/** Valid YAML of about `bytes` bytes (at most), a service per block. */
export function largeYaml(bytes: number): string {
  const blocks: string[] = ['services:'];
  let size = blocks[0]!.length + 1;
  for (let i = 0; size < bytes; i++) {
    const block = `  service-${i}:\n    image: registry.example/team/service-${i}:1.${i % 50}.0\n    replicas: ${(i % 5) + 1}\n    note: "owned by team ${i % 17}, paged at night"\n`;
    blocks.push(block.slice(0, -1));
    size += Buffer.byteLength(block);
  }
  const text = `${blocks.join('\n')}\n`;
  // Cut at a line end at or below the size asked for.
  return text.slice(0, text.lastIndexOf('\n', bytes - 1) + 1);
}

/** Each keydown records its latency to the next frame's end; the listener goes in once, the record starts afresh each time. */
const RECORD_KEYS = `(() => {
  if (!window.__keyLatencies) {
    document.addEventListener('keydown', (event) => {
      const start = event.timeStamp;
      // The frame after everything this key ran (its handlers, the editor's update), then the task after that frame.
      requestAnimationFrame(() => setTimeout(() => window.__keyLatencies.push(performance.now() - start), 0));
    }, true);
  }
  window.__keyLatencies = [];
})()`;

/**
 * Types `count` keys (letters, with an Enter every 20) where the cursor is, as
 * fast as the page takes them, and returns each key's latency in ms, sorted.
 */
export async function typeAndMeasure(page: Page, count: number): Promise<number[]> {
  await page.evaluate(RECORD_KEYS);
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(i % 20 === 19 ? 'Enter' : String.fromCharCode(97 + (i % 26)));
  }
  await page.waitForFunction((n) => (globalThis as unknown as { __keyLatencies: number[] }).__keyLatencies.length >= n, count);
  const latencies = await page.evaluate(() => (globalThis as unknown as { __keyLatencies: number[] }).__keyLatencies);
  return latencies.sort((a, b) => a - b);
}

/** The `p`th percentile of sorted values (nearest rank). */
export function percentileOf(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export interface SideBySide {
  large: Page;
  small: Page;
  /** Each key's latency, sorted: at the end of the large text, in its middle, and in the small one. */
  atEnd: number[];
  inMiddle: number[];
  smallKeys: number[];
}

/**
 * Types `keys` keys at the end of the `large` document once its first check
 * is in (the server's check of 1 MiB takes a core of this machine, which a
 * server elsewhere would not), then at the end of the `small` one (a tab beside it), then in the
 * large one's middle (the end of the line the search panel finds for
 * `middle`), then in the small one again. `open` opens a document's editor in
 * a new tab, signed in.
 */
export async function typeSideBySide(open: (doc: string) => Promise<Page>, docs: { large: string; small: string; middle: string }, keys: number): Promise<SideBySide> {
  const atEndOf = async (doc: string) => {
    const page = await open(doc);
    await page.locator('.problems').filter({ hasText: /checked for staging/ }).waitFor({ timeout: 60_000 });
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    return page;
  };
  const typeIn = async (page: Page) => {
    await page.bringToFront();
    return typeAndMeasure(page, keys);
  };
  const large = await atEndOf(docs.large);
  const atEnd = await typeIn(large);
  const small = await atEndOf(docs.small);
  const smallFirst = await typeIn(small);
  await large.bringToFront();
  await large.keyboard.press('Control+f');
  await large.getByRole('textbox', { name: 'Find' }).waitFor();
  // Typed, not filled: the panel takes its query on key up.
  await large.keyboard.type(docs.middle);
  await large.keyboard.press('Enter');
  await large.keyboard.press('Escape');
  await large.keyboard.press('End');
  const inMiddle = await typeIn(large);
  const smallKeys = [...smallFirst, ...(await typeIn(small))].sort((a, b) => a - b);
  return { large, small, atEnd, inMiddle, smallKeys };
}

/** "p50 … ms, p95 … ms" of sorted latencies. */
export const typingFigures = (sorted: number[]) => `p50 ${percentileOf(sorted, 50).toFixed(1)} ms, p95 ${percentileOf(sorted, 95).toFixed(1)} ms`;

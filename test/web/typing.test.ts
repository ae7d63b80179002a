// Typing in a 1 MiB document (issue 33): a key costs what it costs in a small
// one. Keys are typed as fast as the page takes them at the end and in the
// middle of 1 MiB, once it is open and checked (under load Lezer's parse
// from the top had not reached the end yet then, and every key paid for it),
// and in the demo's small document in between, in tabs open side by side; each key is timed in the
// page (test/web/typing.ts). The machine is shared: a p95 over 50 ms passes
// when the small document's, typed in the same seconds, is as slow (within
// RATIO), and both figures are printed. A stall of the machine (another test
// file's browser or server) queues every key pressed meanwhile, so a single
// stall of 250 ms can fill a round's p95: a failed measurement is taken once
// more, in new tabs, before the test fails (slow keys of the editor's own
// repeat; a stall does not). On an idle machine the old editor passed too, so
// what made keys slow under load is asserted as well.
import { describe, expect, it } from 'vitest';
import { consoleForFile, runToolAs } from './fixture.js';
import { largeYaml, percentileOf, typeSideBySide, typingFigures, type SideBySide } from './typing.js';

const ui = consoleForFile();
const KEYS = 60;
const BUDGET_MS = 50;
const RATIO = 2;
const LARGE = 'typing-large.yaml';
const ATTEMPTS = 2;

describe('typing in a 1 MiB document', () => {
  it('costs a key no more than 50 ms at p95, or no more than in a small document typed alongside', async () => {
    await runToolAs(ui, 'ada', 'write_document', { project: 'shop', path: LARGE, text: largeYaml(1_040_000) });
    const open = async (doc: string) => (await ui.open('ada', `/projects/shop/documents/${doc}?environment=staging`)).page;
    let typed: SideBySide | null = null;
    let p95 = Infinity;
    let smallP95 = 0;
    const met = () => p95 <= BUDGET_MS || p95 <= RATIO * smallP95;
    for (let attempt = 1; attempt <= ATTEMPTS && !met(); attempt++) {
      typed = await typeSideBySide(open, { large: LARGE, small: 'app.yaml', middle: 'service-4000:' }, KEYS);
      const largeKeys = [...typed.atEnd, ...typed.inMiddle].sort((a, b) => a - b);
      p95 = percentileOf(largeKeys, 95);
      smallP95 = percentileOf(typed.smallKeys, 95);
      console.error(
        `typing (attempt ${attempt}), ${KEYS * 2} keys each: 1 MiB ${typingFigures(largeKeys)} (end: ${typingFigures(typed.atEnd)}; middle: ${typingFigures(typed.inMiddle)}); small document ${typingFigures(typed.smallKeys)}`,
      );
    }
    if (!typed) throw new Error('nothing typed');
    const { large, small } = typed;

    // What was typed is there, at the end and after service-4000's key, and the lines in view are still coloured.
    const letters = 'abcdefghijklmnopqrs';
    await expect.poll(() => large.locator('.cm-line', { hasText: `service-4000:${letters}` }).count()).toBe(1);
    expect(await large.locator('.cm-line span[class]', { hasText: /^service-\d+$/ }).count()).toBeGreaterThan(0);
    await large.keyboard.press('Control+End');
    await expect.poll(() => large.locator('.cm-line', { hasText: letters }).count()).toBeGreaterThan(0);

    // The cause, which an idle machine hides (there Lezer's parse of 1 MiB ends before the first key): the large text
    // runs no parser over the whole text (CodeMirror marks the content with the language it parses), the small one does.
    expect(await large.locator('.cm-content').getAttribute('data-language')).toBeNull();
    expect(await small.locator('.cm-content').getAttribute('data-language')).toBe('yaml');

    expect(met(), `1 MiB p95 ${p95.toFixed(1)} ms, the small document's ${smallP95.toFixed(1)} ms`).toBe(true);
  }, 120_000);
});

// The server going away: within 2 s a banner says "Reconnecting… — your
// unsaved text is kept", the actions wait and say why, and once the server
// is back the banner goes by itself, the draft still there, without a reload.
// The browser reaches the server through a loopback relay the test cuts and
// restores (every connection dropped, nothing listening), as an outage looks
// to it. Screenshots at 1280 and 390 px, light and dark, with axe.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleForFile, moderateViolations, SCREENSHOTS, signInTab } from './fixture.js';
import { relay } from './relay.js';

const ui = consoleForFile();

describe('an outage', () => {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 390],
  ] as const) {
    it(`says so within 2 s, holds the actions with the reason, keeps the draft and clears by itself (${scheme}, ${width} px)`, async () => {
      const through = await relay(ui.server.url);
      try {
        const { page, errors } = await ui.blank(scheme);
        await page.setViewportSize({ width, height: 800 });
        const link = new URL(ui.links.ada);
        await signInTab(page, `${through.origin}/${link.hash}`, '/projects/shop/documents/app.yaml');
        // Typed once the editor holds the document: text typed before it loads is replaced by it. (What is typed
        // while the operator's permissions are still read stays: test/web/fresh-editor.test.ts.)
        await page.locator('.cm-content').filter({ hasText: 'service: shop' }).waitFor();
        await page.locator('.cm-content').click();
        await page.keyboard.press('Control+Home');
        await page.keyboard.insertText('# typed during an outage\n');
        await page.locator('.cm-content', { hasText: '# typed during an outage' }).waitFor({ timeout: 5_000 });
        const save = page.getByRole('button', { name: 'Save', exact: true });
        await expect.poll(() => save.getAttribute('aria-disabled'), { timeout: 10_000 }).toBe(null);

        const banner = page.getByRole('status', { name: 'Connection' });
        const cutAt = Date.now();
        await through.cut();
        await banner.getByText('Reconnecting…').waitFor({ timeout: 2000 });
        const shownIn = Date.now() - cutAt;
        expect(shownIn).toBeLessThanOrEqual(2000);
        expect(await banner.textContent()).toContain('your unsaved text is kept');
        expect(await save.getAttribute('aria-disabled')).toBe('true');
        expect(await save.getAttribute('title')).toContain('the server cannot be reached');
        // A request that failed meanwhile (the check of the typed text) says so in words, not the browser's.
        expect(await page.getByText('Failed to fetch').count()).toBe(0);
        await page.screenshot({ path: path.join(SCREENSHOTS, `outage-${scheme}-${width}.png`) });
        expect(await moderateViolations(page, '.shell')).toEqual([]);

        const restoredAt = Date.now();
        await through.restore();
        await expect.poll(() => banner.textContent(), { timeout: 5000 }).toBe('');
        console.error(`outage banner: shown ${shownIn} ms after the cut, gone ${Date.now() - restoredAt} ms after the server was back`);
        await expect.poll(() => save.getAttribute('aria-disabled'), { timeout: 10_000 }).toBe(null);
        expect(await page.locator('.cm-content').textContent()).toContain('# typed during an outage');
        // Only the fetches cut by the outage complain.
        expect(errors.filter((e) => !/Failed to load resource|ERR_CONNECTION|Failed to fetch/.test(e))).toEqual([]);
      } finally {
        await through.close();
      }
    });
  }
});

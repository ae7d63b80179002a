// The keyboard lands where it should: each route change moves the focus to
// the new page's heading (not the body), the first Tab is a skip link to the
// page, and few Tabs lead from a project to its documents. axe finds nothing
// moderate or worse on the project page, light and dark, 1280 and 390 px.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleForFile, moderateViolations, SCREENSHOTS } from './fixture.js';

const ui = consoleForFile();

const focused = (page: Page) => page.evaluate<string>("`${document.activeElement?.tagName ?? ''} ${document.activeElement?.textContent?.trim() ?? ''}`");

describe('the keyboard', () => {
  it('moves the focus to the new page’s heading on each route change', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    for (const [link, heading] of [
      ['Members', 'Members'],
      ['Audit', 'Audit'],
      ['Documents', 'Documents'],
      // The editor shows its heading once its document is read: the focus waits for it.
      ['app.yaml', 'app.yaml'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: link, exact: true }).click();
      await expect.poll(() => focused(page)).toBe(`H1 ${heading}`);
    }
    expect(errors).toEqual([]);
  });

  it('offers a skip link first, and reaches the documents from a project within 6 Tabs', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Skip to content');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'skip-link-light.png') });
    // The second skip link leads to the project's pages: its Enter is the only other key.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Skip to the project’s pages');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('A Overview');
    let tabs = 2;
    while (tabs < 30 && (await focused(page)) !== 'A Documents') {
      await page.keyboard.press('Tab');
      tabs++;
    }
    console.error(`Tabs from the project page to Documents: ${tabs} (and one Enter)`);
    expect(tabs).toBeLessThanOrEqual(6);
    for (const [scheme, width] of [
      ['light', 1280],
      ['dark', 390],
    ] as const) {
      const tab = await ui.open('ada', '/projects/shop', scheme);
      await tab.page.setViewportSize({ width, height: 800 });
      await tab.page.getByRole('heading', { level: 1 }).waitFor();
      await tab.page.screenshot({ path: path.join(SCREENSHOTS, `project-${scheme}-${width}.png`) });
      expect(await moderateViolations(tab.page, '.shell')).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

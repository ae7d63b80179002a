// The audit page: changes by default (reads behind a switch), each row naming
// its target with a link, filters by tool (picked from a list), operator,
// outcome and days; the table never clips at 1024 px. Screenshots saved for
// review, with axe at 1440, 1024 and 390 px, light and dark.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();
let written: number;
beforeAll(async () => {
  const call = async (who: 'ada' | 'vic', name: string, input: Record<string, unknown>) =>
    ((await client(ui.server.url, ui.tokens[who]).post(`/api/v1/assistant/tools/${name}`, { project: 'shop', ...input })).body as {
      result: { revision: number; text: string };
    }).result;
  const current = await call('ada', 'read_document', { path: 'app.yaml' });
  written = (await call('ada', 'write_document', { path: 'app.yaml', base_revision: current.revision, text: `${current.text}# audited\n` })).revision;
  await call('ada', 'set_secret', { environment: 'staging', name: 'AUDITED_KEY', value: 'not shown' });
  await call('vic', 'write_document', { path: 'app.yaml', text: 'a: 1\n' });
});

const AUDIT = '/projects/shop/audit';
const rowsOf = (page: Page) => page.getByRole('region', { name: 'Audit entries' }).locator('tbody tr');
const column = (page: Page, n: number) => rowsOf(page).locator(`td:nth-child(${n})`).allTextContents();
const TOOL = 3;

describe('the audit', () => {
  it('shows changes by default, each naming its target with a link; reads come back with the switch', async () => {
    const { page, errors } = await ui.open('ada', AUDIT);
    await rowsOf(page).first().waitFor();
    const tools = await column(page, TOOL);
    expect(tools).toContain('write_document');
    expect(tools).not.toContain('read_document');
    expect(tools).not.toContain('list_documents');

    const document = page.getByRole('link', { name: `app.yaml r${written}` });
    expect(await document.getAttribute('href')).toBe(`/projects/shop/documents/app.yaml/history?to=${written}`);
    const secret = rowsOf(page).filter({ hasText: 'AUDITED_KEY' }).first();
    expect(await secret.locator('td:nth-child(4)').textContent()).toBe('secret AUDITED_KEY in staging');
    expect(await secret.getByRole('link', { name: 'staging' }).getAttribute('href')).toBe('/projects/shop/environments/staging');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-changes-light.png') });

    await page.getByRole('switch', { name: 'Show reads' }).check();
    await expect.poll(() => column(page, TOOL)).toContain('read_document');
    expect(new URL(page.url()).search).toBe('?reads=1');
    await document.click();
    await page.getByRole('heading', { name: `Diff r${written - 1} → r${written}` }).waitFor();
    expect(errors).toEqual([]);
  });

  it('filters by tool from a list, by operator, by outcome and by days', async () => {
    const { page, errors } = await ui.open('ada', AUDIT);
    await rowsOf(page).first().waitFor();
    const filters = page.getByRole('group', { name: 'Filters' });
    await filters.getByLabel('Tool').selectOption('set_secret');
    await expect.poll(async () => [...new Set(await column(page, TOOL))]).toEqual(['set_secret']);

    await filters.getByLabel('Tool').selectOption('');
    await filters.getByLabel('Operator').selectOption('vic');
    await filters.getByLabel('Outcome').selectOption('refused');
    await expect.poll(() => column(page, TOOL)).toEqual(['write_document']);
    expect(await rowsOf(page).first().textContent()).toContain('you need document:write on shop; your role there is viewer');

    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv');
    await filters.getByLabel('From').fill(tomorrow);
    await page.getByText('No changes match these filters; reads are hidden (Show reads).').waitFor();
    expect(await rowsOf(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it.each(['light', 'dark'] as const)('does not clip at any width and has no serious accessibility violation (%s)', async (scheme) => {
    const { page, errors } = await ui.open('ada', AUDIT, scheme);
    for (const width of [1440, 1024, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await rowsOf(page).first().waitFor();
      // The page never scrolls sideways: a table too wide scrolls within its own box.
      const overflow = await page.evaluate<number>(
        "(() => { const p = document.querySelector('main, .page'); return p ? p.scrollWidth - p.clientWidth : -1; })()",
      );
      expect(overflow, `${width} px`).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `audit-${width}-${scheme}.png`) });
      expect(await seriousViolations(page, 'body'), `${width} ${scheme}`).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

// Every page of the console, light and dark: no error in the browser
// console, no serious or critical axe-core violation, and a 1280×800
// screenshot saved for review (test/web/screenshots, not committed).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, SCREENSHOTS, seriousViolations, signInTab } from './fixture.js';

/** Each page, and what shows it has loaded. */
const PAGES = [
  { name: 'projects', path: '/', ready: 'table tbody tr' },
  { name: 'project', path: '/projects/shop', ready: 'table tbody tr' },
  { name: 'documents', path: '/projects/shop/documents', ready: 'table tbody tr' },
  { name: 'editor', path: '/projects/shop/documents/app.yaml?environment=staging', ready: '.problems .ok' },
  { name: 'environment', path: '/projects/shop/environments/staging', ready: '.timeline li' },
  { name: 'members', path: '/projects/shop/members', ready: 'table tbody tr' },
  { name: 'audit', path: '/projects/shop/audit', ready: 'table tbody tr' },
];

const ui = consoleForFile();
beforeAll(async () => {
  // A conversation with a proposal waiting, so the panel shows what it is for.
  const ada = client(ui.server.url, ui.tokens.ada);
  const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: '/projects/shop' })).body as { id: string };
  const text = (await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml' })).body as { result: { text: string; revision: number } };
  const proposed = text.result.text.replace('port: 8080', 'port: 8443');
  const answer = await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, {
    text: [
      'Serve the shop on 8443, please.',
      `/tool write_document ${JSON.stringify({ project: 'shop', path: 'app.yaml', base_revision: text.result.revision, text: proposed, message: 'serve on 8443' })}`,
      '/say I propose serving on 8443. Accept it to save r3; deploying stays yours.',
    ].join('\n'),
  });
  expect(answer.status).toBe(200);
});

/** The page's serious and critical axe violations, each in one line. */
async function seriousViolationsOf(page: Page): Promise<string[]> {
  return (await seriousViolations(page, 'html')).map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

describe.each(['light', 'dark'] as const)('every page, %s', (scheme) => {
  it('signs in without an error or a serious accessibility violation', async () => {
    const { page, errors } = await ui.blank(scheme);
    await page.goto(ui.server.url + '/');
    await page.getByLabel('Token').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, `sign-in-${scheme}.png`) });
    expect(await seriousViolationsOf(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows each page without an error or a serious accessibility violation', async () => {
    const { page, errors } = await ui.open('ada', '/', scheme);
    for (const { name, path: route, ready } of PAGES) {
      await page.goto(ui.server.url + route);
      await page.locator(ready).first().waitFor();
      if (route.startsWith('/projects/')) await page.locator('.card.proposal').first().waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`) });
      expect(await seriousViolationsOf(page), name).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

describe('a part of the console that fails', () => {
  it('says so in its place with Reload while the rest goes on; another page, or Reload, shows it again', async () => {
    const { page } = await ui.blank();
    // Answers the panel and the members page cannot show, as a faulty server or a stale tab might get.
    const brokenAgents = '**/api/v1/assistant/agents';
    const brokenMembers = '**/api/v1/assistant/tools/list_members';
    await page.route(brokenAgents, (route) => route.fulfill({ json: [null] }));
    await page.route(brokenMembers, (route) => route.fulfill({ json: { is_error: false, result: { members: [null] } } }));
    await signInTab(page, ui.links.ada, '/projects/shop');

    const panel = page.getByRole('region', { name: 'Assistant' });
    const panelAlert = panel.getByRole('alert');
    await panelAlert.waitFor();
    expect(await panelAlert.locator('p').first().textContent()).toBe(
      'The assistant could not be shown: something in the console went wrong. Reloading the tab usually brings it back; unsaved drafts stay.',
    );
    expect(await panelAlert.getByRole('button', { name: 'Reload' }).count()).toBe(1);
    // The page beside it works: its table, and the navigation to another page.
    await page.locator('main table tbody tr').first().waitFor();
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Members' }).click();

    const main = page.locator('main');
    const pageAlert = main.getByRole('alert');
    await pageAlert.waitFor();
    expect(await pageAlert.locator('p').first().textContent()).toMatch(/^This page could not be shown: /);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'part-failed-light.png') });
    // Another page is shown afresh.
    await nav.getByRole('link', { name: 'Documents' }).click();
    await main.locator('table tbody tr').first().waitFor();
    expect(await pageAlert.count()).toBe(0);

    // Once the answers are sound again, Reload shows both (until then the tab holds the answer it could not show).
    await page.unroute(brokenAgents);
    await page.unroute(brokenMembers);
    await nav.getByRole('link', { name: 'Members' }).click();
    await pageAlert.waitFor();
    await pageAlert.getByRole('button', { name: 'Reload' }).click();
    await main.getByRole('combobox', { name: 'Role of ada' }).waitFor();
    await panel.getByRole('button', { name: 'New conversation' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

// Every page of the console, light and dark, 1280 and 390 px wide: no error
// in the browser console, no axe-core violation of moderate impact or worse,
// no inline form's label wrapped away from its field, and a screenshot saved
// for review (test/web/screenshots, not committed).
// Each page is loaded from its address once (light, 1280 px); the other
// variants reach it by the console's own navigation.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { consoleForFile, moderateViolations, SCREENSHOTS, signInTab } from './fixture.js';

/** Each page, and what shows it has loaded. */
const PAGES = [
  { name: 'projects', path: '/', ready: 'table tbody tr' },
  { name: 'project', path: '/projects/shop', ready: 'table tbody tr' },
  { name: 'documents', path: '/projects/shop/documents', ready: 'table tbody tr' },
  { name: 'editor', path: '/projects/shop/documents/app.yaml?environment=staging', ready: '.problems .ok' },
  { name: 'environment', path: '/projects/shop/environments/staging', ready: '.timeline li' },
  { name: 'members', path: '/projects/shop/members', ready: 'table tbody tr' },
  { name: 'audit', path: '/projects/shop/audit', ready: 'table tbody tr' },
  { name: 'history', path: '/projects/shop/documents/app.yaml/history', ready: 'table tbody tr' },
  { name: 'webhooks', path: '/projects/shop/webhooks', ready: 'main h1' },
  { name: 'change-requests', path: '/change-requests', ready: 'main h1' },
  { name: 'not-found', path: '/no/such/page', ready: 'main h1' },
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

/** The page's axe violations of moderate impact or worse, each in one line. */
async function violationsOf(page: Page): Promise<string[]> {
  return (await moderateViolations(page, 'html')).map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/**
 * What a narrow screen did to the inline forms' labels: one wrapped away from its field (vertical centres more than
 * 8 px apart), or fields stacked one per row that start at different places. Evaluated as a string: the test's
 * tsconfig has no DOM.
 */
async function inlineFormFindings(page: Page): Promise<string[]> {
  return (await page.evaluate(`[...document.querySelectorAll('main form.inline')].flatMap((form) => {
    const found = [];
    const rowStarts = [];
    for (const label of form.querySelectorAll('label[for]')) {
      const field = document.getElementById(label.htmlFor);
      if (!field) {
        found.push('the label "' + label.textContent + '" has no field');
        continue;
      }
      const middle = (box) => box.top + box.height / 2;
      if (Math.abs(middle(label.getBoundingClientRect()) - middle(field.getBoundingClientRect())) > 8) found.push('the label "' + label.textContent + '" wrapped away from its field');
      if (Math.abs(label.getBoundingClientRect().left - form.getBoundingClientRect().left) < 1) rowStarts.push([label.textContent, Math.round(field.getBoundingClientRect().left)]);
    }
    if (rowStarts.length > 1 && new Set(rowStarts.map(([, left]) => left)).size > 1) found.push('the stacked fields start at different places: ' + rowStarts.map(([name, left]) => name + ' at ' + left + ' px').join(', '));
    return found;
  })`)) as string[];
}

/**
 * Shows `route` in the tab: the first variant loads each page from its address (what the server answers for every
 * route); the others move there as the console's own links do, so each costs a render, not a load of the console.
 * `shown`: what showed the page before, gone before the next one's `ready` is looked for (both may match it).
 */
async function show(page: Page, route: string, loaded: boolean, shown: string | null): Promise<void> {
  if (loaded) return void (await page.goto(ui.server.url + route));
  const leaving = shown === null ? null : await page.locator(shown).first().elementHandle();
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(route)})`);
  await leaving?.waitForElementState('hidden');
}

describe.each([
  ['light', 1280, true],
  ['dark', 1280, false],
  ['light', 390, false],
  ['dark', 390, false],
] as const)('every page, %s, %i px', (scheme, width, loaded) => {
  const viewport = { width, height: 800 };

  it('signs in without an error or an accessibility violation', async () => {
    const { page, errors } = await ui.blank(scheme);
    await page.setViewportSize(viewport);
    await page.goto(ui.server.url + '/');
    await page.getByLabel('Token').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, `sign-in-${scheme}-${width}.png`) });
    expect(await violationsOf(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows each page without an error, an accessibility violation, or a label wrapped away from its field', async () => {
    const { page, errors } = await ui.open('ada', '/', scheme);
    await page.setViewportSize(viewport);
    const found: Record<string, string[]> = {};
    let shown: string | null = null;
    for (const { name, path: route, ready } of PAGES) {
      await show(page, route, loaded, shown);
      shown = ready;
      await page.locator(ready).first().waitFor();
      // On a phone the panel is a closed drawer: its card is there, not shown.
      if (route.startsWith('/projects/')) await page.locator('.card.proposal').first().waitFor({ state: 'attached' });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}-${width}.png`) });
      const violations = [...(await violationsOf(page)), ...(await inlineFormFindings(page))];
      if (violations.length > 0) found[name] = violations;
    }
    // Every page's findings at once, so one run shows them all.
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  }, 180_000);
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

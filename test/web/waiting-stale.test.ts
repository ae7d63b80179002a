// The top bar's count marks stale before anyone clicks (issue 29, DESIGN.md
// §14): a conversation whose waiting proposals can no longer run as shown is
// counted as stale ("2 conversations waiting · 1 stale") within a couple of
// seconds of another operator moving what it shows over REST, without a
// reload; the list says why for each, and the thread's API counts it
// (`stale_waiting`). An edit goes stale by its base revision, a secret by the
// audit's newer write. And a pinned deploy's confirmation keeps the revision
// it showed while a newer one is saved, and deploys that one (finding 2).
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ThreadResponse } from '../../src/wire/thread.js';
import { client, type Client } from '../helpers/http.js';
import { consoleForFile, runToolAs, SCREENSHOTS, sendMessage, seriousViolations } from './fixture.js';

const STAGING = '/projects/shop/environments/staging';
const staging = { project: 'shop', environment: 'staging' };
const ui = consoleForFile();
let ada: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
  await runToolAs(ui, 'ada', 'write_document', { project: 'shop', path: 'counted.yaml', text: 'a: 1\n', message: 'counted' });
});

/** A conversation of ada's named `title`, in which the fake model proposes `line` (a `/tool` line). */
async function waitingIn(title: string, line: string): Promise<string> {
  const thread = (await ada.post('/api/v1/assistant/threads', { ...staging, page: STAGING })).body as ThreadResponse;
  expect((await ada.post(`/api/v1/assistant/threads/${thread.id}/messages`, { text: line })).status).toBe(200);
  expect((await ada.patch(`/api/v1/assistant/threads/${thread.id}`, { title })).status).toBe(200);
  return thread.id;
}

const threadOf = async (id: string) => (await ada.get(`/api/v1/assistant/threads/${id}`)).body as ThreadResponse;

/** Waits for `seen` and answers how long it took from `since`. */
async function within(since: number, seen: { waitFor(options: { timeout: number }): Promise<void> }): Promise<number> {
  // "At once": the notice, the list read again and the render; 3 s leaves a loaded two-core machine room.
  await seen.waitFor({ timeout: 3_000 });
  return Date.now() - since;
}

describe('the count of conversations waiting', () => {
  it('marks a conversation stale the moment another operator moves what its proposals show, and says why', async () => {
    const { page, errors } = await ui.open('ada', STAGING);
    const edit = await waitingIn('Edit counted', `/tool write_document ${JSON.stringify({ path: 'counted.yaml', base_revision: 1, text: 'a: 2\n' })}`);
    const secret = await waitingIn('Secret counted', `/tool set_secret ${JSON.stringify({ ...staging, name: 'COUNTED', value: 'mine' })}`);
    const summary = page.locator('summary.waiting');
    await page.getByText('2 conversations waiting', { exact: true }).waitFor();
    expect(await summary.locator('.stale-count').count()).toBe(0);

    // olive saves the document the edit was made on.
    const saved = Date.now();
    await runToolAs(ui, 'olive', 'write_document', { project: 'shop', path: 'counted.yaml', base_revision: 1, text: 'a: 3\n' });
    const editTook = await within(saved, page.getByText('2 conversations waiting · 1 stale', { exact: true }));
    expect(await summary.getAttribute('class')).toBe('waiting');
    const reason = 'counted.yaml was saved again since this was proposed: r2 is its newest, not the r1 this edits, so accepting it would be refused; ask for the edit again';
    expect(await threadOf(edit)).toMatchObject({ state: 'waiting', stale_waiting: 1, proposals: [expect.objectContaining({ stale: true, stale_reason: reason })] });
    expect(await threadOf(secret)).toMatchObject({ state: 'waiting', stale_waiting: 0 });

    await summary.click();
    const staleItem = page.getByRole('button', { name: /^Edit counted/ });
    expect(await staleItem.locator('.status.stale').textContent()).toBe('stale');
    expect(await staleItem.locator('.waiting-reason').textContent()).toBe(reason);
    const freshItem = page.getByRole('button', { name: /^Secret counted/ });
    expect(await freshItem.locator('.status.stale').count()).toBe(0);
    expect(await freshItem.locator('.waiting-reason').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'waiting-count-stale-light.png') });
    expect(await seriousViolations(page, '.topbar')).toEqual([]);
    await summary.click();

    // The stale edit rejected, the secret is all that waits; olive then sets that secret herself.
    const [proposal] = (await threadOf(edit)).proposals;
    expect((await ada.post(`/api/v1/assistant/threads/${edit}/proposals/${proposal?.id ?? ''}/reject`)).status).toBe(200);
    const one = page.getByRole('button', { name: '1 conversation waiting', exact: true });
    await one.waitFor();
    const set = Date.now();
    await runToolAs(ui, 'olive', 'set_secret', { ...staging, name: 'COUNTED', value: 'hers' });
    const allStale = page.getByRole('button', { name: '1 conversation waiting · 1 stale', exact: true });
    const secretTook = await within(set, allStale);
    // Nothing that waits would run: the count steps back from the accent, and its title says why.
    expect(await allStale.getAttribute('class')).toBe('waiting all-stale');
    expect(await allStale.getAttribute('title')).toMatch(
      /^Stale: the proposal waiting in “Secret counted” \(shop \/ staging\) can no longer run as shown — COUNTED in staging changed since this was proposed: olive ran set_secret at \d\d:\d\d:\d\d UTC, so what this shows is not what would run; ask again\. Reject or ask again\.$/,
    );
    expect(await threadOf(secret)).toMatchObject({ stale_waiting: 1 });
    expect(await seriousViolations(page, '.topbar')).toEqual([]);
    console.error(`stale in the count: ${editTook} ms after the save, ${secretTook} ms after the secret's write`);
    expect(errors).toEqual([]);
  });
});

describe('the confirmation of a pinned deploy (finding 2)', () => {
  it('keeps the revision it showed while a newer one is saved, and deploys that one', async () => {
    await runToolAs(ui, 'ada', 'write_document', { project: 'shop', path: 'pinned.yaml', text: 'service: pinned\nport: 1\n', message: 'pinned' });
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/production');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, '/tool deploy {"environment": "production", "path": "pinned.yaml"}');
    const card = page.locator('.card.proposal').last();
    await card.getByRole('button', { name: 'Accept' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accept a change to production' });
    const shown = 'pinned.yaml is not live in production yet; r1 would go live.';
    await dialog.getByText(shown).waitFor();

    // olive saves r2 while the dialog is open: the card behind it offers r2 beside, the dialog still says r1.
    await runToolAs(ui, 'olive', 'write_document', { project: 'shop', path: 'pinned.yaml', base_revision: 1, text: 'service: pinned\nport: 2\n' });
    await card.getByRole('button', { name: 'Deploy r2 instead' }).waitFor({ state: 'attached' });
    expect(await dialog.locator('.change-summary').textContent()).toBe(shown);
    await dialog.getByLabel('Environment name').fill('production');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await card.locator('.status', { hasText: /^accepted$/ }).waitFor();
    const live = await runToolAs<{ live: { revision: number }[] }>(ui, 'ada', 'get_live_config', { project: 'shop', environment: 'production', path: 'pinned.yaml' });
    expect(live.live[0]?.revision).toBe(1);
    expect(errors).toEqual([]);
  });
});

// The Webhooks page: an admin adds a hook (its secret shown once), a change
// request is posted to a real receiver that checks the signature and fails
// the first try, and the page shows the delivery with its tries; axe-clean,
// light and dark. Others are told only admins manage webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { consoleForFile, runToolAs, seriousViolations, signInTab } from './fixture.js';

const ui = consoleForFile([], { AION_WEBHOOK_ALLOW_PRIVATE: '1', AION_WEBHOOK_BACKOFF: '100ms' });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(1);
});
afterAll(() => receiver.close());

describe('the Webhooks page', () => {
  it('says why a hook was refused beside Add webhook, where the person clicked', async () => {
    const { page } = await ui.open('ada', '/projects/shop/webhooks');
    await page.getByLabel('URL').fill('ftp://hooks.example.com/aion');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByText(/^a webhook's url must be an http or https address/).waitFor();
  });

  it('adds a hook, shows its secret once, and lists its deliveries with status and tries', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe('page');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'Approved' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Signing secret' });
    receiver.secret = (await shown.locator('code').textContent()) ?? '';
    expect(receiver.secret).toMatch(/^whsec_/);
    await page.getByRole('cell', { name: receiver.url, exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: receiver.url }).textContent()).toContain('Request opened, Approved');

    await runToolAs(ui, 'ada', 'set_environment_protection', { project: 'shop', environment: 'production', approvals_required: 2 });
    await runToolAs(ui, 'olive', 'set_secret', { project: 'shop', environment: 'production', name: 'PAGED', value: 'v' });
    await waitFor(() => receiver.deliveredCount().size === 1, 10_000);
    expect(receiver.received.map((r) => [r.signed, r.answered])).toEqual([
      [true, 500],
      [true, 200],
    ]);

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: "olive's change request (set_secret on production of shop)" });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([expect.any(String), expect.stringContaining(`to ${receiver.url}`), 'delivered', '2', '200', 'Redeliver']);
    // Shown once: after a reload, no secret on the page.
    expect(await page.content()).not.toContain(receiver.secret);
    expect(await seriousViolations(page, 'html')).toEqual([]);
    expect(errors).toEqual([]);

    const dark = await ui.open('ada', '/projects/shop/webhooks', 'dark');
    await dark.page.getByRole('row').filter({ hasText: 'delivered' }).waitFor();
    expect(await seriousViolations(dark.page, 'html')).toEqual([]);
  });

  it('says "Loading…" in the deliveries table while it is read, never an empty table', async () => {
    const { page } = await ui.blank();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/webhook-deliveries*', async (route) => {
      await held;
      await route.continue();
    });
    await signInTab(page, ui.links.ada, '/projects/shop/webhooks');
    const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Tries' }) });
    await table.getByRole('cell', { name: 'Loading…' }).waitFor();
    release();
    await expect.poll(() => table.getByRole('cell', { name: 'Loading…' }).count()).toBe(0);
    // Then its rows, or its sentence when nothing was sent.
    expect(await table.getByRole('row').count()).toBeGreaterThan(1);
  });

  it('tells others that only admins manage webhooks', async () => {
    const { page } = await ui.open('olive', '/projects/shop/webhooks');
    await page.getByText('Only admins see and manage webhooks: you need environment:manage on shop; your role there is operator.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    expect(await seriousViolations(page, 'html')).toEqual([]);
  });
});

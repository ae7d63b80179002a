// What a person decides is what runs (issue 29), in the console. A change
// request whose document moves turns stale on the approver's open page at
// once (the top bar stops counting it, Approve says why); one that moves
// while the approver confirms is refused, and the sentence stays where they
// clicked. A proposal accepted where two approvals are required waits for
// the others without freezing its conversation. A waiting proposal whose
// document was saved again turns stale on its card; a pinned deploy offers
// "Deploy rN instead", which deploys the newest and rejects the proposal.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { acceptInProduction, consoleForFile, SCREENSHOTS } from './fixture.js';
import path from 'node:path';

const ui = consoleForFile();
const production = { project: 'shop', environment: 'production' };
let ada: Client;
let olive: Client;
beforeAll(async () => {
  ada = client(ui.server.url, ui.tokens.ada);
  olive = client(ui.server.url, ui.tokens.olive);
  await tool(ada, 'set_environment_protection', { ...production, approvals_required: 2 });
});

async function tool<T = Record<string, unknown>>(as: Client, name: string, input: Record<string, unknown>): Promise<T> {
  const answer = await as.post(`/api/v1/assistant/tools/${name}`, input);
  const body = answer.body as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

/** Saves app.yaml again (a comment appended): what an unpinned deploy would put live moves. */
async function saveAgain(): Promise<number> {
  const current = await tool<{ revision: number; text: string }>(ada, 'read_document', { project: 'shop', path: 'app.yaml' });
  const written = await tool<{ revision: number }>(ada, 'write_document', { project: 'shop', path: 'app.yaml', base_revision: current.revision, text: `${current.text}# saved ${Date.now()}\n` });
  return written.revision;
}

describe('stale before anyone clicks', () => {
  it('marks the request on the approver’s open page, uncounted, with Approve refused by the reason', async () => {
    await tool(olive, 'deploy', { ...production, path: 'app.yaml', reason: 'new port' });
    const { page, errors } = await ui.open('ada', '/projects/shop/change-requests?show=for-me');
    const count = page.getByRole('link', { name: '1 change request to approve' });
    await count.waitFor();
    const card = page.locator('.card.request').first();
    await card.getByRole('button', { name: 'Approve' }).waitFor();

    const saved = await saveAgain();
    await card.locator('.status.stale').waitFor();
    await count.waitFor({ state: 'detached' });
    expect(await card.getByRole('button', { name: 'Approve' }).getAttribute('aria-disabled')).toBe('true');
    expect(await card.locator('.request-sentence').textContent()).toMatch(new RegExp(`^stale, so deploy will not run: app.yaml has a newer revision, r${saved}, than the r\\d+ it would deploy`));
    expect(await card.locator('.refusal').textContent()).toMatch(/^this change request is stale, so it will not run: app.yaml has a newer revision/);
    await card.getByRole('button', { name: 'Decline' }).click();
    const decline = page.getByRole('dialog', { name: 'Decline a change to production' });
    await page.keyboard.type('stale');
    await decline.getByRole('button', { name: 'Decline' }).click();
    await card.locator('.status', { hasText: /^declined$/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('refuses an approval confirmed after the document moved, and says so on the card the approver clicked', async () => {
    await tool(olive, 'deploy', { ...production, path: 'app.yaml', reason: 'raced' });
    const { page, errors } = await ui.open('ada', '/projects/shop/change-requests?show=for-me');
    const card = page.locator('.card.request', { hasText: 'raced' });
    await card.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve a change to production' });
    await dialog.getByLabel('Environment name').fill('production');
    // The document moves while the approver reads the dialog; they confirm what they saw.
    const saved = await saveAgain();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'this change request is stale, so it will not run' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain(`app.yaml has a newer revision, r${saved}`);
    // Still on the card the approver clicked, which now reads stale: never "nothing waits".
    const kept = page.locator('.card.request.stale', { hasText: 'raced' });
    await kept.getByRole('alert').filter({ hasText: `app.yaml has a newer revision, r${saved}` }).waitFor();
    expect(await page.getByText('Nothing waits for your approval.').count()).toBe(0);
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });
});

describe('two approvals', () => {
  it('leave the conversation free: the accepted proposal waits for the others, and the next message is answered', async () => {
    const { page, errors } = await ui.open('olive', '/projects/shop/environments/production');
    await acceptInProduction(page, `/tool set_secret ${JSON.stringify({ ...production, name: 'NOT_FROZEN', value: 'v' })}`);

    await page.getByLabel('Message').fill('/say not frozen');
    await page.getByLabel('Message').press('Enter');
    await page.locator('.message.assistant', { hasText: 'not frozen' }).waitFor();
    expect(await page.getByRole('link', { name: /to approve/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('a waiting proposal whose document moved', () => {
  it('turns stale on its card at once (an edit), and a pinned deploy offers the newest beside it', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/environments/staging');
    const current = await tool<{ revision: number; text: string }>(ada, 'read_document', { project: 'shop', path: 'app.yaml' });
    const edit = JSON.stringify({ path: 'app.yaml', base_revision: current.revision, text: `${current.text}# proposed\n` });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByLabel('Message').fill(`/tool write_document ${edit}\n/tool deploy {"path": "app.yaml"}`);
    await page.getByLabel('Message').press('Enter');
    const cards = page.locator('.card.proposal');
    await cards.nth(1).waitFor();
    expect(await page.locator('.card.proposal .status.stale').count()).toBe(0);

    const saved = await saveAgain();
    const write = cards.nth(0);
    await write.locator('.status.stale').waitFor();
    expect(await write.locator('.card-stale').textContent()).toBe(
      `Stale: app.yaml was saved again since this was proposed: r${saved} is its newest, not the r${current.revision} this edits, so accepting it would be refused; ask for the edit again.`,
    );
    const deploy = cards.nth(1);
    const instead = deploy.getByRole('button', { name: `Deploy r${saved} instead` });
    await instead.waitFor();
    expect(await deploy.locator('.status.stale').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'proposal-moved-light.png') });
    await instead.click();
    await deploy.locator('.status', { hasText: /^rejected$/ }).waitFor();
    const live = await tool<{ live: { revision: number }[] }>(ada, 'get_live_config', { project: 'shop', environment: 'staging', path: 'app.yaml' });
    expect(live.live[0]?.revision).toBe(saved);
    expect(errors).toEqual([]);
  });
});

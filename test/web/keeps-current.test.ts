// The console keeps itself current. A reload mid-turn resumes the running
// turn: what it did so far (replayed from its first event), its elapsed time
// and a Stop that ends it. A message refused because this tab had not seen a
// waiting proposal shows that proposal and keeps the text typed. Two tabs on
// two servers sharing one PostgreSQL see each other's turns, messages and
// proposals without a reload, either one accepts, and a deleted conversation
// is said so. Screenshots of the resumed turn and of the second tab are saved.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { client } from '../helpers/http.js';
import { POSTGRES_URL } from '../helpers/store.js';
import { sharedBrowser, type TestBrowser } from './browser.js';
import { blankTab, closeTabsAfterEach, type ConsoleFixture, type ConsolePage, SCREENSHOTS, seriousViolations, signInLinksOf, signInTab, sendMessage, startConsole } from './fixture.js';

const STAGING = '/projects/shop/environments/staging';
/** How soon another tab must show a change (the target is 1 s; this leaves a loaded machine room). */
const FEW_SECONDS = 3_000;
const FLAG = JSON.stringify({ project: 'shop', environment: 'staging', name: 'FRESH_FLAG', value: 'on' });

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
});


describe('one tab keeps itself current', () => {
  let ui: ConsoleFixture;
  beforeAll(async () => {
    ui = await startConsole();
  });
  closeTabsAfterEach(() => ui);
  afterAll(async () => {
    await ui?.stop();
  });

  it('resumes a running turn after a reload: its progress so far, its time, and a Stop that ends it', async () => {
    const { page, errors } = await ui.open('ada', STAGING);
    // The demo agent says and plans before it waits, so there is progress to replay.
    await page.getByLabel('Conversation with').selectOption('demo-agent');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.locator('.thread-holder', { hasText: 'with Demo agent' }).waitFor();
    await sendMessage(page, '/plan Read the document; Answer\n/say Reading app.yaml first.\n/slow 10000\n/say done');
    await page.locator('.live .message.assistant', { hasText: 'Reading app.yaml first.' }).waitFor();

    await page.reload();
    await page.locator('.live .message.assistant', { hasText: 'Reading app.yaml first.' }).waitFor();
    await page.locator('.live .plan li', { hasText: 'Answer' }).waitFor();
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect.poll(() => stop.isEnabled()).toBe(true);
    // Its time counts from when it started, before the reload.
    await expect.poll(() => page.locator('.working [role=status]').textContent()).toMatch(/^Demo agent is working · [1-9]\d*s$/);
    expect(await page.locator('.thread .message.user').count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resumed-turn-light.png') });
    expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);

    await stop.click();
    await page.locator('.entry .stopped').waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    expect(await page.locator('.entry .message.assistant').last().textContent()).toContain('Reading app.yaml first.');
    expect(await page.locator('.entry .message.assistant').last().textContent()).not.toContain('done');
    expect(await page.getByLabel('Message').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows the proposal a refused message waited on when this tab had not seen it, keeping the text typed', async () => {
    const ada = client(ui.server.url, ui.tokens.ada);
    const thread = (await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', page: STAGING })).body as { id: string };
    const messages = `/api/v1/assistant/threads/${thread.id}/messages`;
    expect((await ada.post(messages, { text: '/say hello' })).status).toBe(200);

    const { page, errors } = await ui.blank();
    // This tab hears no change notices (the stream never answers): its view falls behind.
    await page.route('**/api/v1/changes', () => undefined);
    await signInTab(page, ui.links.ada, STAGING);
    // The newest conversation opens first.
    await page.locator('.message.assistant', { hasText: 'hello' }).waitFor();
    expect((await ada.post(messages, { text: `/tool set_secret ${FLAG}` })).status).toBe(200);

    await sendMessage(page, 'is anything waiting?');
    await page.getByRole('alert').filter({ hasText: 'a proposal is still waiting' }).waitFor();
    await page.locator('.card.proposal.pending', { hasText: 'FRESH_FLAG' }).waitFor();
    expect(await page.getByLabel('Message').inputValue()).toBe('is anything waiting?');
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });
});

describe.skipIf(!POSTGRES_URL)('two tabs on two servers sharing one PostgreSQL', () => {
  let cluster: Cluster;
  let browser: TestBrowser;
  const tabsOpen: ConsolePage[] = [];
  beforeAll(async () => {
    cluster = await startCluster(2, ['--demo']);
    browser = await sharedBrowser();
  });
  afterEach(async () => {
    await Promise.all(tabsOpen.splice(0).map((tab) => tab.context.close()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Ada's tab on each server, on staging. */
  async function tabsOnEachServer() {
    // One server seeded the demo and printed the tokens; both accept them.
    const token = cluster.servers.map((server) => signInLinksOf(server).tokens.ada).find(Boolean) ?? '';
    const tabs = await Promise.all(cluster.servers.map(() => blankTab(browser)));
    tabsOpen.push(...tabs);
    await Promise.all(tabs.map((tab, i) => signInTab(tab.page, `${cluster.servers[i]?.url}/#token=${token}`, STAGING)));
    return { token, tabs };
  }

  it("see each other's turns, messages and proposals without a reload; either accepts; a deletion is said", async () => {
    const { token, tabs } = await tabsOnEachServer();
    const [a, b] = tabs;
    if (!a || !b) throw new Error('two tabs expected');

    await a.page.getByRole('button', { name: 'New conversation' }).click();
    await a.page.locator('.thread-holder').waitFor();
    await sendMessage(a.page, `/slow 1500\n/say I propose turning the flag on.\n/tool set_secret ${FLAG}`);
    // B, on the other server, finds the conversation and follows its running turn, with a Stop.
    await b.page.locator('.thread .message.user', { hasText: '/slow 1500' }).waitFor({ timeout: FEW_SECONDS });
    await b.page.getByRole('button', { name: 'Stop' }).waitFor({ timeout: FEW_SECONDS });
    const card = b.page.locator('.card.proposal.pending', { hasText: 'FRESH_FLAG' });
    await card.waitFor({ timeout: 1500 + FEW_SECONDS });
    await b.page.locator('.message.assistant', { hasText: 'I propose turning the flag on.' }).waitFor();
    await b.page.screenshot({ path: path.join(SCREENSHOTS, 'second-tab-light.png') });

    await card.getByRole('button', { name: 'Accept', exact: true }).click();
    await a.page.locator('.card.proposal.accepted', { hasText: 'FRESH_FLAG' }).waitFor({ timeout: FEW_SECONDS });
    await sendMessage(b.page, '/say from the second tab');
    await a.page.locator('.message.assistant', { hasText: 'from the second tab' }).waitFor({ timeout: FEW_SECONDS });

    expect([...a.errors, ...b.errors]).toEqual([]);

    const ada = client(cluster.servers[0]?.url ?? '', token);
    const [thread] = (await ada.get('/api/v1/assistant/threads')).body as { id: string }[];
    expect((await ada.delete(`/api/v1/assistant/threads/${thread?.id}`)).status).toBe(204);
    await b.page.getByRole('status').filter({ hasText: 'was deleted elsewhere' }).waitFor({ timeout: FEW_SECONDS });
    expect(await b.page.locator('.thread .message').count()).toBe(0);
    await b.page.screenshot({ path: path.join(SCREENSHOTS, 'second-tab-deleted-light.png') });
    expect(await seriousViolations(b.page, '[aria-label=Assistant]')).toEqual([]);
    // A read asked for just before the deletion may answer 404 after it.
    expect([...a.errors, ...b.errors].filter((e) => !e.includes('404'))).toEqual([]);
  });
});

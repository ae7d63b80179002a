// The console with an ACP agent holding the conversation (`demo-agent`,
// registered by `ops serve --demo`): the picker offers it beside the built-in
// assistant (an agent that cannot start is disabled with its sentence); its
// answers, tool calls and plan show, the turn streams before its POST
// answers, and Stop cancels it. Light and dark screenshots of an agent
// thread are saved for review, with an axe scan of the panel.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { OPS_BIN } from '../helpers/paths.js';
import { consoleForFile, SCREENSHOTS, sendMessage, seriousViolations } from './fixture.js';

// `ghost` names a command that does not exist: listed, but not available; `loose` runs outside the sandbox.
const loose = { title: 'Loose demo', command: process.execPath, args: [OPS_BIN, 'demo-agent'], sandbox: false };
const ui = consoleForFile(['--agent', 'ghost=aion-no-such-agent-command'], { AION_AGENTS: JSON.stringify({ loose }), AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' });

const EDITOR = '/projects/shop/documents/app.yaml?environment=staging';

/** Opens a conversation held by the demo agent on the editor page. */
async function agentThread(scheme: 'light' | 'dark' = 'light') {
  const tab = await ui.open('ada', EDITOR, scheme);
  await tab.page.locator('.cm-content').waitFor();
  await tab.page.getByLabel('Conversation with').selectOption('demo-agent');
  await tab.page.getByRole('button', { name: 'New conversation' }).click();
  await tab.page.locator('.thread-holder', { hasText: 'with Demo agent' }).waitFor();
  return tab;
}

/** The panel's answers (the last one is the newest). */
const answers = (page: Page) => page.locator('.thread .message.assistant');

describe('a conversation with an ACP agent', () => {
  it('offers the configured agents, an unavailable one disabled with its sentence', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    await page.getByLabel('Conversation with').locator('option').nth(2).waitFor({ state: 'attached' });
    const listed = await page.evaluate<{ value: string; disabled: boolean; text: string }[]>(
      "[...document.querySelectorAll('.holder-picker option')].map((o) => ({ value: o.value, disabled: o.disabled, text: o.textContent }))",
    );
    expect(Object.fromEntries(listed.map((o) => [o.value, o.disabled]))).toEqual({ '': false, 'demo-agent': false, ghost: true, loose: false });
    expect(listed.find((o) => o.value === 'ghost')?.text).toMatch(/^ghost — .*not found/);
    expect(listed.find((o) => o.value === 'loose')?.text).toBe('Loose demo — not sandboxed');
    expect(listed.find((o) => o.value === 'demo-agent')?.text).toBe('Demo agent');
    expect(errors).toEqual([]);
  });

  it('warns beside the picker when the agent chosen runs without a sandbox', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop');
    const warning = page.getByRole('note').filter({ hasText: 'without a sandbox' });
    await page.getByLabel('Conversation with').selectOption('loose');
    await expect.poll(() => warning.textContent()).toBe('Loose demo runs without a sandbox: it can read what the server can');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'agent-unsandboxed-light.png') });
    await page.getByLabel('Conversation with').selectOption('demo-agent');
    await expect.poll(() => warning.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows the agent's answer and its tool-call line; the stream shows the tool call before the turn's POST answers", async () => {
    const { page, errors } = await agentThread();
    await sendMessage(page, '/say hello');
    await answers(page).filter({ hasText: /^Demo agent: hello\s*$/ }).waitFor();

    // A tool call, then a pause long enough for a loaded machine: while the POST has not answered, the live part of the thread shows the call.
    // Only this message's POST counts: the first one's answer may reach the page after its stored answer did (and the Send button with it).
    const message = '/tool list_environments {"project":"shop"}\n/slow 2000';
    let answered = false;
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'POST' && request.url().endsWith('/messages') && request.postData()?.includes('/slow 2000')) answered = true;
    });
    await sendMessage(page, message);
    await page.locator('.live .tool-call', { hasText: 'list_environments' }).waitFor();
    expect(answered).toBe(false);
    const stored = page.locator('.entry .tool-call', { hasText: 'list_environments' });
    await stored.waitFor();
    expect(await stored.locator('.status').textContent()).toBe('done');
    expect(await stored.locator('.kind').textContent()).toBe('tool');
    // The thread read again on its change notice may show the stored answer a moment before the POST answers.
    await expect.poll(() => answered).toBe(true);
    expect(await answers(page).last().textContent()).toMatch(/list_environments: ok/);
    expect(errors).toEqual([]);
  });

  it('streams text deltas, the plan and a proposal, and Stop cancels a running turn, keeping what it did', async () => {
    const { page, errors } = await agentThread();
    const secret = JSON.stringify({ project: 'shop', environment: 'staging', name: 'STREAMED_FLAG', value: 'on' });
    await sendMessage(page, `/plan Read the document; Propose the change\n/say thinking it over\n/tool set_secret ${secret}\n/slow 5000`);
    await page.locator('.live .message.assistant', { hasText: 'thinking it over' }).waitFor();
    await page.locator('.live .plan li', { hasText: 'Propose the change' }).waitFor();
    await page.locator('.live .live-proposal', { hasText: /STREAMED_FLAG/ }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'agent-streaming-light.png') });
    const started = Date.now();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.working').waitFor({ state: 'detached' });
    // Well before the turn's own end: a loaded machine took ~2 s to stop it.
    expect(Date.now() - started).toBeLessThan(5000);
    // The stored answer keeps what the turn did before it stopped, and its plan.
    await page.locator('.entry .plan li', { hasText: 'Read the document' }).waitFor();
    expect(await answers(page).last().textContent()).not.toContain('slow: 5000 ms');
    await page.locator('.entry .stopped').waitFor();
    await page.locator('.card.proposal', { hasText: 'STREAMED_FLAG' }).getByRole('button', { name: 'Accept' }).waitFor();
    expect(await page.getByLabel('Message').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  describe.each(['light', 'dark'] as const)('%s', (scheme) => {
    it('shows an agent thread with no serious accessibility violation in the panel', async () => {
      const { page, errors } = await agentThread(scheme);
      const ada = client(ui.server.url, ui.tokens.ada);
      const stored = (await ada.post('/api/v1/assistant/tools/read_document', { project: 'shop', path: 'app.yaml' })).body as {
        result: { text: string; revision: number };
      };
      const write = { project: 'shop', path: 'app.yaml', base_revision: stored.result.revision, text: stored.result.text.replace('port: 8080', 'port: 8443'), message: 'serve on 8443' };
      await sendMessage(
        page,
        [
          'Serve the shop on 8443.',
          '/say I propose serving on 8443: accept it to save r3; deploying stays yours.',
          '/plan Read app.yaml; Propose the new port',
          '/ask execute rm -rf /tmp/cache',
          `/tool write_document ${JSON.stringify(write)}`,
        ].join('\n'),
      );
      await page.locator('.entry .tool-call.refused', { hasText: 'rm -rf /tmp/cache' }).waitFor();
      expect(await page.locator('.entry .tool-call.refused .why').textContent()).toMatch(/no shell/);
      await page.locator('.card.proposal .line-diff').waitFor();
      // The answer from its plan down, as an operator reading it would scroll.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      await page.locator('.entry .plan').last().evaluate((plan) => plan.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(SCREENSHOTS, `agent-thread-${scheme}.png`) });
      expect(await seriousViolations(page, '[aria-label=Assistant]')).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});

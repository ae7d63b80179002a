// The console's part of the ACP features of 2026 (issue 31), with a real
// `ops demo-agent` holding the conversation: what the agent reported of its
// cost beside the built-in's ("not reported" where it said nothing), its
// options in the conversation header (a value that skips approvals disabled),
// and its question as a form the operator answers. Screenshots saved for review.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { OPS_BIN } from '../helpers/paths.js';
import { consoleForFile, SCREENSHOTS, sendMessage } from './fixture.js';

const chooser = { title: 'Chooser', command: process.execPath, args: [OPS_BIN, 'demo-agent'], env: { DEMO_AGENT_OPTIONS: '1', DEMO_AGENT_MODES: 'default,yolo' }, sandbox: false };
const ui = consoleForFile([], { AION_AGENTS: JSON.stringify({ chooser }), AION_ALLOW_UNSANDBOXED_AGENTS_AS_ROOT: '1' });

async function chooserThread() {
  const tab = await ui.open('ada', '/projects/shop');
  await tab.page.getByLabel('Conversation with').locator('option[value="chooser"]').waitFor({ state: 'attached' });
  await tab.page.getByLabel('Conversation with').selectOption('chooser');
  await tab.page.getByRole('button', { name: 'New conversation' }).click();
  await tab.page.locator('.thread-holder', { hasText: 'with Chooser' }).waitFor();
  return tab;
}

const answers = (page: Page) => page.locator('.thread .message.assistant');

describe('an agent’s cost, options and questions in the console', () => {
  it('shows what the agent reported beside the built-in’s, and "not reported" where it said nothing', async () => {
    const { page, errors } = await chooserThread();
    await sendMessage(page, '/say hi');
    await answers(page).filter({ hasText: 'hi' }).waitFor();
    const note = page.getByTestId('agent-usage');
    await expect.poll(() => note.textContent()).toBe('tokens not reported · context not reported · cost not reported');
    await sendMessage(page, '/usage 1200 200000 0.25 USD\n/tokens 1000 80');
    await answers(page).filter({ hasText: 'tokens: reported' }).waitFor();
    await expect.poll(() => note.textContent()).toMatch(/^1K in · 80 out tokens · context 1\.2K of 200K · \$0\.25$/);
    await page.locator('.thread-holder').screenshot({ path: path.join(SCREENSHOTS, 'agent-usage-light.png') });
    expect(errors).toEqual([]);
  });

  it('shows the agent’s options in the header: the operator changes the model; approving everything is refused', async () => {
    const { page, errors } = await chooserThread();
    await sendMessage(page, '/say hi');
    await answers(page).filter({ hasText: 'hi' }).waitFor();
    const options = page.getByLabel('Agent options');
    const model = options.getByLabel('Model');
    await expect.poll(() => model.inputValue()).toBe('demo-small');
    const approve = options.getByLabel('Approve everything');
    expect(await approve.locator('option[value="true"]').isDisabled()).toBe(true);
    expect(await options.getByLabel('Mode').locator('option[value="yolo"]').isDisabled()).toBe(true);
    await model.selectOption('demo-large');
    await expect.poll(() => model.inputValue()).toBe('demo-large');
    await sendMessage(page, '/options');
    await answers(page).filter({ hasText: 'options: mode=default model=demo-large effort=medium auto_approve=false' }).waitFor();
    await page.locator('.thread-holder').screenshot({ path: path.join(SCREENSHOTS, 'agent-options-light.png') });
    expect(errors).toEqual([]);
  });

  it('shows the agent’s question as a form; the operator’s answer goes to the agent', async () => {
    const { page, errors } = await chooserThread();
    await sendMessage(page, '/question Where should I deploy?');
    const form = page.getByRole('form', { name: 'Chooser asks' });
    await form.waitFor();
    await form.getByLabel('Environment').selectOption('staging');
    await form.getByLabel('Why').fill('a test');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'agent-question-light.png') });
    await form.getByRole('button', { name: 'Answer' }).click();
    await answers(page).filter({ hasText: /question: accept .*"environment":"staging"/ }).waitFor();
    await expect.poll(() => form.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

// A role change on the Members page asks first, in words ("Make dev an admin
// of shop?"): one arrow key on a role select changes nothing by itself; Keep
// (the default) keeps the role, Change role changes it. Screenshots light and
// dark, with axe (no moderate or worse) on the question.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleForFile, moderateViolations, runToolAs, SCREENSHOTS } from './fixture.js';

const ui = consoleForFile();

/** The project's members as the server lists them. */
const members = async () => JSON.stringify(await runToolAs(ui, 'ada', 'list_members', { project: 'shop' }));

describe('a role change', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`asks before it changes anything, and a key press alone never acts (${scheme})`, async () => {
      const { page, errors } = await ui.open('ada', '/projects/shop/members', scheme);
      const select = page.getByRole('combobox', { name: 'Role of dev' });
      await select.waitFor();
      const before = await select.inputValue();
      const listed = await members();
      await select.focus();
      await page.keyboard.press('ArrowDown');
      const question = page.getByRole('dialog', { name: /^Make dev an? \w+ of shop\?$/ });
      await question.waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `role-change-${scheme}.png`) });
      expect(await moderateViolations(page, 'dialog[open]')).toEqual([]);
      // Enter on the focused Keep keeps.
      await page.keyboard.press('Enter');
      await expect.poll(() => question.count()).toBe(0);
      expect(await select.inputValue()).toBe(before);
      expect(await members()).toBe(listed);

      await select.selectOption('admin');
      await page.getByRole('dialog', { name: 'Make dev an admin of shop?' }).getByRole('button', { name: 'Change role' }).click();
      await expect.poll(() => select.inputValue()).toBe('admin');
      await select.selectOption(before);
      await page.getByRole('button', { name: 'Change role' }).click();
      await expect.poll(() => select.inputValue()).toBe(before);
      expect(errors).toEqual([]);
    });
  }

  it('asks again at once after Keep: the closed question’s late close event does not dismiss the next one', async () => {
    const { page, errors } = await ui.open('ada', '/projects/shop/members');
    const select = page.getByRole('combobox', { name: 'Role of dev' });
    await select.waitFor();
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('dialog', { name: /^Make dev an? \w+ of shop\?$/ }).waitFor();
    // Keep, and another role picked in the same task: the native dialog's close event of the first question
    // is still queued when the second opens (a fast hand, or a loaded machine between two steps).
    const closedBetween = await page.evaluate(`(async () => {
      const dialog = document.querySelector('dialog[open]');
      [...dialog.querySelectorAll('button')].find((button) => button.textContent.trim() === 'Keep').click();
      // React renders and runs its effects in microtasks: the dialog is closed, its close event a task still to come.
      for (let i = 0; i < 10 && dialog.open; i++) await Promise.resolve();
      const closed = !dialog.open;
      const select = document.querySelector('select[aria-label="Role of dev"]');
      select.value = 'admin';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      return closed;
    })()`);
    expect(closedBetween, 'the first question closed before the second role was picked').toBe(true);
    const second = page.getByRole('dialog', { name: 'Make dev an admin of shop?' });
    await second.waitFor();
    await page.waitForTimeout(300);
    expect(await second.isVisible(), 'the second question, 300 ms after it opened').toBe(true);
    await second.getByRole('button', { name: 'Keep' }).click();
    expect(errors).toEqual([]);
  });
});

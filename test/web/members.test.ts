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
});

// Drafts and roles in the editor. A viewer gets a read-only editor with the
// sentence why, and Ctrl+S says so instead of failing silently; a developer
// saves but may not deploy to production. Unsaved text makes closing the tab
// and Sign out ask first; Discard puts the saved text back. A save that meets
// another operator's keeps their change — a three-way merge, with a choice
// where both changed the same lines. Search (Ctrl+F), folding, bracket
// matching, every problem listed, and Deploy disabled with the checker's
// reason. The focus stays in the text after each decision. Screenshots and
// axe, light and dark.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleForFile, type DemoOperator, runToolAs, SCREENSHOTS, seriousViolations } from './fixture.js';

const ui = consoleForFile();

const TEXT = '# drafts\nservice: shop\nport: 8080\nfeatures:\n  new_checkout: false\n';

interface Stored {
  text: string;
  revision: number;
}

const stored = (doc: string) => runToolAs<Stored>(ui, 'ada', 'read_document', { project: 'shop', path: doc });

/** A new doc of its own per test, so the tests do not meet each other's saves. */
async function newDocument(name: string, text = TEXT): Promise<Stored> {
  await runToolAs(ui, 'ada', 'write_document', { project: 'shop', path: name, text });
  return stored(name);
}

/** Another operator saves `text` over the current revision, as any client would. */
async function savedBy(operator: DemoOperator, doc: string, change: (text: string) => string): Promise<Stored> {
  const now = await stored(doc);
  await runToolAs(ui, operator, 'write_document', { project: 'shop', path: doc, base_revision: now.revision, text: change(now.text) });
  return stored(doc);
}

async function openEditor(operator: DemoOperator, doc: string, environment = 'staging', scheme: 'light' | 'dark' = 'light') {
  const tab = await ui.open(operator, `/projects/shop/documents/${doc}?environment=${environment}`, scheme);
  await tab.page.locator('.cm-content').waitFor();
  await tab.page.locator('.problems-summary').filter({ hasText: `checked for ${environment}` }).waitFor();
  return tab;
}

/** The editor's text, read off its lines (these documents are far shorter than a viewport, and unfolded). */
const editorText = (page: Page) => page.evaluate<string>(`[...document.querySelectorAll('.cm-content .cm-line')].map((line) => line.textContent).join('\\n')`);
const focusInText = (page: Page) => page.evaluate<boolean>(`document.activeElement?.closest('.cm-content') != null`);
const drafts = (page: Page) => page.evaluate<string[]>(`Object.keys(sessionStorage).filter((key) => key.startsWith('aion.draft.'))`);

async function typeAtStart(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText(text);
  await page.locator('h1', { hasText: 'unsaved' }).waitFor();
}

async function replaceText(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

async function notice(page: Page, pattern: RegExp): Promise<void> {
  await page.locator('.notice-line').filter({ hasText: pattern }).waitFor();
}

/** Saves a screenshot and fails on a serious or critical axe violation in the editor page. */
async function review(page: Page, name: string): Promise<void> {
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  expect(await seriousViolations(page, '.editor-page')).toEqual([]);
}

describe('roles', () => {
  it('gives a viewer a read-only editor that says why; typing changes nothing and Ctrl+S says why instead of saving', async () => {
    const doc = 'viewer.yaml';
    const before = await newDocument(doc);
    const { page, errors } = await openEditor('vic', doc);
    const text = page.locator('.cm-content');
    await expect.poll(() => text.getAttribute('aria-readonly')).toBe('true');
    const note = page.getByRole('note');
    expect(await note.textContent()).toMatch(/^Read only\. .*you need document:write on shop; your role there is viewer\.$/);
    expect(await text.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));

    await text.click();
    await page.keyboard.type('oops');
    await page.keyboard.press('Control+s');
    await page.getByRole('alert').filter({ hasText: 'Not saved: you need document:write on shop; your role there is viewer.' }).waitFor();
    expect(await editorText(page)).toBe(before.text);
    expect(await page.locator('h1').textContent()).not.toContain('unsaved');
    expect(await drafts(page)).toEqual([]);
    expect((await stored(doc)).revision).toBe(before.revision);
    for (const name of ['Save', 'Deploy', 'Rollback']) {
      const button = page.locator('.toolbar').getByRole('button', { name, exact: true });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.getAttribute('title')).toMatch(/your role there is viewer$/);
    }
    // Reading a long doc still has search, without Replace.
    await page.keyboard.press('Control+f');
    await page.getByRole('textbox', { name: 'Find' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Replace' }).count()).toBe(0);
    await review(page, 'drafts-viewer-light');
    expect(errors).toEqual([]);
  });

  it('lets a developer save with Ctrl+S, and says why Deploy is refused on production', async () => {
    const doc = 'developer.yaml';
    const before = await newDocument(doc);
    const { page, errors } = await openEditor('dev', doc, 'production');
    expect(await page.locator('.cm-content').getAttribute('aria-readonly')).toBeNull();
    expect(await page.getByRole('note').count()).toBe(0);
    await typeAtStart(page, '# dev\n');
    await page.keyboard.press('Control+s');
    await notice(page, new RegExp(`^Saved r${before.revision + 1}\\.$`));
    expect((await stored(doc)).text).toBe(`# dev\n${before.text}`);
    const deploy = page.locator('.toolbar').getByRole('button', { name: 'Deploy', exact: true });
    expect(await deploy.getAttribute('aria-disabled')).toBe('true');
    expect(await deploy.getAttribute('title')).toBe('you need deploy on production of shop; your role there is developer');
    expect(errors).toEqual([]);
  });
});

describe('drafts', () => {
  it('asks before the tab closes with a draft; Discard puts the saved text back, keeps the focus in the text, and then nothing asks', async () => {
    const doc = 'leave.yaml';
    const saved = await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    await typeAtStart(page, '# draft\n');
    // Kept once typing pauses (half a second), not on each key.
    await expect.poll(() => drafts(page)).toEqual([`aion.draft.shop/${doc}`]);

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(['beforeunload']);
    expect(page.isClosed()).toBe(false);

    await page.getByRole('button', { name: 'Discard' }).click();
    await notice(page, /^Discarded your changes; Ctrl\+Z in the editor brings them back\.$/);
    expect(await editorText(page)).toBe(saved.text);
    expect(await page.locator('h1').textContent()).not.toContain('unsaved');
    expect(await drafts(page)).toEqual([]);
    expect(await focusInText(page)).toBe(true);
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page)).toBe(`# draft\n${saved.text}`);
    await page.getByRole('button', { name: 'Discard' }).click();

    await page.close({ runBeforeUnload: true });
    await expect.poll(() => page.isClosed()).toBe(true);
    expect(dialogs).toEqual(['beforeunload']);
    expect(errors).toEqual([]);
  });

  it('asks before Sign out discards drafts, naming them; Keep drafts gives the focus back, and without drafts Sign out just signs out', async () => {
    const doc = 'sign-out.yaml';
    await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    await typeAtStart(page, '# unsaved\n');
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await signOut.click();
    const dialog = page.getByRole('dialog', { name: 'Sign out and lose unsaved drafts?' });
    await dialog.waitFor();
    expect(await dialog.getByRole('link').allTextContents()).toEqual([`shop / ${doc}`]);
    await expect.poll(() => dialog.getByRole('button', { name: 'Keep drafts' }).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'drafts-sign-out-light.png') });
    expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => signOut.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await page.locator('h1').textContent()).toContain('unsaved');

    await signOut.click();
    await dialog.getByRole('button', { name: 'Discard drafts and sign out' }).click();
    await page.getByLabel('Token').waitFor();
    expect(await drafts(page)).toEqual([]);

    const other = await ui.open('olive', '/projects/shop');
    await other.page.getByRole('button', { name: 'Sign out' }).click();
    await other.page.getByLabel('Token').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('a save that meets another operator’s', () => {
  it('merges changes to different lines, keeping both, and leaves the focus in the text to check and save', async () => {
    const doc = 'merge.yaml';
    const base = await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    await typeAtStart(page, '# ada was here\n');
    const theirs = await savedBy('olive', doc, (text) => text.replace('port: 8080', 'port: 9191'));

    const baseReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/tools/read_document') && request.postData()?.includes(`"revision":${base.revision}`)) baseReads.push(request.url());
    });
    await page.locator('.toolbar').getByRole('button', { name: 'Save' }).click();
    const panel = page.getByRole('region', { name: `olive saved r${theirs.revision} while you were editing r${base.revision}` });
    await panel.waitFor();
    await expect.poll(() => panel.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // At once: the editor knows r1's text, where the operator started (reading it again showed "Reading r1…" for
    // seconds on a loaded machine).
    expect(await panel.textContent()).toContain('Your changes and theirs touch different lines: Merge keeps both.');
    expect(baseReads).toEqual([]);
    expect(await panel.locator('.line-diff').textContent()).toContain('+ # ada was here');
    expect((await stored(doc)).revision).toBe(theirs.revision);

    await panel.getByRole('button', { name: 'Merge' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await focusInText(page)).toBe(true);
    await notice(page, new RegExp(`^Merged with r${theirs.revision} by olive: check it, then Save\\.`));
    const merged = `# ada was here\n${theirs.text}`;
    expect(await editorText(page)).toBe(merged);
    await page.keyboard.press('Control+s');
    await notice(page, new RegExp(`^Saved r${theirs.revision + 1}\\.$`));
    expect((await stored(doc)).text).toBe(merged);
    expect(errors).toEqual([]);
  });

  it('keeps the other operator’s lines where both changed the same ones, unless the operator chooses theirs own — and shows what that drops', async () => {
    const doc = 'conflict.yaml';
    await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    await typeAtStart(page, '# mine\n');
    await page.locator('.cm-line', { hasText: /^port: 8080$/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText('1');
    const theirs = await savedBy('olive', doc, (text) => text.replace('port: 8080', 'port: 9191'));

    await page.locator('.toolbar').getByRole('button', { name: 'Save' }).click();
    const panel = page.locator('.merge-panel');
    await panel.getByRole('group', { name: `Both changed line 3 of r${theirs.revision}` }).waitFor();
    const keepTheirs = panel.getByRole('radio', { name: "Keep olive's" });
    const keepMine = panel.getByRole('radio', { name: 'Keep yours' });
    expect(await keepTheirs.isChecked()).toBe(true);
    const diff = panel.locator('.line-diff');
    expect(await diff.textContent()).not.toContain('- port: 9191');
    await review(page, 'drafts-merge-light');

    await keepMine.check();
    await expect.poll(() => diff.textContent()).toContain('- port: 9191');
    expect(await diff.textContent()).toContain('+ port: 8081');
    await keepTheirs.check();
    await panel.getByRole('button', { name: 'Merge' }).click();
    await page.keyboard.press('Control+s');
    await notice(page, new RegExp(`^Saved r${theirs.revision + 1}\\.$`));
    expect((await stored(doc)).text).toBe(`# mine\n${theirs.text}`);

    // Again, choosing theirs own this time.
    await page.locator('.cm-line', { hasText: /^port: 9191$/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.insertText('0');
    const again = await savedBy('olive', doc, (text) => text.replace('port: 9191', 'port: 9292'));
    await page.locator('.toolbar').getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('radio', { name: 'Keep yours' }).check();
    await panel.getByRole('button', { name: 'Merge' }).click();
    expect(await focusInText(page)).toBe(true);
    await page.keyboard.press('Control+s');
    await notice(page, new RegExp(`^Saved r${again.revision + 1}\\.$`));
    expect((await stored(doc)).text).toBe(again.text.replace('port: 9292', 'port: 91910'));
    expect(errors).toEqual([]);
  });

  it('offers the merge as soon as the news of their save arrives, and Reload leaves the focus in the text', async () => {
    const doc = 'news.yaml';
    await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    await typeAtStart(page, '# mine\n');
    const theirs = await savedBy('olive', doc, (text) => `${text}# olive\n`);
    const banner = page.getByRole('status', { name: 'Saved elsewhere' });
    await banner.getByText(`r${theirs.revision} saved by olive`).waitFor();
    await banner.getByRole('button', { name: 'Merge' }).click();
    const panel = page.locator('.merge-panel');
    await panel.getByText('Merge keeps both').waitFor();
    await panel.getByRole('button', { name: 'Take theirs' }).click();
    expect(await focusInText(page)).toBe(true);
    expect(await editorText(page)).toBe(theirs.text);
    await notice(page, new RegExp(`^Took r${theirs.revision}; Ctrl\\+Z`));

    await typeAtStart(page, '# again\n');
    const next = await savedBy('olive', doc, (text) => `${text}# olive again\n`);
    await banner.getByText(`r${next.revision} saved by olive`).waitFor();
    await banner.getByRole('button', { name: 'Reload' }).click();
    expect(await focusInText(page)).toBe(true);
    expect(await editorText(page)).toBe(next.text);
    expect(errors).toEqual([]);
  });
});

describe('reading and checking', () => {
  it('opens search with Ctrl+F from anywhere on the page, folds YAML blocks and matches brackets', async () => {
    const { page, errors } = await openEditor('ada', 'aion.schema.yaml');
    await page.getByLabel('Diff').focus();
    await page.keyboard.press('Control+f');
    const find = page.getByRole('textbox', { name: 'Find' });
    await expect.poll(() => find.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('minLength');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.cm-searchMatch').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await find.waitFor({ state: 'detached' });
    expect(await focusInText(page)).toBe(true);
    // Inside the text too.
    await page.keyboard.press('Control+f');
    await find.waitFor();
    await page.keyboard.press('Escape');

    // Folding: markers in the gutter; the `properties:` block folds by keyboard and unfolds from its placeholder.
    const inside = page.locator('.cm-line', { hasText: /^ {2}service: / });
    expect(await page.locator('.cm-foldGutter span[title="Fold line"]').count()).toBeGreaterThan(1);
    await page.locator('.cm-line', { hasText: /^properties:$/ }).click();
    await page.keyboard.press('Control+Shift+BracketLeft');
    await page.locator('.cm-foldPlaceholder').waitFor();
    await inside.waitFor({ state: 'detached' });
    await page.locator('.cm-foldPlaceholder').click();
    await inside.waitFor();

    // Bracket matching: the cursor after `]` marks both brackets.
    await page.locator('.cm-line', { hasText: /^required: \[service, port\]$/ }).click();
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.cm-matchingBracket').allTextContents()).toEqual(['[', ']']);
    expect(errors).toEqual([]);
  });

  it('lists every problem, each leading to its place, and disables Deploy with the checker’s reason until they are fixed', async () => {
    const doc = 'problems.yaml';
    const valid = await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc);
    const deploy = page.locator('.toolbar').getByRole('button', { name: 'Deploy', exact: true });
    await expect.poll(() => deploy.getAttribute('aria-disabled')).toBeNull();
    expect(await deploy.getAttribute('title')).toBe('Deploy the saved revision to staging');

    await replaceText(page, 'service: 5\nport: "ten"\ndatabase:\n  url: 3\nfeatures:\n  a: "yes"\n  b: 1\nextra: ${secret:MISSING}\n');
    await page.locator('.problems-summary').filter({ hasText: /\d+ problems/ }).waitFor();
    const count = Number(/(\d+) problems/.exec((await page.locator('.problems-summary').textContent()) ?? '')?.[1]);
    expect(count).toBeGreaterThan(3);
    const problems = page.locator('.problem-list').getByRole('button');
    expect(await problems.count()).toBe(count);
    expect(await deploy.getAttribute('aria-disabled')).toBe('true');
    expect(await deploy.getAttribute('title')).toBe('Save first: Deploy puts the saved revision live.');

    await page.keyboard.press('Control+s');
    await notice(page, new RegExp(`^Saved r${valid.revision + 1}\\.$`));
    await expect.poll(() => deploy.getAttribute('title')).toMatch(
      new RegExp(`^Not deployable: the checker finds ${count} problems in r${valid.revision + 1} for staging \\(first, 1:\\d+ .+\\); fix and save it first\\.$`),
    );
    expect(await deploy.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('.problems-summary').textContent()).toContain('Deploy waits until a saved revision has none');
    await review(page, 'drafts-problems-light');

    // A problem's button puts the cursor on its line, in the text.
    const last = problems.last();
    const where = /^(\d+):/.exec((await last.textContent()) ?? '')?.[1];
    await last.click();
    expect(await focusInText(page)).toBe(true);
    expect(await page.locator('.cm-activeLine').textContent()).toBe(((await editorText(page)).split('\n')[Number(where) - 1]) ?? '');

    await replaceText(page, valid.text);
    await page.keyboard.press('Control+s');
    await notice(page, /^Saved r\d+\.$/);
    await expect.poll(() => deploy.getAttribute('aria-disabled')).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('dark', () => {
  it('shows the problems, the merge and a read-only editor legibly, without a serious axe violation', async () => {
    const doc = 'dark.yaml';
    await newDocument(doc);
    const { page, errors } = await openEditor('ada', doc, 'staging', 'dark');
    await replaceText(page, TEXT.replace('port: 8080', 'port: 7070').replace('service: shop', 'service: 5'));
    await page.locator('.problem-list').waitFor();
    await savedBy('olive', doc, (text) => text.replace('port: 8080', 'port: 9191'));
    await page.locator('.toolbar').getByRole('button', { name: 'Save' }).click();
    await page.locator('.merge-conflict').waitFor();
    await review(page, 'drafts-merge-dark');
    // On a phone the merge still fits, without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'drafts-merge-dark-390.png') });
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= innerWidth')).toBe(true);

    const viewer = await openEditor('vic', doc, 'staging', 'dark');
    await viewer.page.getByRole('note').waitFor();
    await review(viewer.page, 'drafts-viewer-dark');
    expect([...errors, ...viewer.errors]).toEqual([]);
  });
});

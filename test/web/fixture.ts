// One real `ops serve --demo` (embedded store, a copy of the run's seeded
// demo) per test file, in the worker's one headless Chromium; tabs of their
// own per test, signed in by the link the server printed, closed after it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { freshDemoDataDir } from '../helpers/store.js';
import { sharedBrowser, type TestBrowser } from './browser.js';

export type DemoOperator = 'ada' | 'olive' | 'dev' | 'vic';

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions the page produced. */
  errors: string[];
}

export interface ConsoleFixture {
  server: ServerProcess;
  browser: TestBrowser;
  /** The sign-in link `ops serve --demo` printed for each demo operator. */
  links: Record<DemoOperator, string>;
  /** Each demo operator's token, read off its link. */
  tokens: Record<DemoOperator, string>;
  /** A new tab (its own storage), signed in by link, on `path`. */
  open(operator: DemoOperator, path?: string, scheme?: 'light' | 'dark'): Promise<ConsolePage>;
  /** A new tab, signed out. */
  blank(scheme?: 'light' | 'dark'): Promise<ConsolePage>;
  /** Closes the tabs opened so far: an open tab keeps following the server's changes, which costs every later test. */
  closeTabs(): Promise<void>;
  /** Saves a screenshot and the text of each tab open now, for a failed test's reader; says where on stderr. */
  keepFailedTabs(testName: string): Promise<void>;
  stop(): Promise<void>;
}

const LINK = /^sign in as (\w+) \(\w+\): (http:\/\/\S+\/#token=(\S+))$/;

/** `args`: more `ops serve` flags, beside `--demo` and its own data folder. */
export async function startConsole(args: string[] = [], env: Record<string, string> = {}): Promise<ConsoleFixture> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // A copy of the run's seeded demo: `--demo` on it prints the sign-in links without seeding (a fresh store costs seconds).
  const server = await spawnServer(['--demo', '--data', await freshDemoDataDir(), ...args], { AION_ADMIN_TOKEN: '', ...env });
  const { links, tokens } = signInLinksOf(server);
  const browser = await sharedBrowser().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  let contexts: BrowserContext[] = [];

  async function closeTabs(): Promise<void> {
    const open = contexts;
    contexts = [];
    await Promise.all(open.map((context) => context.close().catch(() => undefined)));
  }

  async function keepFailedTabs(testName: string): Promise<void> {
    const stem = path.join(SCREENSHOTS, `failed-${testName.replace(/[^\w-]+/g, '-').slice(0, 60)}`);
    const pages = contexts.flatMap((context) => context.pages());
    const answers = await serverAnswers(server.url);
    for (const [i, page] of pages.entries()) {
      const file = `${stem}-${i + 1}`;
      await page.screenshot({ path: `${file}.png`, timeout: 5_000 }).catch(() => undefined);
      const text = await page.evaluate<string>('document.body.innerText').catch((error: unknown) => String(error));
      const seen = tabsSeen.get(page);
      const said = [
        page.url(),
        `errors: ${JSON.stringify(seen?.errors ?? [])}`,
        `requests not answered: ${JSON.stringify([...(seen?.pending ?? [])])}`,
        `requests failed: ${JSON.stringify(seen?.failed ?? [])}`,
        `the server: ${answers}`,
      ];
      await writeFile(`${file}.txt`, `${said.join('\n')}\n\n${text}\n`);
      console.error(`failed test "${testName}": tab ${i + 1} kept as ${file}.png and .txt\n  ${said.slice(1).join('\n  ')}`);
    }
  }

  async function blank(scheme: 'light' | 'dark' = 'light'): Promise<ConsolePage> {
    const tab = await blankTab(browser, scheme);
    contexts.push(tab.context);
    return tab;
  }

  return {
    server,
    browser,
    links,
    tokens,
    blank,
    async open(operator, path = '/', scheme = 'light') {
      const tab = await blank(scheme);
      await signInTab(tab.page, links[operator], path);
      return tab;
    },
    closeTabs,
    keepFailedTabs,
    async stop() {
      await closeTabs();
      await server.stop();
    },
  };
}

/**
 * The calling test file's console: started before its tests (and before the
 * file's own `beforeAll` hooks, registered after this call), stopped after
 * them; each test's tabs are closed after it. Its fields are read when used,
 * so use it inside tests and hooks.
 */
export function consoleForFile(args: string[] = [], env: Record<string, string> = {}): ConsoleFixture {
  let started: ConsoleFixture | null = null;
  beforeAll(async () => {
    started = await startConsole(args, env);
  });
  closeTabsAfterEach(() => started);
  afterAll(async () => {
    await started?.stop();
  });
  const current = (): ConsoleFixture => {
    if (!started) throw new Error('the console starts in beforeAll: use it inside a test or a hook');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get browser() {
      return current().browser;
    },
    get links() {
      return current().links;
    },
    get tokens() {
      return current().tokens;
    },
    open: (...args) => current().open(...args),
    blank: (...args) => current().blank(...args),
    closeTabs: () => current().closeTabs(),
    keepFailedTabs: (testName) => current().keepFailedTabs(testName),
    stop: () => current().stop(),
  };
}

/** After each test, its tabs are closed; a failed test's are kept first, for its reader. */
export function closeTabsAfterEach(fixture: () => ConsoleFixture | null | undefined): void {
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await fixture()?.keepFailedTabs(task.name);
    await fixture()?.closeTabs();
  });
}

/** The sign-in links (and their tokens) `--demo` printed when it seeded the store; empty when this server did not seed it. */
export function signInLinksOf(server: ServerProcess): { links: Record<DemoOperator, string>; tokens: Record<DemoOperator, string> } {
  const links = {} as Record<DemoOperator, string>;
  const tokens = {} as Record<DemoOperator, string>;
  for (const line of server.stdout) {
    const match = LINK.exec(line);
    if (match?.[1] && match[2] && match[3]) {
      links[match[1] as DemoOperator] = match[2];
      tokens[match[1] as DemoOperator] = match[3];
    }
  }
  return { links, tokens };
}

/** What a tab did, for a failed test's reader: its errors, the requests it still waits for, and those that failed. */
const tabsSeen = new WeakMap<Page, { errors: string[]; pending: Set<string>; failed: string[] }>();

/** A new tab in `browser` (its own storage), signed out, recording its errors. */
export async function blankTab(browser: TestBrowser, scheme: 'light' | 'dark' = 'light'): Promise<ConsolePage> {
  const context = await browser.context(scheme);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const pending = new Set<string>();
  const failed: string[] = [];
  const named = (request: { method(): string; url(): string }) => `${request.method()} ${request.url().replace(/#.*/, '')}`;
  page.on('request', (request) => pending.add(named(request)));
  page.on('requestfinished', (request) => pending.delete(named(request)));
  page.on('requestfailed', (request) => {
    pending.delete(named(request));
    failed.push(`${named(request)}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  tabsSeen.set(page, { errors, pending, failed });
  return { page, context, errors };
}

/** Whether the server answers its health check and its page within 3 s each, in words. */
async function serverAnswers(url: string): Promise<string> {
  const tried = await Promise.all(
    ['/healthz', '/'].map(async (route) => {
      const started = performance.now();
      try {
        const answer = await fetch(url + route, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(3_000) });
        await answer.arrayBuffer();
        return `${route} ${answer.status} in ${Math.round(performance.now() - started)} ms`;
      } catch (error) {
        return `${route} ${error instanceof Error ? error.message : String(error)}`;
      }
    }),
  );
  return tried.join(', ');
}

/** Signs the tab in by a sign-in `link` (on any server) opened at `path`: the console reads the link's `#token=` on any page. */
export async function signInTab(page: Page, link: string, path = '/'): Promise<void> {
  const target = new URL(path, link);
  target.hash = new URL(link).hash;
  await page.goto(target.toString());
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/**
 * Types `text` into the assistant's message box and sends it by Enter, once
 * Send is enabled: Enter while the previous turn is still finishing does
 * nothing (the text stays), as it does for an operator.
 */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(text);
  await page.locator('.message-box').getByRole('button', { name: 'Send', exact: true }).and(page.locator(':enabled')).waitFor();
  await box.press('Enter');
}

/**
 * In a new conversation, has the fake model propose `line` (a `/tool` line
 * that changes production), accepts it through the typed confirmation, and
 * answers its card once it waits for a second operator's approval.
 */
export async function acceptInProduction(page: Page, line: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Message').fill(line);
  await page.getByLabel('Message').press('Enter');
  const card = page.locator('.card.proposal').last();
  await card.getByRole('button', { name: 'Accept' }).click();
  const dialog = page.getByRole('dialog', { name: 'Accept a change to production' });
  await dialog.getByLabel('Environment name').fill('production');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await card.locator('.status', { hasText: 'waiting for a second operator' }).waitFor();
  return card;
}

/**
 * The page itself never scrolls, only its panes: the document is no taller or
 * wider than the window and the top bar sits at its top.
 */
export async function pageStaysPut(page: Page): Promise<void> {
  const frame = await page.evaluate(
    '(() => { const root = document.scrollingElement ?? document.documentElement; return { top: root.scrollTop, left: root.scrollLeft, tall: root.scrollHeight - innerHeight }; })()',
  );
  expect(frame).toEqual({ top: 0, left: 0, tall: 0 });
  expect((await page.locator('.topbar').boundingBox())?.y).toBe(0);
}

/** Where browser tests save their screenshots for review. */
export const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations inside the element SELECTOR finds (ids, impacts, targets): none is the bar. */
export async function seriousViolations(page: Page, selector: string): Promise<Violation[]> {
  return (await axeViolations(page, selector)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** axe-core's violations of moderate impact or worse inside SELECTOR: none is the bar for the pages issue 33 touched. */
export async function moderateViolations(page: Page, selector = 'body'): Promise<Violation[]> {
  return (await axeViolations(page, selector)).filter((v) => v.impact !== 'minor');
}

async function axeViolations(page: Page, selector: string): Promise<Violation[]> {
  // axe is 560 KB to send and compile: once per page load, not once per check.
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate((axeSource ??= await readFile(AXE, 'utf8')));
  return page.evaluate<Violation[]>(
    `axe.run(document.querySelector(${JSON.stringify(selector)}), { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  );
}

/** Runs a tool over REST as a demo operator (as any client would), failing on a tool error; its result. */
export async function runToolAs<T = Record<string, unknown>>(ui: ConsoleFixture, operator: DemoOperator, name: string, input: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${ui.server.url}/api/v1/assistant/tools/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ui.tokens[operator]}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { is_error: boolean; result: T };
  if (body.is_error) throw new Error(`${name}: ${JSON.stringify(body.result)}`);
  return body.result;
}

// One real `ops serve --demo` (embedded store) and one headless Chromium per
// test file; a page per test, signed in by the link the server printed.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { scratchFolder } from '../helpers/scratch.js';
import { launchBrowser, type TestBrowser } from './browser.js';

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
  stop(): Promise<void>;
}

const LINK = /^sign in as (\w+) \(\w+\): (http:\/\/\S+\/#token=(\S+))$/;

/** `args`: more `ops serve` flags, beside `--demo` and its own data folder. */
export async function startConsole(args: string[] = [], env: Record<string, string> = {}): Promise<ConsoleFixture> {
  const server = await spawnServer(['--demo', '--data', await scratchFolder('console'), ...args], { AION_ADMIN_TOKEN: '', ...env });
  const links = {} as Record<DemoOperator, string>;
  const tokens = {} as Record<DemoOperator, string>;
  for (const line of server.stdout) {
    const match = LINK.exec(line);
    if (match?.[1] && match[2] && match[3]) {
      links[match[1] as DemoOperator] = match[2];
      tokens[match[1] as DemoOperator] = match[3];
    }
  }
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const contexts: BrowserContext[] = [];

  async function blank(scheme: 'light' | 'dark' = 'light'): Promise<ConsolePage> {
    const context = await browser.context(scheme);
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, context, errors };
  }

  return {
    server,
    browser,
    links,
    tokens,
    blank,
    async open(operator, path = '/', scheme = 'light') {
      const tab = await blank(scheme);
      await tab.page.goto(links[operator]);
      await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
      if (path !== '/') await navigate(tab.page, path);
      return tab;
    },
    async stop() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.stop();
    },
  };
}

/** Moves within the console without reloading the tab (the token stays in sessionStorage either way). */
export async function navigate(page: Page, path: string): Promise<void> {
  await page.goto(new URL(path, page.url()).toString());
}

/** Where browser tests save their screenshots for review. */
export const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations inside the element SELECTOR finds (ids, impacts, targets): none is the bar. */
export async function seriousViolations(page: Page, selector: string): Promise<{ id: string; impact: string | null; targets: string[] }[]> {
  await page.evaluate(await readFile(AXE, 'utf8'));
  const violations = await page.evaluate<{ id: string; impact: string | null; targets: string[] }[]>(
    `axe.run(document.querySelector(${JSON.stringify(selector)}), { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

// Debian's chromium-headless-shell driven by playwright-core: nothing is
// downloaded at run time (.ci/run installs the package when it is missing).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.AION_CHROMIUM ?? '/usr/lib/chromium/chromium-headless-shell';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (its own storage) at 1280×800 in the given colour scheme. */
  context(scheme?: 'light' | 'dark'): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** A browser of its own; `args` adds to the usual flags (e.g. a host name mapped to the loopback). */
export async function launchBrowser(args: string[] = []): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no browser at ${CHROMIUM}: install it with apt-get install -y chromium-headless-shell (or set AION_CHROMIUM)`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Playwright gives every launch a new, empty user-data-dir of its own.
    args: [...FLAGS, ...args],
  });
  return {
    browser,
    context: (scheme = 'light') => browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme }),
    close: () => browser.close(),
  };
}

let shared: Promise<TestBrowser> | null = null;

/**
 * This worker's browser, launched once: the test files of a worker run one
 * after another, each test in contexts of its own, closed after it. It goes
 * with the worker (Playwright stops the browsers it launched when their
 * process exits).
 */
export function sharedBrowser(): Promise<TestBrowser> {
  shared ??= launchBrowser().catch((error: unknown) => {
    shared = null;
    throw error;
  });
  return shared;
}

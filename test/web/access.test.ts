// The console end to end, on who may do what: serving, signing in and out,
// permission-aware controls, and secrets that never reach the page.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { request } from '../helpers/http.js';
import { consoleForFile } from './fixture.js';

const ui = consoleForFile();

describe('serving the console', () => {
  it('answers pages with index.html under a CSP without inline script, assets immutable, and never a page for the API', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    const page = await request(ui.server.url, 'GET', '/projects/shop/documents/app.yaml', { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1] ?? '';
    const script = await request(ui.server.url, 'GET', asset);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    // React's production build, whatever NODE_ENV the build ran under: this suite builds under vitest's
    // NODE_ENV=test, which once gave its development build (every effect run twice, its checks on each render).
    expect(script.text).not.toContain('react.dev/link/react-devtools');
    // Compressed at build time, sent as the browser accepts; the same bytes once decoded.
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', null]] as const) {
      const sent = await fetch(ui.server.url + asset, { headers: { 'accept-encoding': accept } });
      expect(sent.headers.get('content-encoding'), accept).toBe(encoding);
      expect(sent.headers.get('vary'), accept).toBe('accept-encoding');
      expect(await sent.text(), accept).toBe(script.text);
    }
    expect((await request(ui.server.url, 'HEAD', asset)).status).toBe(200);
    for (const missing of ['/assets/nothing.js', '/assets/../index.html', '/assets/%2e%2e/secret.key', '/assets/']) {
      expect((await request(ui.server.url, 'GET', missing)).status, missing).toBe(404);
    }
    // An editor route names the editor's code for preloading; other pages do not.
    expect(page.text).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/EditorPage-[^"]+\.js">/);
    const projects = await request(ui.server.url, 'GET', '/projects/shop', { headers: html });
    expect(projects.text).not.toContain('EditorPage-');

    for (const path of ['/api/v1/nothing', '/mcp/x', '/metrics/x']) {
      const answer = await request(ui.server.url, 'GET', path, { headers: html });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ error: `no such route: GET ${path}` });
    }
    const json = await request(ui.server.url, 'GET', '/projects/shop', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
  });
});

describe('signing in', () => {
  it('has a sign-in link per demo operator from ops serve --demo, the token in the fragment only', () => {
    expect(Object.keys(ui.links).sort()).toEqual(['ada', 'dev', 'olive', 'vic']);
    for (const [name, link] of Object.entries(ui.links)) {
      expect(link).toBe(`${ui.server.url}/#token=${ui.tokens[name as 'ada']}`);
      expect(ui.tokens[name as 'ada']).toMatch(/^aion_[A-Za-z0-9_-]{43}$/);
    }
  });

  it('takes the token from a sign-in link, clears it from the address bar, keeps it for the tab only, and signs out', async () => {
    const { page, errors } = await ui.open('ada');
    expect(page.url()).not.toContain('token');
    await page.getByRole('link', { name: 'Shop' }).waitFor();
    const storage = await page.evaluate("({ session: sessionStorage.getItem('aion.token'), local: localStorage.length, cookie: document.cookie })");
    expect(storage).toEqual({ session: ui.tokens.ada, local: 0, cookie: '' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(errors).toEqual([]);
    // No token reached a URL the server saw, nor its log.
    expect(ui.server.stderr.join('\n')).not.toContain(ui.tokens.ada);
  });

  it('signs in by the form, and says so in a sentence when the token is wrong', async () => {
    const { page } = await ui.blank();
    await page.goto(ui.server.url + '/');
    await page.getByLabel('Token').fill('aion_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/That token was not accepted/);

    await page.getByLabel('Token').fill(ui.tokens.olive);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Shop' }).waitFor();
    // Who is signed in comes with its own read, after the projects.
    await page.locator('.topbar .who').filter({ hasText: /^olive$/ }).waitFor();
  });
});

describe('the keyboard alone', () => {
  /** Presses Tab until `target` has the focus (at most 80 times); fails when it never does. */
  async function tabTo(page: Page, target: Locator): Promise<void> {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return;
    }
    throw new Error('Tab never reached the control');
  }

  it('signs in, opens a project and talks to the assistant without a mouse', async () => {
    const { page } = await ui.blank();
    await page.goto(ui.server.url + '/');
    await tabTo(page, page.getByLabel('Token'));
    await page.keyboard.type(ui.tokens.ada);
    await page.keyboard.press('Enter');
    const shop = page.getByRole('link', { name: 'Shop' });
    await shop.waitFor();
    await tabTo(page, shop);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/projects\/shop$/);
    const assistant = page.getByRole('region', { name: 'Assistant' });
    await tabTo(page, assistant.getByRole('button', { name: 'New conversation' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Message'));
    await page.keyboard.type('/say typed without a mouse');
    await page.keyboard.press('Enter');
    await assistant.getByText('typed without a mouse', { exact: false }).last().waitFor();
  });
});

describe('permission-aware controls', () => {
  async function deployButton(operator: 'vic' | 'dev', environment: string) {
    const { page } = await ui.open(operator, `/projects/shop/documents/app.yaml?environment=${environment}`);
    const deploy = page.getByRole('button', { name: 'Deploy', exact: true });
    await page.locator('.cm-content').waitFor();
    // The refusal arrives with the tool list: wait until the button says it, or says where it deploys.
    await page.locator('.toolbar button[title^="you need"], .toolbar button[title^="Deploy the"]').filter({ hasText: /^Deploy$/ }).waitFor();
    const describedBy = await deploy.getAttribute('aria-describedby');
    const description = describedBy ? await page.locator(`[id="${describedBy}"]`).textContent() : null;
    return { disabled: (await deploy.getAttribute('aria-disabled')) === 'true', description, page };
  }

  it('shows a viewer Deploy disabled with the refusal sentence', async () => {
    const viewer = await deployButton('vic', 'staging');
    expect(viewer.disabled).toBe(true);
    expect(viewer.description).toBe('you need deploy on staging of shop; your role there is viewer');
    // Save is refused too, and says why.
    expect(await viewer.page.getByRole('button', { name: 'Save' }).getAttribute('title')).toBe(
      'you need document:write on shop; your role there is viewer',
    );
  });

  it('lets a developer deploy to staging but not to production', async () => {
    const production = await deployButton('dev', 'production');
    expect(production.disabled).toBe(true);
    expect(production.description).toBe('you need deploy on production of shop; your role there is developer');
    const staging = await deployButton('dev', 'staging');
    expect(staging.disabled).toBe(false);
  });
});

describe('secrets', () => {
  it('lists secrets by name and sets one without its value ever reaching the page', async () => {
    const canary = `canary-${randomBytes(12).toString('hex')}`;
    const { page, errors } = await ui.blank();
    const bodies: string[] = [];
    page.on('response', (response) => {
      void response.text().then((text) => bodies.push(text), () => undefined);
    });
    await page.goto(ui.links.ada);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(ui.server.url + '/projects/shop/environments/staging');
    await page.getByRole('cell', { name: 'DATABASE_URL', exact: true }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('CANARY_TOKEN');
    await page.getByLabel('Value').fill(canary);
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByRole('cell', { name: 'CANARY_TOKEN', exact: true }).waitFor();
    expect(await page.getByLabel('Value').inputValue()).toBe('');

    await page.reload();
    await page.getByRole('cell', { name: 'CANARY_TOKEN', exact: true }).waitFor();
    const dom = await page.evaluate<string>('document.documentElement.outerHTML');
    expect(dom).not.toContain(canary);
    expect(dom).not.toContain('demo-staging');
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) {
      expect(body).not.toContain(canary);
      expect(body).not.toContain('demo-staging');
    }
    expect(errors).toEqual([]);
  });
});

// The web console (web/, built into dist/web by `npm run build`): its hashed
// assets served immutable, compressed at build time, and
// index.html for every other page a browser asks for, under a
// Content-Security-Policy that allows no inline script. An editor route's
// page names the editor's chunk for preloading, so its download starts with
// the page rather than once the console's code has run.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../package-root.js';
import { editorRouteOf } from '../wire/console-routes.js';

export const CONSOLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'web');

/** Styles may be inline (CodeMirror injects its own); scripts come only from this origin. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the API and operations, never answered with the console. */
const NOT_PAGES = /^\/(api(\/|$)|mcp(\/|$|\?)|metrics(\/|$|\?))/;

/** The editor's chunk in the build's manifest. */
const EDITOR_ENTRY = 'src/editor/EditorPage.tsx';

export interface WebConsole {
  /** Serves the assets; register it at the root. */
  register(app: FastifyInstance): Promise<void>;
  /** Answers a GET for a page with index.html; false when the request is not for a page. */
  page(request: FastifyRequest, reply: FastifyReply): boolean;
}

/** index.html with the editor's chunk (and its styles) to preload, when the build's manifest names it. */
async function editorIndex(dir: string, index: string): Promise<string> {
  let entry: { file?: string; css?: string[] } | undefined;
  try {
    entry = (JSON.parse(await readFile(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, typeof entry>)[EDITOR_ENTRY];
  } catch {
    return index;
  }
  if (!entry?.file) return index;
  const links = [
    `<link rel="modulepreload" crossorigin href="/${entry.file}">`,
    ...(entry.css ?? []).map((css) => `<link rel="preload" as="style" crossorigin href="/${css}">`),
  ];
  return index.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}

/** The built console, or null when it has not been built (the API still serves). */
export async function loadConsole(dir = CONSOLE_DIR): Promise<WebConsole | null> {
  let index: string;
  try {
    index = await readFile(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  const onEditor = await editorIndex(dir, index);
  return {
    register: async (app) => {
      await app.register(async (assets) => {
        // The console's files are public: the token lives in the tab, not in cookies.
        assets.addHook('onRoute', (route) => {
          route.config = { ...route.config, accepts: [] };
        });
        await assets.register(fastifyStatic, {
          root: path.join(dir, 'assets'),
          prefix: '/assets/',
          immutable: true,
          maxAge: '365d',
          index: false,
          schemaHide: true,
          // The .br and .gz the build wrote beside each file, as the browser accepts.
          preCompressed: true,
        });
      });
    },
    page: (request, reply) => {
      const method = request.method;
      if (method !== 'GET' && method !== 'HEAD') return false;
      if (NOT_PAGES.test(request.url) || !(request.headers.accept ?? '').includes('text/html')) return false;
      const pathname = request.url.split('?')[0] ?? '';
      const editor = editorRouteOf(pathname) !== null;
      void reply
        .code(200)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CSP)
        // frame-ancestors 'none' for browsers that predate it.
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(editor ? onEditor : index);
      return true;
    },
  };
}

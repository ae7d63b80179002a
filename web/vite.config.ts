// Builds the console into dist/web, which `ops serve` serves at `/`.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const OUT_DIR = fileURLToPath(new URL('../dist/web', import.meta.url));

/**
 * Each text asset also as .br and .gz beside it, compressed once here rather
 * than per request: the server (src/http/console.ts) answers with the one
 * the browser accepts. The editor's chunk (CodeMirror) is 420 KB, 115 KB as br.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'aion:precompress',
    apply: 'build',
    async writeBundle() {
      const assets = path.join(OUT_DIR, 'assets');
      const names = (await readdir(assets)).filter((name) => /\.(js|css|svg|json)$/.test(name));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(assets, name);
          const body = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzipped(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

const config = {
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // No inline script: the CSP forbids it, so the module preload helper is a file too.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
    // Names the editor's chunk, which the server preloads on an editor route (src/http/console.ts).
    manifest: true,
    // Brotli at its best quality takes seconds, by design: no warning about it on every build.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is what the server serves: React's production build and JSX, whatever NODE_ENV the caller had (a
  // build started by the test suite inherits vitest's NODE_ENV=test, which gave React's development build, with
  // every effect run twice and its checks on every render). Vite reads NODE_ENV once this config is loaded.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});

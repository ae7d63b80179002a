// Builds `ops` into dist/: the entry dist/main.js and, in dist/chunks/, the
// modules each command loads when it runs. Unbundled, a server start read,
// resolved and compiled about 830 module files one by one: most of its time
// (docs/decisions.md, "The server is bundled").
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

// Everything in dist/ but the console (dist/web, which its own vite build
// empties): the last bundle's chunks, and the files of the unbundled layout.
await mkdir('dist', { recursive: true });
for (const entry of await readdir('dist')) {
  if (entry !== 'web') await rm(path.join('dist', entry), { recursive: true, force: true });
}
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Loaded from node_modules as installed: PGlite reads its wasm and data
  // files beside its modules, the sandbox runtime its helper binaries; pg
  // (PostgreSQL only) asks for the optional pg-native by name.
  external: ['@electric-sql/pglite', '@electric-sql/pglite/*', '@anthropic-ai/sandbox-runtime', 'pg'],
  // The CommonJS packages inside the bundle ask for Node's modules with require.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);" },
});
await chmod('dist/main.js', 0o755);

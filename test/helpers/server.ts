// A real server on loopback, in this process, with a store of either kind.
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { readConfig } from '../../src/config.js';
import { demoTokensFile } from '../../src/demo.js';
import { freshLocation, TEST_SECRET_KEY, type StoreKind } from './store.js';
import { generateToken } from '../../src/access/tokens.js';

export interface TestServer extends RunningServer {
  adminToken: string;
  dataDir: string;
  /** Every log line the server wrote. */
  logs: string[];
  /** Demo tokens by operator name (with `demo: true`). */
  demoTokens: Record<string, string>;
  stop(): Promise<void>;
}

async function demoTokensOf(dataDir: string): Promise<Record<string, string>> {
  return JSON.parse(await readFile(demoTokensFile(dataDir), 'utf8')) as Record<string, string>;
}

export async function startTestServer(
  kind: StoreKind,
  options: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const location = await freshLocation(kind, { demo: options.demo ?? false });
  // On PGlite the demo comes seeded (global-setup.ts), its tokens in demo-tokens.json.
  const seeded = kind === 'pglite' && options.demo ? await demoTokensOf(location.dataDir) : null;
  const adminToken = seeded?.admin ?? generateToken('operator');
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = readConfig(
    { host: '127.0.0.1', port: 0, data: location.dataDir, demo: options.demo ?? false },
    {
      AION_ADMIN_TOKEN: adminToken,
      AION_LOG_LEVEL: 'info',
      ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl, AION_SECRET_KEY: TEST_SECRET_KEY } : {}),
      ...options.env,
    },
  );
  const server = await startServer(config, () => {}, logStream);
  const demoTokens: Record<string, string> = options.demo ? await demoTokensOf(location.dataDir) : {};
  delete demoTokens.admin;
  return {
    ...server,
    adminToken,
    dataDir: location.dataDir,
    logs,
    demoTokens,
    stop: async () => {
      await server.close();
      await location.cleanup();
    },
  };
}

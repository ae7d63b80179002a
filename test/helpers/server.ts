// A real server on loopback, in this process, with a store of either kind.
import { Writable } from 'node:stream';
import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { readConfig } from '../../src/config.js';
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

export async function startTestServer(
  kind: StoreKind,
  options: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const location = await freshLocation(kind);
  const adminToken = generateToken('operator');
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
  const printed: string[] = [];
  const server = await startServer(config, (line) => printed.push(line), logStream);
  const demoTokens: Record<string, string> = {};
  for (const line of printed) {
    const match = /^demo token for (\w+): (\S+)$/.exec(line);
    if (match?.[1] && match[2]) demoTokens[match[1]] = match[2];
  }
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

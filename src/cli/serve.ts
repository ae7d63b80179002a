// `ops serve`: open the store, bootstrap it, serve HTTP until a signal.
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { bootstrap, checkAdminToken } from '../bootstrap.js';
import type { Config } from '../config.js';
import { signInLinks } from '../demo.js';
import { buildApp } from '../http/app.js';
import type { Services } from '../services.js';
import { openStore, type Store } from '../store/db.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  store: Store;
  url: string;
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  print: (line: string) => void,
  logStream?: Writable,
): Promise<RunningServer> {
  checkAdminToken(config.adminToken);
  const store = await openStore(config);
  try {
    const { app, services } = await buildApp({ store, config, ...(logStream ? { logStream } : {}) });
    await bootstrap(services, config, print);
    const address = await app.listen({ host: config.host, port: config.port });
    const port = new URL(address).port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host}:${port}`;
    return {
      app,
      services,
      store,
      url,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export async function serveUntilSignalled(config: Config): Promise<void> {
  const server = await startServer(config, (line) => console.log(line));
  if (config.demo) for (const line of await signInLinks(config.dataDir, server.url)) console.log(line);
  console.log(`listening on ${server.url}`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

// `ops serve`: open the store, take the port, bootstrap the store, serve HTTP
// until a signal. The port is taken before the bootstrap, so a first start
// that cannot listen never mints an owner token nobody saw.
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { bootstrap, checkAdminToken } from '../bootstrap.js';
import { ConfigError, StartError, type Config } from '../config.js';
import { signInLinks } from '../demo.js';
import { buildApp } from '../http/app.js';
import type { Services } from '../services.js';
import { openStore, type Store } from '../store/db.js';

/**
 * Connections the kernel may queue before they are accepted: thousands of
 * services reconnect at once after a deploy or a restart (the kernel caps it
 * at net.core.somaxconn).
 */
const LISTEN_BACKLOG = 65_535;

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  store: Store;
  url: string;
  /**
   * Stops taking requests (/readyz fails, new ones get 503 with Retry-After),
   * answers held ones at once, and resolves once those in flight ended or
   * AION_DRAIN_TIMEOUT passed; `close` then ends what is left.
   */
  drain(): Promise<void>;
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
    const { app, services, gate, logFormat } = await buildApp({ store, config, ...(logStream ? { logStream } : {}) });
    if (store.repairedModes > 0) {
      app.log.warn(
        { dataDir: config.dataDir, repaired: store.repairedModes },
        `${store.repairedModes} entries of the data folder were open to other users; each is owner-only now (folders 0700, files 0600)`,
      );
    }
    let address: string;
    try {
      // A person at a terminal reads our own `listening on` line last; Fastify's would say it first, and twice.
      const level = app.log.level;
      if (logFormat === 'pretty') app.log.level = 'warn';
      address = await app.listen({ host: config.host, port: config.port, backlog: LISTEN_BACKLOG });
      app.log.level = level;
      await bootstrap(services, config, print);
    } catch (error) {
      await app.close();
      throw listenError(error, config);
    }
    const port = new URL(address).port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `${config.tls ? 'https' : 'http'}://${host}:${port}`;
    services.agents.serverUrl = url;
    services.webhooks.start(config.publicUrl ?? url);
    return {
      app,
      services,
      store,
      url,
      drain: async () => {
        const draining = gate.drain(config.drainTimeoutMs);
        services.changes.stopWaiting();
        await draining;
      },
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

/** Why the server cannot listen, in one sentence; other errors pass through. */
function listenError(error: unknown, config: Pick<Config, 'host' | 'port'>): unknown {
  const where = `port ${config.port} on ${config.host}`;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartError(`${where} is in use; stop what is listening there, or pick another --port`);
    case 'EACCES':
      return new StartError(`${where} needs privileges this user lacks; pick a port above 1023 with --port`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError(`cannot listen on ${config.host}: this machine has no such address; check --host`);
    default:
      return error;
  }
}

export async function serveUntilSignalled(config: Config): Promise<void> {
  const server = await startServer(config, (line) => console.log(line));
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'draining: refusing new requests, finishing those in flight, then shutting down');
    server
      .drain()
      .then(() => server.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`shutdown failed: ${String(error)}`);
          process.exit(1);
        },
      );
  };
  // Before the line that tells a supervisor the server is up: a signal sent on seeing it finds them.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (config.demo) for (const line of await signInLinks(config.dataDir, server.url)) console.log(line);
  console.log(`listening on ${server.url}`);
}

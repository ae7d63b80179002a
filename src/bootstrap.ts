// The first start of an empty store: the owner `admin`, and the demo when asked.
import { countOperators, createOperator } from './access/operators.js';
import { mintToken } from './access/tokens.js';
import { ConfigError, type Config } from './config.js';
import { seedDemo, demoTokensFile } from './demo.js';
import type { Store } from './store/db.js';

const ADMIN_TOKEN_SHAPE = /^[\x21-\x7e]{20,256}$/;

/** Runs under the store's exclusive section, so two servers never both seed. */
export async function bootstrap(
  store: Store,
  config: Pick<Config, 'adminToken' | 'demo' | 'dataDir'>,
  print: (line: string) => void,
): Promise<void> {
  if (config.adminToken !== null && !ADMIN_TOKEN_SHAPE.test(config.adminToken)) {
    throw new ConfigError('AION_ADMIN_TOKEN must be 20 to 256 printable characters without spaces');
  }
  await store.exclusive(async () => {
    if ((await countOperators(store.db)) > 0) return;
    await store.db.transaction(async (tx) => {
      const admin = await createOperator(tx, { name: 'admin', owner: true });
      const minted = await mintToken(tx, {
        operatorId: admin.id,
        name: 'bootstrap',
        kind: 'operator',
        ...(config.adminToken ? { token: config.adminToken } : {}),
      });
      if (!config.adminToken) print(`admin token (shown once, keep it): ${minted.token}`);
      if (config.demo) {
        const tokens = await seedDemo(tx, config.dataDir);
        for (const [name, token] of Object.entries(tokens)) print(`demo token for ${name}: ${token}`);
        print(`demo tokens written to ${demoTokensFile(config.dataDir)}`);
      }
    });
  });
}

// The first start of an empty store: the owner `admin`, and the demo when asked.
import { countOperators, createOperator } from './access/operators.js';
import { mintToken } from './access/tokens.js';
import { ConfigError, type Config } from './config.js';
import { demoAlreadySeeded, demoSeeded, seedDemo } from './demo.js';
import type { Services } from './services.js';

const ADMIN_TOKEN_SHAPE = /^[\x21-\x7e]{20,256}$/;

export function checkAdminToken(adminToken: string | null): void {
  if (adminToken !== null && !ADMIN_TOKEN_SHAPE.test(adminToken)) {
    throw new ConfigError('AION_ADMIN_TOKEN must be 20 to 256 printable characters without spaces');
  }
}

/** Runs under the store's exclusive section, so two servers never both seed. */
export async function bootstrap(
  services: Services,
  config: Pick<Config, 'adminToken' | 'demo' | 'dataDir'>,
  print: (line: string) => void,
): Promise<void> {
  await services.store.exclusive(async () => {
    if ((await countOperators(services.db)) > 0) {
      if (config.demo) print(await demoAlreadySeeded(config.dataDir));
      return;
    }
    const minted = await services.db.transaction(async (tx) => {
      const admin = await createOperator(tx, { name: 'admin', owner: true });
      return mintToken(tx, {
        operatorId: admin.id,
        name: 'bootstrap',
        kind: 'operator',
        ...(config.adminToken ? { token: config.adminToken } : {}),
      });
    });
    if (!config.adminToken) print(`admin token (shown once, keep it): ${minted.token}`);
    if (config.demo) {
      const tokens = await seedDemo(services, config.dataDir, { admin: minted.token });
      for (const [name, token] of Object.entries(tokens)) if (name !== 'admin') print(`demo token for ${name}: ${token}`);
      print(demoSeeded(config.dataDir));
    }
  });
}

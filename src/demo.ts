// The demo: what `ops serve --demo` seeds into an empty store, so a newcomer
// has a project, four operators with four roles, and tokens to try them with.
// It runs the same tools an operator would, through the executor.
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOperator, type Operator } from './access/operators.js';
import { mintToken } from './access/tokens.js';
import { createProject } from './domain/projects.js';
import type { Services } from './services.js';
import { makePrivateFolder } from './store/private-files.js';
import type { Role } from './store/schema.js';

const DEMO_PROJECT = 'shop';
const DEMO_OPERATORS: { name: string; role: Role; owner: boolean }[] = [
  { name: 'ada', role: 'admin', owner: true },
  { name: 'olive', role: 'operator', owner: false },
  { name: 'dev', role: 'developer', owner: false },
  { name: 'vic', role: 'viewer', owner: false },
];

export function demoTokensFile(dataDir: string): string {
  return path.join(dataDir, 'demo-tokens.json');
}

/**
 * A console sign-in link per demo operator. The token rides in the fragment,
 * which the browser never sends: the console reads it and clears it at once.
 */
export async function signInLinks(dataDir: string, serverUrl: string): Promise<string[]> {
  let tokens: Record<string, string>;
  try {
    tokens = JSON.parse(await readFile(demoTokensFile(dataDir), 'utf8')) as Record<string, string>;
  } catch {
    return [];
  }
  const url = serverUrl.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, '//localhost');
  return DEMO_OPERATORS.filter((spec) => tokens[spec.name]).map(
    (spec) => `sign in as ${spec.name} (${spec.role}): ${url}/#token=${tokens[spec.name]}`,
  );
}

/** The one line that says what the demo seeded (each step it took stays out of the log). */
export function demoSeeded(dataDir: string): string {
  return `seeded the demo: project ${DEMO_PROJECT}, ${DEMO_OPERATORS.length} operators; their tokens are in ${demoTokensFile(dataDir)}`;
}

/** What `--demo` says on a store that is not empty: it seeds nothing, and where the tokens are. */
export async function demoAlreadySeeded(dataDir: string): Promise<string> {
  const file = demoTokensFile(dataDir);
  const found = await access(file).then(
    () => true,
    () => false,
  );
  return found
    ? `the store is not empty, so --demo seeded nothing; the demo tokens are in ${file}`
    : `the store is not empty, so --demo seeded nothing; its demo tokens are in the demo-tokens.json of the data folder that first seeded it`;
}

/**
 * Seeds the demo and returns each demo operator's token by name, with
 * `alsoWrite` (the owner admin's token) written beside them to demo-tokens.json.
 */
export async function seedDemo(
  services: Services,
  dataDir: string,
  alsoWrite: Record<string, string>,
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = { ...alsoWrite };
  let ada: Operator | null = null;
  await services.db.transaction(async (tx) => {
    for (const spec of DEMO_OPERATORS) {
      const operator = await createOperator(tx, { name: spec.name, owner: spec.owner });
      if (spec.owner) ada = operator;
      tokens[spec.name] = (await mintToken(tx, { operatorId: operator.id, name: 'demo', kind: 'operator' })).token;
    }
  });
  if (!ada) throw new Error('the demo owner was not created');
  const owner: Operator = ada;
  await services.changes.transaction(services.db, (tx, touch) => createProject(tx, touch, owner, { slug: DEMO_PROJECT, name: 'Shop' }));
  const as = { operator: owner, via: 'rest' as const, quiet: true as const };
  for (const spec of DEMO_OPERATORS) {
    await mustRun(services, as, 'set_member_role', { project: DEMO_PROJECT, operator: spec.name, role: spec.role });
  }
  await seedConfiguration(services, as);
  await makePrivateFolder(dataDir);
  await writeFile(demoTokensFile(dataDir), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  return tokens;
}

const DEMO_SCHEMA = `# What every document of shop must satisfy (JSON Schema 2020-12).
$schema: https://json-schema.org/draft/2020-12/schema
type: object
required: [service, port]
properties:
  service: { type: string, minLength: 1 }
  port: { type: integer, minimum: 1, maximum: 65535 }
  database:
    type: object
    required: [url]
    properties:
      url: { type: string }
  features:
    type: object
    additionalProperties: { type: boolean }
`;

const DEMO_APP = `# The shop service.
service: shop
port: 8080
database:
  url: \${secret:DATABASE_URL}
features:
  new_checkout: false
`;

/**
 * The schema; app.yaml referring to DATABASE_URL, the secret in each
 * environment, and app.yaml r1 live in both — then r2, the new checkout
 * switched on, live in staging only, so the demo has a rollback and a drift
 * to show.
 */
async function seedConfiguration(services: Services, as: { operator: Operator; via: 'rest'; quiet: true }): Promise<void> {
  const project = DEMO_PROJECT;
  const app = { project, path: 'app.yaml' };
  await mustRun(services, as, 'write_document', { project, path: 'aion.schema.yaml', text: DEMO_SCHEMA, message: 'demo schema' });
  await mustRun(services, as, 'write_document', { ...app, text: DEMO_APP, message: 'demo configuration' });
  for (const environment of ['staging', 'production']) {
    const value = `postgres://shop:demo-${environment}@db.${environment}.internal:5432/shop`;
    await mustRun(services, as, 'set_secret', { project, environment, name: 'DATABASE_URL', value });
    await mustRun(services, as, 'deploy', { ...app, environment });
  }
  const checkout = DEMO_APP.replace('new_checkout: false', 'new_checkout: true');
  await mustRun(services, as, 'write_document', { ...app, text: checkout, base_revision: 1, message: 'try the new checkout' });
  await mustRun(services, as, 'deploy', { ...app, environment: 'staging' });
}

async function mustRun(
  services: Services,
  as: { operator: Operator; via: 'rest'; quiet: true },
  tool: string,
  input: Record<string, unknown>,
): Promise<void> {
  const outcome = await services.executor.run(as, tool, input);
  if (outcome.is_error) throw new Error(`demo: ${tool} failed: ${String(outcome.result.error)}`);
}

// The demo: what `ops serve --demo` seeds into an empty store, so a newcomer
// has a project, four operators with four roles, and tokens to try them with.
// It runs the same tools an operator would, through the executor.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOperator, type Operator } from './access/operators.js';
import { mintToken } from './access/tokens.js';
import { createProject } from './domain/projects.js';
import type { Services } from './services.js';
import type { Role } from './store/schema.js';

export const DEMO_PROJECT = 'shop';
const DEMO_OPERATORS: { name: string; role: Role; owner: boolean }[] = [
  { name: 'ada', role: 'admin', owner: true },
  { name: 'olive', role: 'operator', owner: false },
  { name: 'dev', role: 'developer', owner: false },
  { name: 'vic', role: 'viewer', owner: false },
];

export function demoTokensFile(dataDir: string): string {
  return path.join(dataDir, 'demo-tokens.json');
}

/** Seeds the demo and returns each demo operator's token by name. */
export async function seedDemo(services: Services, dataDir: string): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  let ada: Operator | null = null;
  await services.db.transaction(async (tx) => {
    for (const spec of DEMO_OPERATORS) {
      const operator = await createOperator(tx, { name: spec.name, owner: spec.owner });
      if (spec.owner) ada = operator;
      tokens[spec.name] = (await mintToken(tx, { operatorId: operator.id, name: 'demo', kind: 'operator' })).token;
    }
  });
  if (!ada) throw new Error('the demo owner was not created');
  await createProject(services.db, ada, { slug: DEMO_PROJECT, name: 'Shop' });
  const as = { operator: ada, via: 'rest' as const };
  for (const spec of DEMO_OPERATORS) {
    await mustRun(services, as, 'set_member_role', { project: DEMO_PROJECT, operator: spec.name, role: spec.role });
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(demoTokensFile(dataDir), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  return tokens;
}

async function mustRun(
  services: Services,
  as: { operator: Operator; via: 'rest' },
  tool: string,
  input: Record<string, unknown>,
): Promise<void> {
  const outcome = await services.executor.run(as, tool, input);
  if (outcome.is_error) throw new Error(`demo: ${tool} failed: ${String(outcome.result.error)}`);
}

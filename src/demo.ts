// The demo: what `ops serve --demo` seeds into an empty store, so a newcomer
// has a project, four operators with four roles, and tokens to try them with.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setMemberRole } from './access/memberships.js';
import { createOperator, type Operator } from './access/operators.js';
import { mintToken } from './access/tokens.js';
import { createProject, openProject } from './domain/projects.js';
import type { Db } from './store/db.js';
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
export async function seedDemo(db: Db, dataDir: string): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  const created = new Map<string, Operator>();
  for (const spec of DEMO_OPERATORS) {
    const operator = await createOperator(db, { name: spec.name, owner: spec.owner });
    created.set(spec.name, operator);
    tokens[spec.name] = (await mintToken(db, { operatorId: operator.id, name: 'demo', kind: 'operator' })).token;
  }
  const ada = created.get('ada');
  if (!ada) throw new Error('the demo owner was not created');
  await createProject(db, ada, { slug: DEMO_PROJECT, name: 'Shop' });
  const project = await openProject(db, ada, DEMO_PROJECT);
  for (const spec of DEMO_OPERATORS) await setMemberRole(db, project, spec.name, spec.role);
  await mkdir(dataDir, { recursive: true });
  await writeFile(demoTokensFile(dataDir), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  return tokens;
}

// Operators: the people (and scripts) who hold tokens.
import { eq } from 'drizzle-orm';
import { conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { operators } from '../store/schema.js';
import { isUniqueViolation } from '../store/errors.js';

export interface Operator {
  id: string;
  name: string;
  owner: boolean;
}

export const OPERATOR_NAME_PATTERN = '^[a-z][a-z0-9_-]{0,62}$';

export async function createOperator(db: Db, input: { name: string; owner: boolean }): Promise<Operator> {
  try {
    const [row] = await db
      .insert(operators)
      .values(input)
      .returning({ id: operators.id, name: operators.name, owner: operators.owner });
    if (!row) throw new Error('operator insert returned no row');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`an operator named ${input.name} already exists; pick another name`);
    throw error;
  }
}

export async function findOperator(db: Db, name: string): Promise<Operator> {
  const [row] = await db
    .select({ id: operators.id, name: operators.name, owner: operators.owner })
    .from(operators)
    .where(eq(operators.name, name))
    .limit(1);
  if (!row) throw notFound(`no such operator: ${name}`);
  return row;
}

export async function countOperators(db: Db): Promise<number> {
  return db.$count(operators);
}

// Operators: the people (and scripts) who hold tokens. An owner may disable
// one: every token of theirs is refused from then on, and what they did stays.
import { and, asc, eq, isNull, max } from 'drizzle-orm';
import { conflict, notFound } from '../errors.js';
import type { Topic } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { operators, tokens } from '../store/schema.js';
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

/** The operator with this id while they are enabled; null once disabled (or gone). */
export async function enabledOperator(db: Db, id: string): Promise<Operator | null> {
  const [row] = await db
    .select({ id: operators.id, name: operators.name, owner: operators.owner })
    .from(operators)
    .where(and(eq(operators.id, id), isNull(operators.disabledAt)));
  return row ?? null;
}

export async function countOperators(db: Db): Promise<number> {
  return db.$count(operators);
}

export interface OperatorListing {
  name: string;
  owner: boolean;
  created_at: string;
  /** The newest use of any of their tokens. */
  last_used_at: string | null;
  disabled_at: string | null;
}

/** Every operator (or the one named), by name, disabled ones included. */
export async function listOperators(db: Db, name?: string): Promise<OperatorListing[]> {
  const rows = await db
    .select({
      name: operators.name,
      owner: operators.owner,
      createdAt: operators.createdAt,
      disabledAt: operators.disabledAt,
      lastUsedAt: max(tokens.lastUsedAt),
    })
    .from(operators)
    .leftJoin(tokens, eq(tokens.operatorId, operators.id))
    .where(name === undefined ? undefined : eq(operators.name, name))
    .groupBy(operators.id)
    .orderBy(asc(operators.name));
  return rows.map((r) => ({
    name: r.name,
    owner: r.owner,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    disabled_at: r.disabledAt?.toISOString() ?? null,
  }));
}

/**
 * Disables an operator (or enables one again) in the transaction `tx`; every
 * server refuses a disabled operator's tokens from the commit on. Asking for
 * the state they are in changes nothing. The last enabled owner is never
 * disabled, so someone can always sign in as an owner.
 */
export async function setOperatorDisabled(
  tx: Db,
  touch: (topic: Topic) => void,
  name: string,
  disabled: boolean,
): Promise<OperatorListing> {
  // Every enabled owner is locked first, in one order, so two owners disabling each other take turns.
  const owners = await tx
    .select({ id: operators.id })
    .from(operators)
    .where(and(eq(operators.owner, true), isNull(operators.disabledAt)))
    .orderBy(asc(operators.id))
    .for('update');
  const [target] = await tx
    .select({ id: operators.id, owner: operators.owner, disabledAt: operators.disabledAt })
    .from(operators)
    .where(eq(operators.name, name))
    .for('update');
  if (!target) throw notFound(`no such operator: ${name}; GET /api/v1/operators lists them`);
  if (disabled && !target.disabledAt) {
    if (target.owner && owners.every((o) => o.id === target.id)) {
      throw conflict(`${name} is the last enabled owner; make another owner first`);
    }
    await tx.update(operators).set({ disabledAt: new Date() }).where(eq(operators.id, target.id));
    touch(`operator:${target.id}`);
  }
  // Nothing caches a refused token, so enabling needs no notice.
  if (!disabled && target.disabledAt) await tx.update(operators).set({ disabledAt: null }).where(eq(operators.id, target.id));
  const [listed] = await listOperators(tx, name);
  if (!listed) throw new Error('an operator vanished mid-transaction');
  return listed;
}

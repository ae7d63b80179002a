// Pieces of views built in SQL as JSON (a thread with its messages and
// proposals in one statement): what JavaScript would write, written there.
import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A timestamp as Date.prototype.toISOString writes it (milliseconds, UTC, `Z`). */
export function isoTime(column: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A column named with its table, for a subquery that refers to the row of
 * the query around it: drizzle leaves the table out in a one-table select,
 * and a bare name would mean the subquery's own column of that name.
 */
export function outer(column: AnyPgColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

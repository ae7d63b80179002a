// Times written for other servers to compare are the store's, never a
// server's own clock: servers' clocks drift apart, the store's is one.
import { sql, type SQL } from 'drizzle-orm';

/** The store's now, moved by `ms` (negative: ago). */
export function storeNow(ms = 0): SQL {
  return sql`now() + ${`${ms} milliseconds`}::interval`;
}

// The client drizzle queries the embedded store through. PGlite's own query()
// sends each statement to PostgreSQL unnamed, in six calls into the wasm
// (parse, describe, bind, describe, execute, sync), so every statement is
// parsed and planned afresh: for the thread view, planning took four times
// what running it did. Here each statement text is prepared once, by name,
// and later runs are one call: bind, describe, execute, sync. Values are
// serialized as PGlite would (by the parameter types PostgreSQL described when
// the statement was prepared) and results parsed by PGlite's own parser.
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';

const asText = (value: string) => value;

/**
 * What drizzle's PGlite driver asks of every query: times, intervals and dates
 * as PostgreSQL writes them. Installed once, when PGlite is created: PGlite
 * copies its whole parser table (some 300 entries) for a query that brings
 * parsers of its own, and this client's queries bring none.
 */
export const DRIZZLE_PARSERS: NonNullable<QueryOptions['parsers']> = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/** How many statements stay prepared; the least recently used is closed past it (each holds a plan in the store's memory). */
const PREPARED_MAX = 256;

interface Prepared {
  name: string;
  paramTypes: number[];
}

type Query = PGlite['query'];

/** The statements prepared on one PGlite, by text, least recently used first. */
class PreparedStatements {
  private readonly byText = new Map<string, Prepared>();
  private next = 0;
  /** Statements evicted but not yet closed: closed with the next message. */
  private closing: string[] = [];

  constructor(private readonly client: PGlite) {}

  /** Runs `text` with `params`; the caller holds PGlite's query lock. */
  async run(text: string, params: readonly unknown[], options: QueryOptions | undefined): Promise<Results> {
    const prepared = this.byText.get(text) ?? (await this.prepare(text));
    // Most recently used last.
    this.byText.delete(text);
    this.byText.set(text, prepared);
    const { serialize } = protocol;
    const message = concat([
      ...this.takeClosing(),
      serialize.bind({ statement: prepared.name, values: this.values(params, prepared.paramTypes) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const messages = await this.client.execProtocolStream(message, { syncToFs: false });
    // Only the row mode is taken from the options: the parsers drizzle brings are installed already.
    const [result] = parse.parseResults(messages, this.client.parsers, { rowMode: options?.rowMode });
    if (!result) throw new Error('PGlite answered a statement with no result');
    return result;
  }

  private async prepare(text: string): Promise<Prepared> {
    const name = `aion_${this.next++}`;
    const { serialize } = protocol;
    const messages = await this.client.execProtocolStream(
      concat([...this.takeClosing(), serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.byText.set(text, prepared);
    if (this.byText.size > PREPARED_MAX) {
      const [oldest] = this.byText;
      if (oldest) {
        this.byText.delete(oldest[0]);
        this.closing.push(oldest[1].name);
      }
    }
    return prepared;
  }

  private takeClosing(): Uint8Array[] {
    const closes = this.closing.map((name) => protocol.serialize.close({ type: 'S', name }));
    this.closing = [];
    return closes;
  }

  /** Each value as PGlite's query() would send it, by the type PostgreSQL expects there. */
  private values(params: readonly unknown[], paramTypes: readonly number[]): (string | null)[] {
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.client.serializers[paramTypes[i] ?? -1];
      return serializer ? (serializer(param) as string) : String(param);
    });
  }

  /** Forgets every statement: a failed message may have left the session without them. */
  forget(): void {
    this.byText.clear();
    this.closing = [];
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** `client` as drizzle should see it: each statement prepared once (see the top of this file). */
export function drizzleClient(client: PGlite): PGlite {
  const statements = new PreparedStatements(client);
  const run = async (text: string, params: unknown[] = [], options?: QueryOptions) => {
    try {
      return await statements.run(text, params, options);
    } catch (error) {
      // As PGlite's query() says it: the statement and its values beside PostgreSQL's error.
      if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query: text, params });
      else statements.forget();
      throw error;
    }
  };
  // Outside a transaction a statement waits for the one running, as PGlite's query() does.
  const query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const result = await run(text, params, options);
        await client.syncToFs();
        return result;
      }),
    );
  }) as Query;
  const inTransaction = (async (text: string, params?: unknown[], options?: QueryOptions) =>
    client._runExclusiveQuery(() => run(text, params, options))) as Query;
  const transaction: PGlite['transaction'] = (work) =>
    client.transaction((tx) => {
      const txQuery = checked(tx, inTransaction);
      return work(new Proxy(tx, { get: (target, property) => (property === 'query' ? txQuery : Reflect.get(target, property, target)) }));
    });
  return new Proxy(client, {
    get: (target, property) => {
      if (property === 'query') return query;
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `query` refused once `tx` is closed, as PGlite's transaction object does. */
function checked(tx: Transaction, query: Query): Query {
  return ((...args: Parameters<Query>) => {
    if (tx.closed) throw new Error('Transaction is closed');
    return query(...args);
  }) as Query;
}

import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, DatabaseHandle } from '../db/client';

/**
 * A statement of a hot path prepared once per database handle (Drizzle's `.prepare(name)`
 * with `sql.placeholder` values): the SQL text is built once instead of on every request,
 * and on PostgreSQL each pooled connection parses it once (a named prepared statement).
 * Names must be unique in the application.
 */
export function preparedStatement<T>(build: (db: Database) => T): (db: Database) => T {
  const statements = new WeakMap<Database, T>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}

const dialect = new PgDialect();
/** Statement names by text: a handful per call site (values always travel as parameters). */
const statementNames = new Map<string, string>();

/**
 * The rows of a hot read as the driver gives them, without Drizzle's row mapping: select the
 * columns in the types the caller wants (text, epoch milliseconds as float8, jsonb parsed by
 * the driver). On PostgreSQL the statement is prepared once per pooled connection under a name
 * chosen by its text (node-postgres keeps it; PgBouncer needs 1.21+ with
 * `max_prepared_statements`); PGlite runs it through Drizzle.
 */
export async function statementRows<Row>(
  database: DatabaseHandle,
  statement: SQL,
  prefix: string,
): Promise<Row[]> {
  if (!database.pool) {
    return ((await database.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  }
  const { sql: text, params } = dialect.sqlToQuery(statement);
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `${prefix}_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return (await database.pool.query<Row & object>({ name, text, values: params })).rows;
}

/**
 * A jsonb value as Drizzle's jsonb column reads it, from what the driver parsed: a value stored
 * as a JSON string that holds JSON is parsed once more. Rows of `statementRows` skip Drizzle,
 * so their jsonb columns go through this to read as before.
 */
export function drizzleJsonb(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

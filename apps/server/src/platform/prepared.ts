import type { Database } from '../db/client';

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

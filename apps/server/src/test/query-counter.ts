import type { DatabaseHandle } from '../db/client';

/**
 * Counts the SQL statements the server sends while `run` executes (node-postgres pool or
 * PGlite), by wrapping the driver's `query` on the handle's instance.
 */
export async function countQueries(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<number> {
  const target = (database.pool ?? database.pglite) as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = target.query;
  let count = 0;
  target.query = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    target.query = original;
  }
  return count;
}

import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database handle: the same API on node-postgres and on PGlite. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  driver: 'pg' | 'pglite';
  close(): Promise<void>;
  /** The raw pool, for LISTEN/NOTIFY and advisory locks (pg only). */
  pool?: pg.Pool;
  pglite?: PGlite;
};

export type DatabaseOptions =
  | { driver: 'pg'; url: string; poolSize?: number }
  | { driver: 'pglite'; dataDir?: string };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.driver === 'pg') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return { db, driver: 'pg', pool, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm serves the lists' substring searches (migration 0002), unaccent history's
  // accent-insensitive search (migration 0013).
  const client = new PGlite({ dataDir: options.dataDir, extensions: { pg_trgm, unaccent } });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return { db, driver: 'pglite', pglite: client, close: () => client.close() };
}

/** The database the configuration names: DATABASE_URL's server, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: {
  DATABASE_URL?: string;
  DATA_DIR: string;
  DB_POOL_SIZE: number;
}): Promise<DatabaseHandle> {
  return openDatabase(
    config.DATABASE_URL
      ? { driver: 'pg', url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE }
      : { driver: 'pglite', dataDir: `${config.DATA_DIR}/pglite` },
  );
}

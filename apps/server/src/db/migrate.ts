import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DatabaseHandle } from './client';

/** Beside this file in the sources, beside main.js in the build (build.mjs copies it). */
export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Arbitrary constant: one instance migrates at a time when several start together. Readiness
 * (platform/health.ts) reads it in pg_locks: no instance is ready while one migrates.
 */
export const migrationLockKey = 7_316_214;

/** Migrations running in this process (readiness answers 503 meanwhile, on PGlite too). */
let runningMigrations = 0;

export function isMigrating(): boolean {
  return runningMigrations > 0;
}

export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  runningMigrations += 1;
  try {
    await migrateDatabase(handle);
  } finally {
    runningMigrations -= 1;
  }
}

async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.driver === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    // The migration runs on the connection that holds the lock.
    await migratePg(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
    client.release();
  }
}

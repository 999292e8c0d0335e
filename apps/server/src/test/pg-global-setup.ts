import pg from 'pg';
import { openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { adminDatabaseUrl, templateDatabaseName, withDatabase } from './pg-urls';

/** Migrates one template database; each test file then clones it (fast, isolated). */
export async function setup(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    const stale = await admin.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'mise_test_%' AND datname <> $1",
      [templateDatabaseName],
    );
    for (const row of stale.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`).catch(() => {});
    }
    await admin.query(`DROP DATABASE IF EXISTS "${templateDatabaseName}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${templateDatabaseName}"`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({
    driver: 'pg',
    url: withDatabase(templateDatabaseName),
    poolSize: 1,
  });
  await runMigrations(handle);
  await handle.close();
}

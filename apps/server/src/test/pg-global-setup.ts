import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { adminDatabaseUrl, withDatabase } from './pg-urls';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgRunPrefix: string;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Migrates one template database per run; each test file then clones it (fast, isolated).
 * Names carry the run's pid, so runs side by side never touch each other's databases;
 * databases left by runs that died are dropped here.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prefix = `mise_test_${process.pid}_`;
  const template = `${prefix}template`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    const existing = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'mise\\_test\\_%'",
    );
    for (const { datname } of existing.rows) {
      const pid = Number(/^mise_test_(\d+)_/.exec(datname)?.[1]);
      if (!pid || !isAlive(pid) || pid === process.pid) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
      }
    }
    await admin.query(`CREATE DATABASE "${template}"`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ driver: 'pg', url: withDatabase(template), poolSize: 1 });
  await runMigrations(handle);
  await handle.close();
  project.provide('pgTemplate', template);
  project.provide('pgRunPrefix', prefix);

  return async () => {
    const client = new pg.Client({ connectionString: adminDatabaseUrl() });
    await client.connect();
    const mine = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of mine.rows) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
    }
    await client.end();
  };
}

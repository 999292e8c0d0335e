import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { migrationsFolder } from '../db/migrate';

/** Something a query can run on: a client (inside a snapshot's transaction) or a pool. */
type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * The rows of every table of the database, keyed `schema.table`: the application's tables
 * (public), the migrations' record (drizzle) and the job queue (pgboss). Partitions count as the
 * tables they are (their partitioned parent, which holds no row itself, is left out).
 */
export async function countTableRows(client: Queryable): Promise<Record<string, number>> {
  const { rows: tables } = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r'
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of tables) {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`,
    );
    counts[`${schema}.${name}`] = Number(rows[0]!.count);
  }
  return counts;
}

/** The tables of the database outside PostgreSQL's own schemas (empty for a new database). */
export async function listUserTables(client: Queryable): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

type JournalEntry = { idx: number; when: number; tag: string };

/** The migrations this version of the code carries (drizzle-kit's journal), in order. */
export async function readMigrationJournal(): Promise<JournalEntry[]> {
  const journal = JSON.parse(
    await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: JournalEntry[] };
  return journal.entries;
}

export type MigrationState = {
  /** Migrations recorded as applied in drizzle.__drizzle_migrations. */
  applied: number;
  /** The last applied migration's tag (e.g. `0026_server_instances`), null when unknown. */
  last: string | null;
};

/** Which migrations the database has had (drizzle records each one's journal time). */
export async function readMigrationState(client: Queryable): Promise<MigrationState> {
  const { rows: present } = await client.query<{ table: string | null }>(
    "SELECT to_regclass('drizzle.__drizzle_migrations')::text AS table",
  );
  if (!present[0]?.table) return { applied: 0, last: null };
  const { rows } = await client.query<{ applied: string; last: string | null }>(
    'SELECT count(*) AS applied, max(created_at)::text AS last FROM drizzle.__drizzle_migrations',
  );
  const applied = Number(rows[0]!.applied);
  const lastWhen = rows[0]!.last === null ? null : Number(rows[0]!.last);
  const journal = await readMigrationJournal();
  const last = journal.find((entry) => entry.when === lastWhen)?.tag ?? null;
  return { applied, last };
}

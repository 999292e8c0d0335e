/**
 * Task-generation benchmark (not a test). On a scratch PostgreSQL database:
 *
 * 1. a large organisation (BENCH_TASK_STORES stores, default 1 000, × BENCH_TASK_CONFIGURATIONS
 *    daily configurations, default 30, two windows each: 60 000 tasks a day by default);
 * 2. one day of every store through generateDueStores (the scheduler's pass: due-store
 *    query, configuration loading, claims, tasks, events), then another day store by store
 *    through generateStoreDay (BENCH_TASK_SINGLE stores, default 200);
 * 3. the same task rows through a bare multi-row INSERT (1 000 rows a statement, one
 *    transaction) on the same server, with and without one event row per task;
 * 4. optionally (BENCH_TASK_DAYS > 0) data volume: that many further days for every store,
 *    table sizes, and the time to read one store's day from the grown table.
 *
 *   node --import tsx bench/tasks-generation.ts
 *   BENCH_TASK_STORES=200 BENCH_TASK_DAYS=365 node --import tsx bench/tasks-generation.ts
 *
 * The generation code is the server's own, bundled with esbuild first (as the server build
 * does) so it runs under plain Node.
 */

import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addDays } from '@mise/shared/tasks/rules';
import { build } from 'esbuild';
import pg from 'pg';
import { addTaskScaleData } from './tasks-data';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const storeCount = Number(process.env.BENCH_TASK_STORES ?? 1000);
const configurationCount = Number(process.env.BENCH_TASK_CONFIGURATIONS ?? 30);
const singleStores = Math.min(storeCount, Number(process.env.BENCH_TASK_SINGLE ?? 200));
const volumeDays = Number(process.env.BENCH_TASK_DAYS ?? 0);
const benchDatabase = 'mise_bench_tasks';

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function recreateDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${benchDatabase}`);
  await client.end();
}

async function bundleGeneration() {
  const outdir = join(root, 'bench/results/.build');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { 'tasks-generation-lib': join(root, 'bench/tasks-generation-lib.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(builder) {
          // npm packages stay external, except rrule (its CommonJS entry has no named exports
          // for Node's ESM loader; bundled, esbuild's interop handles it).
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@mise/') || args.path === 'rrule'
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  // The migrator reads migrations/ beside the running file, as in the server build.
  cpSync(join(root, 'apps/server/src/db/migrations'), join(outdir, 'migrations'), {
    recursive: true,
  });
  return import(pathToFileURL(join(outdir, 'tasks-generation-lib.js')).href);
}

const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000));
const seconds = (ms: number) => Math.round(ms) / 1000;

const taskColumns = [
  'store_id',
  'database_id',
  'configuration_id',
  'store_configuration_id',
  'generation_key',
  'day',
  'name',
  'module',
  'type_name',
  'type_color',
  'start',
  'duration',
  'requires_manager',
  'notify_late',
  'elements',
  'actions',
];

/** The baseline: the same rows, plain multi-row INSERTs with parameters, one transaction. */
async function bareInsert(client: pg.Client, day: string, withEvents: boolean) {
  await client.query('DROP TABLE IF EXISTS tasks_bare, events_bare');
  await client.query('CREATE TABLE tasks_bare (LIKE tasks INCLUDING ALL)');
  await client.query('CREATE TABLE events_bare (LIKE task_generation_events INCLUDING ALL)');
  const { rows } = await client.query(
    `SELECT ${taskColumns.join(', ')} FROM tasks WHERE day = $1`,
    [day],
  );
  const values = rows.map((row) =>
    taskColumns.map((column) =>
      column === 'elements' || column === 'actions' ? JSON.stringify(row[column]) : row[column],
    ),
  );
  const started = performance.now();
  await client.query('BEGIN');
  const chunk = 1000;
  for (let offset = 0; offset < values.length; offset += chunk) {
    const slice = values.slice(offset, offset + chunk);
    const placeholders = slice
      .map(
        (_, index) =>
          `(${taskColumns.map((__, column) => `$${index * taskColumns.length + column + 1}`).join(', ')})`,
      )
      .join(', ');
    await client.query(
      `INSERT INTO tasks_bare (${taskColumns.join(', ')}) VALUES ${placeholders}
       ON CONFLICT (store_id, generation_key) DO NOTHING`,
      slice.flat(),
    );
    if (withEvents) {
      const events = slice.map((row) => [row[0], 4, row[6]]);
      await client.query(
        `INSERT INTO events_bare (store_id, type, message) VALUES ${events
          .map((_, index) => `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`)
          .join(', ')}`,
        events.flat(),
      );
    }
  }
  await client.query('COMMIT');
  return { rows: values.length, ms: performance.now() - started };
}

console.log(
  `Task generation benchmark: ${storeCount} stores × ${configurationCount} configurations × 2 windows, node ${process.version}`,
);
const lib = await bundleGeneration();
await recreateDatabase();
const url = databaseUrl(benchDatabase);
const handle = await lib.openDatabase({ driver: 'pg', url, poolSize: 5 });
await lib.runMigrations(handle);
let started = performance.now();
await addTaskScaleData(url, {
  stores: storeCount,
  configurations: configurationCount,
  anchor: '2026-01-01',
});
console.log(`organisation created in ${seconds(performance.now() - started)} s`);

const client = new pg.Client({ connectionString: url });
await client.connect();
const rows: Record<string, string | number>[] = [];
try {
  // 1. A scheduler pass: every store due (20:00Z: evening in Paris and London, afternoon in
  // New York), all on 2026-12-01.
  const day = '2026-12-01';
  const now = new Date(`${day}T20:00:00Z`);
  started = performance.now();
  const pass = await lib.generateDueStores(handle.db, now);
  const passMs = performance.now() - started;
  const events = await client.query<{ count: string }>(
    'SELECT count(*) FROM task_generation_events',
  );
  rows.push({
    scenario: `generateDueStores, one day of ${pass.due} stores`,
    tasks: pass.created,
    seconds: seconds(passMs),
    'tasks/s': perSecond(pass.created, passMs),
    'rows written': pass.created + Number(events.rows[0]!.count) + pass.due,
  });
  const again = performance.now();
  const second = await lib.generateDueStores(handle.db, now);
  rows.push({
    scenario: 'generateDueStores again (nothing due)',
    tasks: second.created,
    seconds: seconds(performance.now() - again),
    'tasks/s': 0,
    'rows written': 0,
  });

  // 2. Store by store, the next day.
  const stores = (
    await client.query(
      `SELECT id, active, timezone_name, task_generation_hour, week_start, created_at FROM stores
       WHERE name LIKE 'Bench store %' ORDER BY id LIMIT $1`,
      [singleStores],
    )
  ).rows;
  const nextDay = addDays(day, 1);
  started = performance.now();
  let created = 0;
  for (const store of stores) {
    created += (await lib.generateStoreDay(handle.db, store, nextDay, { now })).created;
  }
  const singleMs = performance.now() - started;
  rows.push({
    scenario: `generateStoreDay × ${stores.length} stores, one call each`,
    tasks: created,
    seconds: seconds(singleMs),
    'tasks/s': perSecond(created, singleMs),
    'rows written': created * 2 + stores.length * 2,
  });

  // 3. The same rows as (1) through bare INSERTs.
  const bare = await bareInsert(client, day, false);
  rows.push({
    scenario: 'bare multi-row INSERT of the same tasks',
    tasks: bare.rows,
    seconds: seconds(bare.ms),
    'tasks/s': perSecond(bare.rows, bare.ms),
    'rows written': bare.rows,
  });
  const bareWithEvents = await bareInsert(client, day, true);
  rows.push({
    scenario: 'bare multi-row INSERT, tasks + one event row each',
    tasks: bareWithEvents.rows,
    seconds: seconds(bareWithEvents.ms),
    'tasks/s': perSecond(bareWithEvents.rows, bareWithEvents.ms),
    'rows written': bareWithEvents.rows * 2,
  });
  console.table(rows);
  const generationRate = perSecond(pass.created, passMs);
  console.log(
    `ratio bare INSERT / generateDueStores: ${(perSecond(bare.rows, bare.ms) / generationRate).toFixed(2)} (tasks only), ${(perSecond(bareWithEvents.rows, bareWithEvents.ms) / generationRate).toFixed(2)} (tasks + events)`,
  );

  // 4. Data volume.
  if (volumeDays > 0) {
    const all = (
      await client.query(
        `SELECT id, active, timezone_name, task_generation_hour, week_start, created_at FROM stores
         WHERE name LIKE 'Bench store %' ORDER BY id`,
      )
    ).rows;
    const firstDay = addDays(nextDay, 1);
    started = performance.now();
    let total = 0;
    for (let index = 0; index < volumeDays; index += 1) {
      const volumeDay = addDays(firstDay, index);
      for (let offset = 0; offset < all.length; offset += 100) {
        const results = await lib.generateItems(
          handle.db,
          all.slice(offset, offset + 100).map((store: unknown) => ({ store, day: volumeDay })),
          { now },
        );
        total += results.reduce(
          (sum: number, result: { created: number }) => sum + result.created,
          0,
        );
      }
      if ((index + 1) % 30 === 0) {
        console.log(
          `  ${index + 1} days, ${total} tasks, ${seconds(performance.now() - started)} s`,
        );
      }
    }
    const volumeMs = performance.now() - started;
    await client.query('VACUUM ANALYZE tasks, task_generation_events');
    const sizes = (
      await client.query(
        `SELECT (SELECT count(*) FROM tasks) AS tasks,
                (SELECT count(*) FROM task_generation_events) AS events,
                pg_size_pretty(pg_total_relation_size('tasks')) AS tasks_size,
                pg_total_relation_size('tasks') AS tasks_bytes,
                pg_size_pretty(pg_total_relation_size('task_generation_events')) AS events_size,
                pg_total_relation_size('task_generation_events') AS events_bytes`,
      )
    ).rows[0];
    const probe = all[Math.floor(all.length / 2)];
    const reads: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      const readDay = addDays(firstDay, (index * 7) % volumeDays);
      const readStarted = performance.now();
      await client.query('SELECT * FROM tasks WHERE store_id = $1 AND day = $2 ORDER BY start', [
        probe.id,
        readDay,
      ]);
      reads.push(performance.now() - readStarted);
    }
    reads.sort((left, right) => left - right);
    console.table([
      {
        days: volumeDays,
        stores: all.length,
        'tasks generated': total,
        seconds: seconds(volumeMs),
        'tasks/s': perSecond(total, volumeMs),
        'tasks in table': Number(sizes.tasks),
        'events in table': Number(sizes.events),
        'tasks size': sizes.tasks_size,
        'bytes/task': Math.round(Number(sizes.tasks_bytes) / Number(sizes.tasks)),
        'events size': sizes.events_size,
        'bytes/event': Math.round(Number(sizes.events_bytes) / Number(sizes.events)),
        'one store-day read p50 ms': Math.round(reads[25]! * 100) / 100,
        'p99 ms': Math.round(reads[49]! * 100) / 100,
      },
    ]);
  }
} finally {
  await client.end();
  await handle.close();
  if (process.env.BENCH_KEEP !== 'true') {
    // The volume run leaves gigabytes: the scratch database goes unless asked to stay.
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await admin.end();
  }
}

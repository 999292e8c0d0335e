/**
 * History and home benchmark (not a test). On a scratch PostgreSQL database
 * (`mise_bench_history` on DATABASE_URL, default the local server):
 *
 * 1. a chain of BENCH_HISTORY_STORES licensed stores (default 200, Europe/Paris) with
 *    BENCH_HISTORY_DAYS days of tasks each (default 365, ending today): 60 tasks a store-day
 *    (40 temperatures of 3 elements, 10 actions of 4 sub-tasks, 5 oils of 2 fryers,
 *    5 temperature controls), 3× that for the busiest store; about 90 % completed (some
 *    late, about 6 % with a result anomaly), 8 % never done, 2 % postponed with their copy.
 *    Set-based INSERT … SELECT generate_series, the secondary indexes built after the load;
 *    BENCH_HISTORY_REUSE=true keeps a database already generated with the same parameters
 *    (marker table `bench_history_marker`);
 * 2. the API in a child process (bench/api-server.ts: buildApp, no scheduler), signed in
 *    as an admin, loaded with autocannon: history of the last 31 days (temperatures,
 *    filter completed, then anomaly) and the home payload of the busiest store; the same SQL
 *    straight through `pg` at the same concurrency, the two taken in turn BENCH_ROUNDS times
 *    (default 3, BENCH_SECONDS each, default 8): medians and the API / SQL latency ratios;
 *    EXPLAIN (ANALYZE, BUFFERS) of the history query;
 * 3. three PDF exports of 31 days (every module, filter all) of the busiest store.
 *
 *   node --import tsx bench/history.ts
 *   BENCH_HISTORY_STORES=5 BENCH_HISTORY_DAYS=40 BENCH_SECONDS=3 node --import tsx bench/history.ts
 *
 * The database is dropped at the end unless BENCH_KEEP=true (about 5 GB at full scale).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HistoryFilter } from '@mise/shared/history/constants';
import { addDays } from '@mise/shared/tasks/rules';
import autocannon from 'autocannon';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { historyPageQuery } from '../apps/server/src/modules/history/history-page';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { openDatabase, runMigrations } from './tasks-generation-lib';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const storeCount = Number(process.env.BENCH_HISTORY_STORES ?? 200);
const dayCount = Number(process.env.BENCH_HISTORY_DAYS ?? 365);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/** API and SQL runs taken in turn per scenario; medians reported. */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const isReusing = process.env.BENCH_HISTORY_REUSE === 'true';
const isKeeping = process.env.BENCH_KEEP === 'true';
const port = Number(process.env.BENCH_HISTORY_PORT ?? 3311);
const benchDatabase = 'mise_bench_history';
const zone = 'Europe/Paris';
/** Bumped when the generated data changes shape: a reused database must match it. */
const dataVersion = 2;
const adminEmail = 'admin@bench-history.test';
const adminPassword = 'bench-history-1234';
/** Days per INSERT statement (rows are inserted day by day, store by store, as generated). */
const daysPerStatement = 5;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const url = databaseUrl(benchDatabase);
const base = `http://127.0.0.1:${port}`;
const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;
const secondsSince = (started: number) => round1((performance.now() - started) / 1000);

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/* ---------- 1. Data ---------- */

type Parameters = { version: number; stores: number; days: number; today: string };

async function parisToday(): Promise<string> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ today: string }>(
      `SELECT to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS today`,
      [zone],
    );
    return rows[0]!.today;
  });
}

/** The marker of a previous generation with the same parameters, if any. */
async function isAlreadyGenerated(parameters: Parameters): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ parameters: Parameters }>(
      'SELECT parameters FROM bench_history_marker',
    );
    const found = rows[0]?.parameters;
    // jsonb reorders keys: compare field by field.
    return (
      found !== undefined &&
      (Object.keys(parameters) as (keyof Parameters)[]).every(
        (key) => found[key] === parameters[key],
      )
    );
  } catch {
    return false; // no database or no marker
  } finally {
    await client.end().catch(() => {});
  }
}

/** One distributor, database, 24 elements, 8 employees, the stores and an admin. */
async function addOrganisation(client: pg.Client) {
  const distributor = await client.query<{ id: string }>(
    `INSERT INTO distributors (name, city) VALUES ('Bench Distribution', 'Paris') RETURNING id`,
  );
  const distributorId = distributor.rows[0]!.id;
  const database = await client.query<{ id: string }>(
    `INSERT INTO databases (name, distributor_id) VALUES ('Bench History Chain', $1) RETURNING id`,
    [distributorId],
  );
  const databaseId = database.rows[0]!.id;
  // Store 0001 is the busiest (3× the tasks).
  await client.query(
    `INSERT INTO stores (name, address, postal_code, city, distributor_id, database_id,
            timezone_name, active, mise_licence)
     SELECT 'Bench store ' || lpad(i::text, 4, '0') || CASE WHEN i = 1 THEN ' (busiest)' ELSE '' END,
            i || ' rue du Marché', '75001', 'Paris', $1, $2, $3, true, true
     FROM generate_series(1, $4) AS i`,
    [distributorId, databaseId, zone, storeCount],
  );
  // Elements: 11 fridges, 3 freezers, 2 delivery items (cold), 4 fryers, 4 cooling cells.
  await client.query(
    `INSERT INTO database_elements (database_id, name, minimum_temperature, maximum_temperature,
            temperature_delivery_item, maximum_polarity, reheating_temperature, cooling_temperature,
            temperatures_module_active, oils_module_active, temperature_control_module_active)
     SELECT $1, CASE WHEN i <= 11 THEN 'Chambre froide ' WHEN i <= 14 THEN 'Congélateur '
                     WHEN i <= 16 THEN 'Livraison frais ' WHEN i <= 20 THEN 'Friteuse '
                     ELSE 'Cellule ' END || lpad(i::text, 2, '0'),
            CASE WHEN i <= 11 OR i IN (15, 16) THEN 0 WHEN i <= 14 THEN -25 END,
            CASE WHEN i <= 11 OR i IN (15, 16) THEN 4 WHEN i <= 14 THEN -18 END,
            i IN (15, 16), 25, 63, 10, i <= 16, i BETWEEN 17 AND 20, i > 20
     FROM generate_series(1, 24) AS i`,
    [databaseId],
  );
  const employees = await client.query<{ id: string; name: string; surname: string }>(
    `INSERT INTO employees (database_id, name, surname)
     SELECT $1, (ARRAY['Camille','Hugo','Léa','Nadia','Karim','Julie','Tom','Inès'])[i],
            (ARRAY['Martin','Bernard','Dubois','Petit','Durand','Leroy','Moreau','Fournier'])[i]
     FROM generate_series(1, 8) AS i RETURNING id, name, surname`,
    [databaseId],
  );
  await client.query(
    `INSERT INTO employee_stores (employee_id, store_id)
     SELECT e.id, s.id FROM employees e CROSS JOIN stores s WHERE e.database_id = $1`,
    [databaseId],
  );
  await client.query(
    `INSERT INTO users (email, password_hash, role, name, surname) VALUES ($1, $2, 'admin', 'Bench', 'Admin')`,
    [adminEmail, await hashPassword(adminPassword)],
  );
  return { databaseId, employees: employees.rows };
}

/** The 180 task templates of a store-day (the first 60 for every store, all for the busiest). */
async function addSlots(client: pg.Client, databaseId: string) {
  await client.query(
    `CREATE TEMP TABLE bench_slots AS
     WITH element AS (
       SELECT row_number() OVER (PARTITION BY kind ORDER BY name) AS k, kind,
              jsonb_build_object('id', id, 'name', name,
                'minimum_temperature', minimum_temperature, 'maximum_temperature', maximum_temperature,
                'maximum_polarity', maximum_polarity, 'reheating_temperature', reheating_temperature,
                'cooling_temperature', cooling_temperature) AS snapshot
       FROM (SELECT *, CASE WHEN oils_module_active THEN 'oil'
                            WHEN temperature_control_module_active THEN 'control' ELSE 'cold' END AS kind
             FROM database_elements WHERE database_id = $1) e
     ),
     slot AS (
       SELECT s, CASE WHEN s <= 40 THEN 'temperatures' WHEN s <= 50 THEN 'actions'
                      WHEN s <= 55 THEN 'oils' ELSE 'temperature_control' END AS module
       FROM generate_series(1, 60) AS s
     )
     SELECT r.rep, (r.rep - 1) * 60 + slot.s AS slot, slot.module,
       CASE slot.module
         WHEN 'temperatures' THEN 'Relevé des températures ' || lpad(slot.s::text, 2, '0')
         WHEN 'actions' THEN 'Plan de nettoyage ' || (slot.s - 40)
         WHEN 'oils' THEN 'Contrôle des huiles ' || (slot.s - 50)
         WHEN 'temperature_control' THEN
           CASE WHEN slot.s <= 58 THEN 'Refroidissement ' ELSE 'Remise en température ' END || (slot.s - 55)
       END || CASE WHEN r.rep > 1 THEN ' (' || r.rep || ')' ELSE '' END AS name,
       CASE slot.module
         WHEN 'temperatures' THEN 360 + (slot.s - 1) * 24
         WHEN 'actions' THEN 480 + (slot.s - 41) * 60
         WHEN 'oils' THEN 600 + (slot.s - 51) * 90
         ELSE 660 + (slot.s - 56) * 100
       END + (r.rep - 1) * 7 AS minute,
       CASE slot.module WHEN 'actions' THEN 90 WHEN 'temperature_control' THEN 120 ELSE 60 END AS duration,
       CASE slot.module WHEN 'actions' THEN 'Nettoyage' WHEN 'oils' THEN 'Friture' ELSE 'HACCP' END AS type_name,
       CASE slot.module WHEN 'actions' THEN '#454eff' WHEN 'oils' THEN '#f57c00' ELSE '#2e7d32' END AS type_color,
       CASE WHEN slot.s <= 58 THEN 'cooling' ELSE 'reheating' END AS tc_mode,
       coalesce(CASE slot.module
         WHEN 'temperatures' THEN (SELECT jsonb_agg(snapshot ORDER BY k) FROM element
           WHERE kind = 'cold' AND k IN (1 + (slot.s - 1) % 16, 1 + slot.s % 16, 1 + (slot.s + 1) % 16))
         WHEN 'oils' THEN (SELECT jsonb_agg(snapshot ORDER BY k) FROM element
           WHERE kind = 'oil' AND k IN (1 + ((slot.s - 51) * 2) % 4, 2 + ((slot.s - 51) * 2) % 4))
         WHEN 'temperature_control' THEN (SELECT jsonb_agg(snapshot) FROM element
           WHERE kind = 'control' AND k = 1 + (slot.s - 56) % 4)
       END, '[]'::jsonb) AS elements,
       CASE WHEN slot.module = 'actions' THEN (
         SELECT jsonb_agg(jsonb_build_object('name', (ARRAY['Nettoyer et désinfecter le plan de travail',
           'Vider et laver les poubelles', 'Désinfecter les poignées de porte',
           'Nettoyer la trancheuse'])[a], 'requires_picture', a = 1) ORDER BY a)
         FROM generate_series(1, 4) AS a)
       ELSE '[]'::jsonb END AS actions
     FROM slot CROSS JOIN generate_series(1, 3) AS r(rep)`,
    [databaseId],
  );
  await client.query(
    `CREATE TEMP TABLE bench_store_order AS
     SELECT id, row_number() OVER (ORDER BY name) AS n, name LIKE '%(busiest)' AS busiest
     FROM stores WHERE database_id = $1`,
    [databaseId],
  );
  await client.query('ANALYZE bench_slots, bench_store_order');
}

/**
 * Tasks of [from, to] for every store, day by day and store by store (as generation writes
 * them). Per task: 80 % done on time, 10 % done late, 8 % never done, 2 % postponed 95 min
 * later (the copy, without generation key, done on time); nothing is completed after now.
 * About 6 % of results have an anomaly (one reading out of range, one action not done,
 * polarity above the maximum, a failed cooling or reheating), flagged in result_anomaly.
 */
const insertTasks = `
INSERT INTO tasks (id, store_id, database_id, generation_key, day, name, module, type_name,
  type_color, start, duration, elements, actions, completed_timestamp, completed_employee,
  employee, result, result_anomaly, revision, postponed_task, original_task, created_at, updated_at)
SELECT t.id, t.store_id, $1, t.generation_key, t.day, t.name, t.module, t.type_name, t.type_color,
  t.start, t.duration, t.elements, t.actions, t.completed,
  CASE WHEN t.signed THEN ($4::uuid[])[t.employee] END,
  CASE WHEN t.signed THEN jsonb_build_object('name', ($5::text[])[t.employee],
                                             'surname', ($6::text[])[t.employee]) END,
  CASE WHEN t.completed IS NOT NULL THEN CASE t.module
    WHEN 'temperatures' THEN jsonb_build_object('entries', (
      SELECT jsonb_agg(jsonb_build_object('element', e.value->>'id',
          'temperature', x.temperature, 'first_temperature', x.temperature,
          'control_temperature', NULL,
          'comment', CASE WHEN x.is_out THEN 'Porte restée ouverte, température recontrôlée.' ELSE '' END,
          'pictures', '[]'::jsonb, 'timestamp', t.epoch) ORDER BY e.ordinality)
      FROM jsonb_array_elements(t.elements) WITH ORDINALITY AS e,
      LATERAL (SELECT t.anomalous AND e.ordinality = 1 AS is_out,
        round(CASE WHEN t.anomalous AND e.ordinality = 1
          THEN (e.value->>'maximum_temperature')::numeric + 1.5 + 3 * t.r_extra::numeric
          ELSE (e.value->>'minimum_temperature')::numeric
             + ((e.value->>'maximum_temperature')::numeric - (e.value->>'minimum_temperature')::numeric)
             * (0.2 + 0.6 * ((t.r_extra * (997 + 37 * e.ordinality))
                              - floor(t.r_extra * (997 + 37 * e.ordinality))))::numeric
        END, 1) AS temperature) AS x))
    WHEN 'actions' THEN jsonb_build_object('entries', (
      SELECT jsonb_agg(jsonb_build_object('index', a.ordinality - 1, 'action', a.value->>'name',
          'done', NOT (t.anomalous AND a.ordinality = 2),
          'requires_picture', (a.value->>'requires_picture')::boolean,
          'picture', CASE WHEN (a.value->>'requires_picture')::boolean THEN jsonb_build_object(
            'path', 'stores/' || t.store_id || '/pictures/' || t.id || '.jpg', 'timestamp', t.epoch) END)
        ORDER BY a.ordinality)
      FROM jsonb_array_elements(t.actions) WITH ORDINALITY AS a))
    WHEN 'oils' THEN jsonb_build_object('entries', (
      SELECT jsonb_agg(jsonb_build_object('element', e.value->>'id', 'cleaned', t.r_extra < 0.3,
          'oil_changed', t.r_extra < 0.08, 'oil_filtered', true, 'filter_changed', t.r_extra < 0.08,
          'polarity', CASE WHEN t.anomalous AND e.ordinality = 1 THEN 27.5
            ELSE round((8 + 14 * t.r_time * e.ordinality / 2)::numeric, 1) END,
          'temperature', round((165 + 15 * t.r_extra)::numeric, 1), 'pictures', '[]'::jsonb)
        ORDER BY e.ordinality)
      FROM jsonb_array_elements(t.elements) WITH ORDINALITY AS e))
    ELSE jsonb_build_object('entries', (
      SELECT jsonb_agg(jsonb_build_object('element', e.value->>'id', 'mode', t.tc_mode,
          'target_temperature', CASE WHEN t.tc_mode = 'cooling' THEN e.value->'cooling_temperature'
                                     ELSE e.value->'reheating_temperature' END,
          'start_temperature', CASE WHEN t.tc_mode = 'cooling' THEN 63 ELSE 4 END,
          'start_timestamp', t.epoch - 5400,
          'end_temperature', CASE WHEN t.tc_mode = 'cooling'
            THEN CASE WHEN t.anomalous THEN 14 ELSE 8 END
            ELSE CASE WHEN t.anomalous THEN 55 ELSE 71 END END,
          'end_timestamp', t.epoch,
          'comment', CASE WHEN t.anomalous THEN 'Objectif non atteint, produit jeté.' ELSE '' END))
      FROM jsonb_array_elements(t.elements) AS e))
  END END,
  CASE WHEN t.completed IS NOT NULL THEN t.anomalous END,
  CASE WHEN t.signed THEN 1 ELSE 0 END,
  t.postponed_task, t.original_task, t.created, coalesce(t.completed, t.created)
FROM (
  SELECT CASE WHEN v.is_copy THEN b.copy_id ELSE b.id END AS id,
    b.store_id, b.name, b.module, b.type_name, b.type_color, b.duration, b.elements, b.actions,
    b.tc_mode, b.r_time, b.r_extra, b.r_anomaly < 0.06 AS anomalous, b.employee,
    CASE WHEN NOT v.is_copy THEN 'bench:' || b.slot || ':' || b.day || ':' || b.minute END AS generation_key,
    CASE WHEN v.is_copy THEN (p.copy_start AT TIME ZONE '${zone}')::date ELSE b.day END AS day,
    CASE WHEN v.is_copy THEN p.copy_start ELSE b.start END AS start,
    d.completed, extract(epoch FROM d.completed)::bigint AS epoch,
    d.completed IS NOT NULL OR (p.postponed AND NOT v.is_copy) AS signed,
    CASE WHEN p.postponed AND NOT v.is_copy THEN b.copy_id END AS postponed_task,
    CASE WHEN v.is_copy THEN b.id END AS original_task,
    (b.day::timestamp AT TIME ZONE '${zone}') AS created, b.n, b.minute, v.is_copy
  FROM (
    SELECT day::date AS day, st.id AS store_id, st.n, sl.*,
      ((day::date + sl.minute * interval '1 minute') AT TIME ZONE '${zone}') AS start,
      gen_random_uuid() AS id, gen_random_uuid() AS copy_id, random() AS r_outcome,
      random() AS r_time, random() AS r_extra, random() AS r_anomaly,
      1 + floor(random() * 8)::int AS employee
    FROM generate_series($2::date, $3::date, interval '1 day') AS day
    CROSS JOIN bench_store_order AS st
    JOIN bench_slots AS sl ON sl.rep = 1 OR st.busiest
    OFFSET 0
  ) AS b,
  LATERAL (SELECT b.r_outcome >= 0.98 AND b.start < now() AS postponed,
                  b.start + interval '95 minutes' AS copy_start) AS p,
  LATERAL (VALUES (false), (true)) AS v(is_copy),
  LATERAL (SELECT CASE
      WHEN v.is_copy THEN p.copy_start + b.duration * (0.1 + 0.8 * b.r_time) * interval '1 minute'
      WHEN p.postponed THEN NULL
      WHEN b.r_outcome < 0.80 THEN b.start + b.duration * (0.1 + 0.8 * b.r_time) * interval '1 minute'
      WHEN b.r_outcome < 0.90 THEN b.start + (b.duration + 5 + 115 * b.r_time) * interval '1 minute'
    END AS planned) AS c,
  LATERAL (SELECT CASE WHEN c.planned <= now() THEN c.planned END AS completed) AS d
  WHERE NOT v.is_copy OR p.postponed
) AS t
ORDER BY t.day, t.n, t.minute, t.is_copy`;

async function generate(parameters: Parameters) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
  const handle = await openDatabase({ driver: 'pg', url, poolSize: 2 });
  await runMigrations(handle);
  await handle.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Session settings only: the server's configuration is shared.
    await client.query(`SET work_mem = '256MB'`);
    await client.query(`SET maintenance_work_mem = '1GB'`);
    // The planner's estimates of the generator are huge: JIT would compile for seconds.
    await client.query('SET jit = off');
    const { databaseId, employees } = await addOrganisation(client);
    await addSlots(client, databaseId);
    // Bulk load: the secondary indexes go, and come back identical after the load.
    const indexes = (
      await client.query<{ name: string; definition: string }>(
        `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
         WHERE tablename = 'tasks' AND indexname <> 'tasks_pkey'`,
      )
    ).rows;
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    // The home's summary triggers (migration 0011) would recount oils per store and
    // statement without indexes: off during the load, then one rebuild from the tasks.
    await client.query('ALTER TABLE tasks DISABLE TRIGGER USER');
    const started = performance.now();
    const first = addDays(parameters.today, -(dayCount - 1));
    for (let offset = 0; offset < dayCount; offset += daysPerStatement) {
      const from = addDays(first, offset);
      const to = addDays(first, Math.min(dayCount, offset + daysPerStatement) - 1);
      await client.query(insertTasks, [
        databaseId,
        from,
        to,
        employees.map((employee) => employee.id),
        employees.map((employee) => employee.name),
        employees.map((employee) => employee.surname),
      ]);
      if ((offset / daysPerStatement) % 12 === 11) {
        console.log(`  ${to}: ${offset + daysPerStatement} days, ${secondsSince(started)} s`);
      }
    }
    const insertSeconds = secondsSince(started);
    const indexStarted = performance.now();
    for (const index of indexes) await client.query(index.definition);
    const indexSeconds = secondsSince(indexStarted);
    const summariesStarted = performance.now();
    await client.query('ALTER TABLE tasks ENABLE TRIGGER USER');
    await client.query('SELECT mise_rebuild_home_summaries()');
    const summariesSeconds = secondsSince(summariesStarted);
    const vacuumStarted = performance.now();
    await client.query('VACUUM (ANALYZE) tasks');
    await client.query('ANALYZE');
    const vacuumSeconds = secondsSince(vacuumStarted);
    await client.query(
      `CREATE TABLE bench_history_marker (parameters jsonb NOT NULL, generated_at timestamptz NOT NULL DEFAULT now(), seconds real NOT NULL)`,
    );
    const total = secondsSince(started);
    await client.query('INSERT INTO bench_history_marker (parameters, seconds) VALUES ($1, $2)', [
      JSON.stringify(parameters),
      total,
    ]);
    console.log(
      `generation: insert ${insertSeconds} s, indexes ${indexSeconds} s, home summaries ${summariesSeconds} s, VACUUM ANALYZE ${vacuumSeconds} s (total ${total} s)`,
    );
  } finally {
    await client.end();
  }
}

async function describeData(client: pg.Pool) {
  const { rows } = await client.query(
    `SELECT count(*)::int AS tasks,
            count(*) FILTER (WHERE completed_timestamp IS NOT NULL)::int AS completed,
            count(*) FILTER (WHERE result_anomaly)::int AS anomalies,
            count(*) FILTER (WHERE postponed_task IS NOT NULL)::int AS postponed,
            pg_size_pretty(pg_relation_size('tasks')) AS heap,
            pg_size_pretty(pg_total_relation_size('tasks')) AS total,
            round(pg_total_relation_size('tasks')::numeric / greatest(count(*), 1)) AS bytes_per_task
     FROM tasks`,
  );
  const indexes = await client.query(
    `SELECT indexname AS index, pg_size_pretty(pg_relation_size(format('%I', indexname)::regclass)) AS size
     FROM pg_indexes WHERE tablename = 'tasks' ORDER BY indexname`,
  );
  const marker = await client.query<{ seconds: number; generated_at: Date }>(
    'SELECT seconds, generated_at FROM bench_history_marker',
  );
  const summary = rows[0];
  console.log(
    `tasks: ${summary.tasks} rows (${summary.completed} completed, ${summary.anomalies} with a result anomaly, ${summary.postponed} postponed); heap ${summary.heap}, with indexes and TOAST ${summary.total} (${summary.bytes_per_task} bytes/task); generated in ${round1(marker.rows[0]!.seconds)} s at ${marker.rows[0]!.generated_at.toISOString()}`,
  );
  console.table(indexes.rows);
}

/* ---------- 2. Load ---------- */

function startServer(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'bench/api-server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      DB_POOL_SIZE: String(Math.max(10, connections)),
      PUBLIC_URL: base,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mise-bench-history-')),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitFor(address: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(address);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${address} did not answer in time`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: adminEmail, password: adminPassword }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { cookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return { cookie, csrf: csrfToken };
}

type Measure = { perSecond: number; p50: number; p99: number; errors: number };

/** The answer's size and status, then a 2 s warm-up of the API path. */
async function warmApi(path: string, cookie: string): Promise<number> {
  const probe = await fetch(`${base}${path}`, { headers: { cookie } });
  const body = Buffer.from(await probe.arrayBuffer());
  if (!probe.ok) {
    console.log(`  ${path} answered ${probe.status}: ${body.toString('utf8').slice(0, 400)}`);
  }
  await autocannon({ url: `${base}${path}`, connections, headers: { cookie }, duration: 2 });
  return probe.ok ? body.length : 0;
}

/** One measured autocannon run of BENCH_SECONDS. */
async function loadApi(path: string, cookie: string): Promise<Measure> {
  // The previous run's requests still in flight keep the server busy after it stops: one
  // more request, answered behind them, so the measured run starts on an idle server.
  await (await fetch(`${base}${path}`, { headers: { cookie } })).arrayBuffer();
  const result = await autocannon({
    url: `${base}${path}`,
    connections,
    headers: { cookie },
    duration: seconds,
  });
  return {
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const percentile = (sorted: number[], fraction: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

type SqlUnit = (client: pg.PoolClient) => Promise<number>;

/**
 * The same statements straight through `pg`: BENCH_CONNECTIONS clients, each running `unit`
 * in a loop for `durationMs` (latencies by process.hrtime when measured).
 */
async function runSql(
  pool: pg.Pool,
  unit: SqlUnit,
  durationMs: number,
): Promise<{ latencies: number[]; rows: number }> {
  let rows = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const started = process.hrtime.bigint();
          rows = await unit(client);
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      } finally {
        client.release();
      }
    }),
  );
  return { latencies, rows };
}

async function loadSql(pool: pg.Pool, unit: SqlUnit): Promise<Measure & { rows: number }> {
  const { latencies, rows } = await runSql(pool, unit, seconds * 1000);
  latencies.sort((left, right) => left - right);
  return {
    perSecond: Math.round(latencies.length / seconds),
    p50: round1(percentile(latencies, 0.5)),
    p99: round1(percentile(latencies, 0.99)),
    errors: 0,
    rows,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

type Pair = {
  api: Measure & { bytes: number };
  sql: Measure & { rows: number };
  p50Ratios: number[];
  p99Ratios: number[];
};

/**
 * The API path and the bare statements measured in turn, BENCH_ROUNDS times (after a warm-up
 * of each): on a shared 2-core machine the load of the moment moves both sides, so each
 * round's ratio compares runs seconds apart, and the medians are reported.
 */
async function measurePair(path: string, cookie: string, pool: pg.Pool, unit: SqlUnit) {
  const bytes = await warmApi(path, cookie);
  await runSql(pool, unit, 2000);
  const apis: Measure[] = [];
  const sqls: (Measure & { rows: number })[] = [];
  for (let round = 0; round < rounds; round++) {
    apis.push(await loadApi(path, cookie));
    sqls.push(await loadSql(pool, unit));
  }
  const medianOf = <T>(items: T[], pick: (item: T) => number) => median(items.map(pick));
  const isValid = apis.every((api) => api.perSecond > 0 && api.errors === 0);
  return {
    api: {
      perSecond: medianOf(apis, (api) => api.perSecond),
      p50: medianOf(apis, (api) => api.p50),
      p99: medianOf(apis, (api) => api.p99),
      errors: apis.reduce((total, api) => total + api.errors, 0),
      bytes,
    },
    sql: {
      perSecond: medianOf(sqls, (sql) => sql.perSecond),
      p50: medianOf(sqls, (sql) => sql.p50),
      p99: medianOf(sqls, (sql) => sql.p99),
      errors: 0,
      rows: sqls[0]!.rows,
    },
    // No answer in a run (every request slower than it) or only errors: no ratio.
    p50Ratios: isValid ? apis.map((api, index) => round2(api.p50 / sqls[index]!.p50)) : [],
    p99Ratios: isValid ? apis.map((api, index) => round2(api.p99 / sqls[index]!.p99)) : [],
  } satisfies Pair;
}

/* The services' SQL: the history page's statement itself, the others written out. */

// history-page.ts historyPageQuery, as text and values the way Drizzle sends it: the service
// prepares it once per connection (statementRows); so does this side (a named statement).
const historyStatement = (
  filter: HistoryFilter,
  storeId: string,
  start: string,
  end: string,
  search?: string,
) =>
  new PgDialect().sqlToQuery(
    historyPageQuery(
      { id: storeId },
      { start, end, module: 'temperatures', filter, search, limit: 100, now: new Date() },
    ),
  );

// The store lookups of both services (prepared statements): the store by its key, in the
// caller's scope (platform/scope.ts storeScopeCondition; the bench signs in as an admin).
const storeScopeSql = `($2::boolean OR s.distributor_id = any($3::uuid[])
    OR s.database_id = any($4::uuid[]) OR s.id = any($5::uuid[]))`;
const adminScopeValues = [true, [], [], []];
// history.service.ts findHistoryStore.
const historyStoreSql = `
  SELECT s.id, s.name, s.address, s.city, d.name AS database_name, s.timezone_name,
         s.hidden_modules, d.hidden_modules AS database_hidden, s.active, s.mise_licence,
         s.manager_owned, d.store_access
  FROM stores s LEFT JOIN databases d ON d.id = s.database_id
  WHERE s.id = $1 AND ${storeScopeSql} LIMIT 1`;

// home.service.ts storeHome for a customer or admin: the store, then today's tasks, the 29 past
// days of store_day_scores, the oil states and the day's equipment (at once in the service),
// then the delivery flags of the equipment's elements.
const homeStoreSql = `
  SELECT s.id, s.name, s.timezone_name, s.hidden_modules, d.hidden_modules AS database_hidden
  FROM stores s LEFT JOIN databases d ON d.id = s.database_id
  WHERE s.id = $1 AND ${storeScopeSql} LIMIT 1`;
const todaySql = `
  SELECT id, name, module, day::text AS day,
         floor(extract(epoch from start) * 1000)::float8 AS start_ms, duration,
         floor(extract(epoch from completed_timestamp) * 1000)::float8 AS completed_ms,
         employee, postponed_task, result_anomaly,
         CASE WHEN module = 'oils' THEN elements ELSE '[]'::jsonb END AS elements
  FROM tasks WHERE store_id = $1 AND day = $2 ORDER BY start, name`;
const pastScoreSql = `
  SELECT coalesce(sum(on_time), 0) AS on_time, coalesce(sum(on_time_with_anomaly), 0) AS on_time_with_anomaly,
         coalesce(sum(late), 0) AS late, coalesce(sum(late_with_anomaly), 0) AS late_with_anomaly,
         coalesce(sum(open), 0) AS missed
  FROM store_day_scores WHERE store_id = $1 AND day BETWEEN $2::date AND $3::date`;
const oilsSql = 'SELECT * FROM store_oil_states WHERE store_id = $1 AND last_reading_at >= $2';
const equipmentSql = 'SELECT * FROM store_day_equipment WHERE store_id = $1 AND day = $2';
const deliverySql = `
  SELECT id, null::uuid AS origin_id, temperature_delivery_item AS is_delivery, false AS is_store
  FROM database_elements WHERE id = any($1::uuid[])
  UNION ALL
  SELECT id, origin_id, temperature_delivery_item, true FROM store_elements
  WHERE store_id = $2 AND (id = any($1::uuid[]) OR origin_id = any($1::uuid[]))`;

function countPdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/* ---------- Run ---------- */

console.log(
  `History benchmark: ${storeCount} stores × ${dayCount} days, ${connections} connections, ${seconds} s per scenario, node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
const today = await parisToday();
const parameters: Parameters = { version: dataVersion, stores: storeCount, days: dayCount, today };
if (isReusing && (await isAlreadyGenerated(parameters))) {
  console.log(`reusing ${benchDatabase} (same parameters, generated earlier)`);
} else {
  await generate(parameters);
}

const pool = new pg.Pool({ connectionString: url, max: connections });
let server: ChildProcess | null = null;
try {
  await describeData(pool);
  const busiest = (
    await pool.query<{ id: string; name: string }>(
      `SELECT id, name FROM stores WHERE name LIKE '%(busiest)'`,
    )
  ).rows[0]!;
  const start = addDays(today, -30);

  let started = performance.now();
  server = startServer();
  // The server runs backfillResultAnomalies when ready: the start time includes it.
  await waitFor(`${base}/api/health`, server, 15 * 60_000);
  console.log(`server ready in ${secondsSince(started)} s`);
  const { cookie, csrf } = await signIn();

  const rows: Record<string, string | number>[] = [];
  const compare = (scenario: string, { api, sql, p50Ratios, p99Ratios }: Pair) => {
    rows.push({
      scenario,
      'API req/s': api.perSecond,
      'API p50 ms': api.p50,
      'API p99 ms': api.p99,
      'API errors': api.errors,
      'response KB': round1(api.bytes / 1024),
      'SQL q/s': sql.perSecond,
      'SQL p50 ms': sql.p50,
      'SQL p99 ms': sql.p99,
      'SQL rows': sql.rows,
      'p50 API/SQL': p50Ratios.length ? median(p50Ratios) : 'n/a',
      'p99 API/SQL': p99Ratios.length ? median(p99Ratios) : 'n/a',
      'p50 ratio by round': p50Ratios.join(' '),
    });
    console.log(`  ${scenario}: done`);
  };

  // The word search ignores accents and case ('congelateur' finds 'Congélateur'); a word
  // found nowhere reads the whole month of the tab.
  const scenarios = [
    { filter: 'completed', search: undefined },
    { filter: 'anomaly', search: undefined },
    { filter: 'completed', search: 'congelateur' },
    { filter: 'completed', search: 'introuvable' },
  ] as const;
  for (const { filter, search } of scenarios) {
    const path = `/api/stores/${busiest.id}/history?start=${start}&end=${today}&module=temperatures&filter=${filter}${search ? `&search=${search}` : ''}`;
    // The service's two statements, one after the other: the store, then the page.
    const page = historyStatement(filter, busiest.id, start, today, search);
    const pair = await measurePair(path, cookie, pool, async (sqlClient) => {
      const store = await sqlClient.query({
        name: 'bench_history_store',
        text: historyStoreSql,
        values: [busiest.id, ...adminScopeValues],
      });
      const rows = await sqlClient.query({
        name: `bench_history_${filter}_${search ?? 'all'}`,
        text: page.sql,
        values: page.params,
      });
      return (store.rowCount ?? 0) + (rows.rowCount ?? 0);
    });
    compare(
      `history 31 days, temperatures, ${filter}${search ? `, search "${search}"` : ''} (busiest store): SQL = the service's 2 statements`,
      pair,
    );
  }

  const homePair = await measurePair(
    `/api/stores/${busiest.id}/home`,
    cookie,
    pool,
    async (sqlClient) => {
      // One after the other on one connection (the service runs the middle four at once), each
      // a named prepared statement as in the service.
      const run = <Row extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) =>
        sqlClient.query<Row>({ name: `bench_home_${name}`, text, values });
      const store = await run('store', homeStoreSql, [busiest.id, ...adminScopeValues]);
      const todays = await run('today', todaySql, [busiest.id, today]);
      const past = await run('past', pastScoreSql, [
        busiest.id,
        addDays(today, -29),
        addDays(today, -1),
      ]);
      const oils = await run('oils', oilsSql, [
        busiest.id,
        `${addDays(today, -89)}T00:00:00+01:00`,
      ]);
      const equipment = await run<{ element_id: string }>('equipment', equipmentSql, [
        busiest.id,
        today,
      ]);
      const delivery = await run('delivery', deliverySql, [
        equipment.rows.map((row) => row.element_id),
        busiest.id,
      ]);
      return [store, todays, past, oils, equipment, delivery].reduce(
        (total, result) => total + (result.rowCount ?? 0),
        0,
      );
    },
  );
  compare("home (busiest store): SQL = the service's 6 statements", homePair);
  console.table(rows);
  // The best-stores panel of an admin with no store chosen: the score of every store at once.
  await warmApi('/api/home/best-stores', cookie);
  const best = await loadApi('/api/home/best-stores', cookie);
  console.log(
    `best stores (${storeCount} stores, admin): ${best.perSecond} req/s, p50 ${best.p50} ms, p99 ${best.p99} ms, errors ${best.errors}`,
  );

  const completedPage = historyStatement('completed', busiest.id, start, today);
  const explain = await pool.query(
    `EXPLAIN (ANALYZE, BUFFERS) ${completedPage.sql}`,
    completedPage.params,
  );
  const plan: string[] = explain.rows.map((row) => row['QUERY PLAN']);
  console.log(
    'EXPLAIN (ANALYZE, BUFFERS) history, completed, busiest store (first 15 lines, then the index scans and the time):',
  );
  for (const [index, line] of plan.entries()) {
    if (index < 15 || /Index (Only )?Scan|Execution Time/.test(line)) console.log(`  ${line}`);
  }

  // 3. PDF exports, one after the other.
  const pdfRows: Record<string, string | number>[] = [];
  for (let index = 1; index <= 3; index += 1) {
    started = performance.now();
    const response = await fetch(`${base}/api/pdf/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
      body: JSON.stringify({ storeId: busiest.id, start, end: today, filter: 'all' }),
    });
    const pdf = Buffer.from(await response.arrayBuffer());
    const elapsed = secondsSince(started);
    if (!response.ok)
      console.log(`  PDF answered ${response.status}: ${pdf.toString().slice(0, 400)}`);
    pdfRows.push({
      export: `POST /api/pdf/tasks #${index}, 31 days, all modules, filter all`,
      status: response.status,
      seconds: elapsed,
      'size KB': round1(pdf.length / 1024),
      pages: countPdfPages(pdf),
    });
  }
  console.table(pdfRows);
} finally {
  if (server) await stop(server);
  await pool.end();
  if (!isKeeping) {
    await withAdmin((admin) =>
      admin.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`),
    );
  }
}

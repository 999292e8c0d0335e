/**
 * Communication and training statistics (issue 18; not a test). Target: the statistics of a
 * communication sent to 1,000 stores × 20 employees with 15,000 results answer, overview and
 * table, with a p99 under 200 ms (indexed aggregations, no per-store query); trainings share the
 * code and are measured on the same shape.
 *
 * The API runs in its own process (bench/api-server.ts: buildApp, no logger, no web app, no
 * scheduler) so the load generator does not share its event loop; the database is a fresh one:
 * embedded PGlite in a temporary folder (written here, closed, then opened by the server process
 * alone), or, when DATABASE_URL is given, a scratch PostgreSQL database `mise_bench_comms` on that
 * server (dropped at the end unless BENCH_KEEP=true).
 *
 * Data, written in SQL (INSERT … SELECT over generate_series), then ANALYZE: a distributor, a
 * database, BENCH_COMM_STORES stores (default 1,000; a tenth of the addresses on "rue de Lyon"),
 * 3 store tags (on 1/2, 1/3 and 1/5 of the stores), 2 employee roles, BENCH_COMM_EMPLOYEES active
 * employees per store (default 20, roles alternating) linked through employee_stores, and, running
 * since 13 days and for 7 more:
 *   - a communication aimed at everyone: BENCH_COMM_RESULTS completed results (default 15,000),
 *     completion instants spread evenly from its start to now, plus a tenth as many results
 *     seen or skipped but not completed;
 *   - a communication aimed at the first tag (half the stores): three quarters of its target
 *     employees completed (at most BENCH_COMM_RESULTS), plus a tenth not completed;
 *   - a database training aimed at everyone, created 20 days ago: as many results as the first
 *     communication, completions spread over the 20 days (some before the chart's 11 days).
 * BENCH_COMM_RUNNING (default 0) adds as many running communications and active trainings without
 * results, aimed in turn at everyone and at each tag (the home panels' cost per item);
 * BENCH_ONLY=<text> measures only the endpoints whose label holds it (e.g. "home").
 * A manager of the database signs in through POST /api/auth/login.
 *
 * Each endpoint, over HTTP on loopback: BENCH_CALLS sequential requests (default 200, after 20
 * warm-up ones), then BENCH_CONNECTIONS concurrent clients (default 10, autocannon) for
 * BENCH_SECONDS (default 5, after a 1 s warm-up); p50 / p95 / p99 / max. Then, the server
 * stopped, the app in this process on the same database counts the SQL statements of a request
 * of each endpoint (the session lookup included) and times each one (median of 5 requests; the
 * statements are listed for endpoints whose p50 is 40 ms or more); the slowest statement of an
 * endpoint whose p99 missed the target (of every endpoint with BENCH_EXPLAIN=true) is shown with
 * EXPLAIN ANALYZE.
 *
 *   flock /tmp/mise-build.lock node --import tsx bench/communications.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/communications.ts
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { type DatabaseHandle, openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { buildDatabase, buildDistributor, buildUser } from '../apps/server/src/test/factories';
import { communicationPeriod } from '../packages/shared/src/communications/rules';
import { addDays, dayInZone } from '../packages/shared/src/tasks/rules';

const storeCount = Number(process.env.BENCH_COMM_STORES ?? 1000);
const employeesPerStore = Number(process.env.BENCH_COMM_EMPLOYEES ?? 20);
const resultCount = Number(process.env.BENCH_COMM_RESULTS ?? 15_000);
const sequentialCalls = Number(process.env.BENCH_CALLS ?? 200);
const warmUpCalls = 20;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const isExplainingAll = process.env.BENCH_EXPLAIN === 'true';
const extraRunning = Number(process.env.BENCH_COMM_RUNNING ?? 0);
const onlyLabel = process.env.BENCH_ONLY?.toLowerCase();
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_comms';
const zone = 'Europe/Paris';
const email = 'manager@bench-comms.test';
const password = 'bench-comms-1234';
const targetMs = 200;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin(run: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : String(Math.round(value)));
/** A statement or plan line with its long lists of parameters or ids shortened. */
const shorten = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\$(\d+)(?:, \$\d+){8,}, \$(\d+)/g, '$$$1, …, $$$2')
    .replace(
      /'\{[0-9a-f-]{36}(?:,[0-9a-f-]{36}){8,}\}'/g,
      (list) => `'{${list.split(',').length} ids}'`,
    );

/* ---------------------------------------------------------------- the data */

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-comms-'));
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const openBenchDatabase = () =>
  adminUrl
    ? openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 4 })
    : openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });

const seedStarted = performance.now();
const seeding = await openBenchDatabase();
await runMigrations(seeding);
const { db } = seeding;
/** The rows of a statement (node-postgres and PGlite both answer `{ rows }`). */
async function rowsOf<Row>(query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}
const distributor = await buildDistributor(db, { name: 'Bench distributor' });
const catalogue = await buildDatabase(db, {
  name: 'Bench database',
  distributor_id: distributor.id,
});
await buildUser(db, {
  role: 'manager',
  email,
  name: 'Bench',
  surname: 'Manager',
  language: 'en',
  password,
  database_id: catalogue.id,
  managedDatabaseIds: [catalogue.id],
});
const streets = [
  'Lyon',
  'Paris',
  'Rivoli',
  'Rennes',
  'Vaugirard',
  'Bac',
  'Seine',
  'Ecoles',
  'Lille',
  'Nancy',
];

// Stores: "Store 0001" …, created a second apart (the first one gives the database's zone).
await db.execute(sql`
  insert into stores (distributor_id, database_id, name, address, postal_code, city,
    timezone_name, manager_owned, mise_licence, created_at)
  select ${distributor.id}::uuid, ${catalogue.id}::uuid, 'Store ' || lpad(g::text, 4, '0'),
    (g % 97 + 1) || ' rue de ' || (${`{${streets.join(',')}}`}::text[])[1 + g % 10], '75001', 'Paris',
    ${zone}, true, true, now() - interval '60 days' + g * interval '1 second'
  from generate_series(1, ${storeCount}::int) as g`);
const storeNumber = sql.raw(`substring(s.name from 7)::int`);

// Tags on 1/2, 1/3 and 1/5 of the stores; two roles.
const tagIds: string[] = [];
for (const [index, [name, every]] of (
  [
    ['Nord', 2],
    ['Franchise', 3],
    ['Centre-ville', 5],
  ] as const
).entries()) {
  const inserted = await rowsOf<{ id: string }>(sql`
    insert into store_tags (database_id, name) values (${catalogue.id}::uuid, ${name})
    returning id`);
  const tagId = inserted[0]!.id;
  tagIds.push(tagId);
  await db.execute(sql`
    insert into store_tag_links (tag_id, store_id)
    select ${tagId}::uuid, s.id from stores s
    where s.database_id = ${catalogue.id}::uuid and ${storeNumber} % ${every}::int = ${index}::int % ${every}::int`);
}
const roleIds: string[] = [];
for (const name of ['Cuisinier', 'Serveur']) {
  const inserted = await rowsOf<{ id: string }>(sql`
    insert into employee_roles (database_id, name) values (${catalogue.id}::uuid, ${name})
    returning id`);
  roleIds.push(inserted[0]!.id);
}

// Employees: old_ref carries the store while the links are written, then is cleared.
await db.execute(sql`
  insert into employees (database_id, name, surname, role_id, active, old_ref)
  select ${catalogue.id}::uuid, 'Employé ' || k, 'de ' || s.name,
    case when k % 2 = 0 then ${roleIds[0]}::uuid else ${roleIds[1]}::uuid end, true, s.id::text
  from stores s cross join generate_series(1, ${employeesPerStore}::int) as k
  where s.database_id = ${catalogue.id}::uuid`);
await db.execute(sql`
  insert into employee_stores (employee_id, store_id)
  select e.id, e.old_ref::uuid from employees e where e.database_id = ${catalogue.id}::uuid`);
await db.execute(
  sql`update employees set old_ref = null where database_id = ${catalogue.id}::uuid`,
);

// Two communications running since 13 days, for 7 more.
const now = new Date();
const today = dayInZone(now, zone);
const days = { start_day: addDays(today, -13), end_day: addDays(today, 7) };
const period = communicationPeriod(days, zone);
type Target = {
  stores: string[];
  store_tags: string[];
  employee_roles: string[];
  store_tags_union: boolean;
};
const everyone: Target = { stores: [], store_tags: [], employee_roles: [], store_tags_union: true };
const tagged = { ...everyone, store_tags: [tagIds[0]!] };
async function communication(name: string, target: Target): Promise<string> {
  const inserted = await rowsOf<{ id: string }>(sql`
    insert into communications (database_id, name, active, start_day, end_day, time_zone,
      start_at, end_at, attachment_name, attachment_path, attachment_content_type, target,
      created_by_name, created_at, updated_at)
    values (${catalogue.id}::uuid, ${name}, true, ${days.start_day}, ${days.end_day}, ${zone},
      ${period.start.toISOString()}::timestamptz, ${period.end.toISOString()}::timestamptz,
      'note.pdf', ${`databases/${catalogue.id}/communications/bench/note.pdf`}, 'application/pdf',
      ${JSON.stringify(target)}::jsonb, 'Bench Manager',
      ${period.start.toISOString()}::timestamptz, ${period.start.toISOString()}::timestamptz)
    returning id`);
  return inserted[0]!.id;
}
const everyoneId = await communication('Nouvelle carte (tout le monde)', everyone);
const taggedId = await communication('Nouvelle carte (Nord)', tagged);

/** The store-employee pairs of the database (optionally of one tag's stores), shuffled. */
const pairs = (tagId: string | null) => sql`
  select es.store_id, es.employee_id,
    row_number() over (order by md5(es.employee_id::text)) as n
  from employee_stores es join stores s on s.id = es.store_id
  where s.database_id = ${catalogue.id}::uuid
    ${tagId ? sql`and exists (select 1 from store_tag_links l where l.store_id = es.store_id and l.tag_id = ${tagId}::uuid)` : sql``}`;

/** `completed` results spread from the start to now, then `completed / 10` not completed. */
async function communicationResults(id: string, tagId: string | null, completed: number) {
  const pending = Math.floor(completed / 10);
  await db.execute(sql`
    insert into communication_results (communication_id, database_id, store_id, employee_id,
      skipped_count, time_spent, completed_at, first_seen_at, updated_at)
    select ${id}::uuid, ${catalogue.id}::uuid, p.store_id, p.employee_id,
      case when p.n <= ${completed}::int then 0 else 1 + p.n % 3 end,
      case when p.n <= ${completed}::int then 15 + (p.n * 37) % 600 else p.n % 40 end,
      case when p.n <= ${completed}::int
        then ${period.start.toISOString()}::timestamptz
          + ((p.n * 7919) % 10007)::float8 / 10007 * (${now.toISOString()}::timestamptz - ${period.start.toISOString()}::timestamptz)
      end,
      ${period.start.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from (${pairs(tagId)}) as p
    where p.n <= ${completed + pending}::int`);
}
const taggedEmployees = Number(
  (
    await rowsOf<{ count: number }>(
      sql`select count(*)::int as count from (${pairs(tagIds[0]!)}) as p`,
    )
  )[0]!.count,
);
const taggedCompleted = Math.min(resultCount, Math.floor(taggedEmployees * 0.75));
await communicationResults(everyoneId, null, resultCount);
await communicationResults(taggedId, tagIds[0]!, taggedCompleted);

// A database training aimed at everyone, created 20 days ago.
const trainingStart = new Date(now.getTime() - 20 * 86_400_000);
async function training(name: string, target: Target): Promise<string> {
  const inserted = await rowsOf<{ id: string }>(sql`
    insert into trainings (name, active, lang, type, source, database_id, required, sections,
      target, created_by_name, created_at, updated_at)
    values (${name}, true, 'fr', 'database', ${catalogue.id}::uuid,
      ${catalogue.id}::uuid, true, '[]'::jsonb, ${JSON.stringify(target)}::jsonb, 'Bench Manager',
      ${trainingStart.toISOString()}::timestamptz, ${trainingStart.toISOString()}::timestamptz)
    returning id`);
  return inserted[0]!.id;
}
const trainingId = await training('Hygiène des mains', everyone);
const trainingPending = Math.floor(resultCount / 10);
await db.execute(sql`
  insert into training_results (training_id, store_id, store_database, store_distributor,
    employee_id, skipped_count, time_spent, completed_at, first_seen_at, updated_at)
  select ${trainingId}::uuid, p.store_id, ${catalogue.id}::uuid, ${distributor.id}::uuid,
    p.employee_id,
    case when p.n <= ${resultCount}::int then 0 else 1 + p.n % 3 end,
    case when p.n <= ${resultCount}::int then 60 + (p.n * 37) % 1200 else p.n % 40 end,
    case when p.n <= ${resultCount}::int
      then ${trainingStart.toISOString()}::timestamptz
        + ((p.n * 7919) % 10007)::float8 / 10007 * (${now.toISOString()}::timestamptz - ${trainingStart.toISOString()}::timestamptz)
    end,
    ${trainingStart.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
  from (${pairs(null)}) as p
  where p.n <= ${resultCount + trainingPending}::int`);
// BENCH_COMM_RUNNING more running communications and active trainings, without results, aimed in
// turn at everyone and at each tag: the home panels' cost per item.
const targets = [everyone, ...tagIds.map((tagId) => ({ ...everyone, store_tags: [tagId] }))];
for (let index = 0; index < extraRunning; index += 1) {
  await communication(`Note ${index + 1}`, targets[index % targets.length]!);
  await training(`Formation ${index + 1}`, targets[index % targets.length]!);
}
await db.execute(sql`analyze`);

// The details modal's store: the first of the tag's stores (so in both communications' targets).
const detailStore = (
  await rowsOf<{ id: string }>(sql`
    select s.id from stores s join store_tag_links l on l.store_id = s.id
    where s.database_id = ${catalogue.id}::uuid and l.tag_id = ${tagIds[0]!}::uuid
    order by lower(s.name), s.id limit 1`)
)[0]!.id;
const counts = (
  await rowsOf<{ employees: number; comm: number; tagged: number; training: number }>(sql`
    select
      (select count(*)::int from employees where database_id = ${catalogue.id}::uuid) as employees,
      (select count(*)::int from communication_results where communication_id = ${everyoneId}::uuid) as comm,
      (select count(*)::int from communication_results where communication_id = ${taggedId}::uuid) as tagged,
      (select count(*)::int from training_results where training_id = ${trainingId}::uuid) as training`)
)[0]!;
await seeding.close();
const seedSeconds = (performance.now() - seedStarted) / 1000;

/* ---------------------------------------------------------------- the endpoints */

type Endpoint = { label: string; path: string };
const search = encodeURIComponent('rue de lyon');
const endpoints: Endpoint[] = [
  { label: 'comm. everyone: overview', path: `/api/communications/${everyoneId}/stats` },
  {
    label: 'comm. everyone: table (50)',
    path: `/api/communications/${everyoneId}/stats/stores?limit=50`,
  },
  {
    label: 'comm. everyone: table search',
    path: `/api/communications/${everyoneId}/stats/stores?limit=50&search=${search}`,
  },
  {
    label: 'comm. everyone: store details',
    path: `/api/communications/${everyoneId}/stats/stores/${detailStore}`,
  },
  { label: 'comm. tag: overview', path: `/api/communications/${taggedId}/stats` },
  {
    label: 'comm. tag: table (50)',
    path: `/api/communications/${taggedId}/stats/stores?limit=50`,
  },
  {
    label: 'comm. tag: table search',
    path: `/api/communications/${taggedId}/stats/stores?limit=50&search=${search}`,
  },
  {
    label: 'comm. tag: store details',
    path: `/api/communications/${taggedId}/stats/stores/${detailStore}`,
  },
  {
    label: `comm. home panel (${2 + extraRunning} running)`,
    path: `/api/databases/${catalogue.id}/communications/home`,
  },
  { label: 'training: overview', path: `/api/trainings/${trainingId}/stats` },
  { label: 'training: table (50)', path: `/api/trainings/${trainingId}/stats/stores?limit=50` },
  {
    label: 'training: table search',
    path: `/api/trainings/${trainingId}/stats/stores?limit=50&search=${search}`,
  },
  {
    label: 'training: store details',
    path: `/api/trainings/${trainingId}/stats/stores/${detailStore}`,
  },
  {
    label: `training: home panel (${1 + extraRunning} active)`,
    path: `/api/trainings/home?database_id=${catalogue.id}`,
  },
].filter((endpoint) => !onlyLabel || endpoint.label.toLowerCase().includes(onlyLabel));

type Figures = {
  bytes: number;
  sequential: { p50: number; p95: number; p99: number; max: number };
  concurrent: { p50: number; p99: number; max: number; perSecond: number; errors: number };
  queries?: number;
  slowest?: { ms: number; text: string };
  inProcess?: { total: number; sql: number };
};
const figures = new Map<string, Figures>();

/* ---------------------------------------------------------------- over HTTP */

const { DATABASE_URL: _adminUrl, ...serverEnvironment } = process.env;
const server: ChildProcess = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./api-server.ts', import.meta.url))],
  {
    env: {
      ...serverEnvironment,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PORT: '0',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://127.0.0.1',
      ...(adminUrl ? { DATABASE_URL: databaseUrl(benchDatabase) } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let isServerRunning = true;
async function stopServer(): Promise<void> {
  if (!isServerRunning) return;
  isServerRunning = false;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

console.log(
  `\nCommunication and training statistics on ${driverLabel}, the API in its own process; ` +
    `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `Data (${seedSeconds.toFixed(1)} s): ${storeCount} stores × ${employeesPerStore} employees ` +
    `(${counts.employees}); communication to everyone: ${counts.comm} results ` +
    `(${resultCount} completed); communication to the tag "Nord" (${taggedEmployees} employees): ` +
    `${counts.tagged} results (${taggedCompleted} completed); database training to everyone: ` +
    `${counts.training} results (${resultCount} completed)`,
);

try {
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    server.on('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((value) => value.startsWith('mise_session='))!
    .split(';')[0]!;

  const get = async (path: string) => {
    const before = performance.now();
    const response = await fetch(`${base}${path}`, { headers: { cookie } });
    const body = await response.arrayBuffer();
    const elapsed = performance.now() - before;
    if (!response.ok) {
      throw new Error(`${path}: ${response.status} ${Buffer.from(body).toString().slice(0, 400)}`);
    }
    return { elapsed, bytes: body.byteLength };
  };

  console.log(
    `Sequential: ${sequentialCalls} calls each after ${warmUpCalls} warm-up; concurrent: ` +
      `${connections} connections for ${seconds} s after 1 s (autocannon)`,
  );
  for (const endpoint of endpoints) {
    let bytes = 0;
    for (let index = 0; index < warmUpCalls; index += 1) bytes = (await get(endpoint.path)).bytes;
    const latencies: number[] = [];
    for (let index = 0; index < sequentialCalls; index += 1) {
      latencies.push((await get(endpoint.path)).elapsed);
    }
    latencies.sort((left, right) => left - right);
    const url = `${base}${endpoint.path}`;
    await autocannon({ url, connections, headers: { cookie }, duration: 1 });
    // The warm-up's requests still in flight: one more, answered behind them.
    await get(endpoint.path);
    const result = await autocannon({ url, connections, headers: { cookie }, duration: seconds });
    const entry: Figures = {
      bytes,
      sequential: {
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
        p99: percentile(latencies, 0.99),
        max: latencies.at(-1) ?? 0,
      },
      concurrent: {
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max ?? 0,
        perSecond: Math.round(result.requests.average),
        errors: result.non2xx + result.errors + result.timeouts,
      },
    };
    figures.set(endpoint.label, entry);
    console.log(
      `  ${endpoint.label.padEnd(32)} sequential p50 ${ms(entry.sequential.p50)} p99 ` +
        `${ms(entry.sequential.p99)} ms; ${connections} conn. p50 ${ms(entry.concurrent.p50)} ` +
        `p99 ${ms(entry.concurrent.p99)} ms, ${entry.concurrent.perSecond} req/s ` +
        `(load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
} finally {
  await stopServer();
}

/* ---------------------------------------------------------------- statements, in process */

type Statement = { text: string; params: unknown[]; ms: number };
/** Records each statement the driver runs during `run`, with its time to answer. */
async function recordStatements(
  database: DatabaseHandle,
  run: () => Promise<unknown>,
): Promise<Statement[]> {
  const target = (database.pool ?? database.pglite) as unknown as {
    query: (...args: unknown[]) => Promise<unknown>;
  };
  const original = target.query;
  const statements: Statement[] = [];
  target.query = async function (this: unknown, ...args: unknown[]) {
    const [query, params] = args as [string | { text: string }, unknown[] | undefined];
    const before = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      statements.push({
        text: typeof query === 'string' ? query : query.text,
        params: params ?? [],
        ms: performance.now() - before,
      });
    }
  };
  try {
    await run();
  } finally {
    target.query = original;
  }
  return statements;
}

const inProcess = await openBenchDatabase();
try {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1',
  });
  const app = await buildApp({ config, database: inProcess, logger: false, isServingWeb: false });
  await app.ready();
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    const setCookie = login.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
      .find((value) => value.startsWith('mise_session='))!
      .split(';')[0]!;
    const explained: string[] = [];
    const breakdowns: string[] = [];
    for (const endpoint of endpoints) {
      const inject = async () => {
        const response = await app.inject({
          method: 'GET',
          url: endpoint.path,
          headers: { cookie },
        });
        if (response.statusCode !== 200)
          throw new Error(`${endpoint.path}: ${response.statusCode}`);
      };
      for (let index = 0; index < 5; index += 1) await inject();
      // Five recorded requests; the one of median total time is kept.
      const runs: { statements: Statement[]; total: number; sql: number }[] = [];
      for (let index = 0; index < 5; index += 1) {
        const before = performance.now();
        const statements = await recordStatements(inProcess, inject);
        const total = performance.now() - before;
        runs.push({ statements, total, sql: statements.reduce((sum, item) => sum + item.ms, 0) });
      }
      runs.sort((left, right) => left.total - right.total);
      const { statements, total, sql: sqlMs } = runs[2]!;
      const slowest = statements.reduce((worst, item) => (item.ms > worst.ms ? item : worst));
      const entry = figures.get(endpoint.label)!;
      entry.queries = statements.length;
      entry.inProcess = { total, sql: sqlMs };
      entry.slowest = { ms: slowest.ms, text: shorten(slowest.text) };
      if (isExplainingAll || entry.sequential.p50 >= 40) {
        breakdowns.push(
          `\n${endpoint.label}: ${ms(total)} ms in process, ${ms(sqlMs)} ms in ${statements.length} statements:\n` +
            statements
              .map((item) => `  ${ms(item.ms).padStart(5)} ms  ${shorten(item.text).slice(0, 160)}`)
              .join('\n'),
        );
      }
      if (isExplainingAll || entry.sequential.p99 >= targetMs) {
        const client = (inProcess.pool ?? inProcess.pglite) as unknown as {
          query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
        };
        const plan = await client.query(
          `explain (analyze, buffers) ${slowest.text}`,
          slowest.params,
        );
        explained.push(
          `\n${endpoint.label} — slowest statement (${ms(slowest.ms)} ms of ${statements.length}):\n` +
            `${entry.slowest.text.slice(0, 1000)}\n` +
            plan.rows.map((row) => `  ${shorten(String(Object.values(row)[0]))}`).join('\n'),
        );
      }
    }
    printTable();
    for (const text of breakdowns) console.log(text);
    for (const text of explained) console.log(text);
  } finally {
    await app.close();
  }
} finally {
  await inProcess.close();
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}

function printTable(): void {
  console.log(
    `\n| endpoint | SQL | SQL ms | slowest | in process | seq. p50 | p95 | p99 | max | ${connections} conn. p50 | p99 | max | req/s | KB | p99 < ${targetMs} ms |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const endpoint of endpoints) {
    const entry = figures.get(endpoint.label)!;
    const { sequential: s, concurrent: c } = entry;
    const isMet = s.p99 < targetMs && c.p99 < targetMs;
    console.log(
      `| ${endpoint.label} | ${entry.queries ?? '?'} | ${entry.inProcess ? ms(entry.inProcess.sql) : '?'} ` +
        `| ${entry.slowest ? ms(entry.slowest.ms) : '?'} | ${entry.inProcess ? ms(entry.inProcess.total) : '?'} ` +
        `| ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} ` +
        `| ${ms(c.p50)} | ${ms(c.p99)} | ${ms(c.max)} | ${c.perSecond}${c.errors ? ` (${c.errors} errors)` : ''} ` +
        `| ${(entry.bytes / 1024).toFixed(1)} | ${isMet ? 'yes' : s.p99 < targetMs ? 'sequential only' : 'no'} |`,
    );
  }
  console.log(
    '(SQL: statements of one request, the session lookup included; SQL ms, slowest and in process: ' +
      'the sum of their times, the slowest one and the whole request through app.inject, ' +
      'the median of 5 requests in process; seq. and conn.: over HTTP, ms)',
  );
}

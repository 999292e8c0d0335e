/**
 * Expert mode, bulk reads and saves (issue 19; not a test). Target: saving 500 changed rows of
 * a 2,000-element database under 1 s p99.
 *
 * The API runs in its own process (bench/api-server.ts: buildApp, no logger, no web app, no
 * scheduler) so the client here does not share its event loop; the database is a fresh one:
 * embedded PGlite in a temporary folder (written here, closed, then opened by the server
 * process alone), or, when DATABASE_URL is given, a scratch PostgreSQL database
 * `mise_bench_bulk` on that server (dropped at the end unless BENCH_KEEP=true).
 *
 * Data: a distributor and its database of BENCH_BULK_ELEMENTS elements (default 2,000; 20
 * types, a temperature range on each, the minimum and maximum unlocked, 3 labels each) and
 * BENCH_BULK_TASKS task configurations (default 500: actions with 3 sub-tasks, and temperature
 * readings of 5 elements, two schedule windows each), a store on it overriding
 * BENCH_BULK_OVERRIDES elements (default 200) and configurations (default 100). A distributor
 * account signs in through POST /api/auth/login.
 *
 * Over HTTP on loopback, BENCH_CALLS sequential requests each (default 20, after 3 warm-up
 * ones), p50 / p99 / max:
 *   - GET  /api/databases/:id/elements/bulk and the store's (merged with its database's rows);
 *   - POST /api/databases/:id/elements/bulk with BENCH_BULK_CHANGED rows changed (default 500:
 *     name, minimum and maximum temperature, one lock), each save with the versions the last
 *     one answered;
 *   - GET and POST /api/databases/:id/taskConfigurations/bulk likewise (500 changed rows:
 *     name, schedules, requires_manager), and the store's GET.
 * The client accepts compression as Chromium does (BENCH_ACCEPT_ENCODING, default
 * 'gzip, deflate, br'; `identity` for none); the size of each GET on the wire is printed first.
 *
 *   node --import tsx bench/bulk.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/bulk.ts
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  databaseElements,
  elementLabels,
  elementTypes,
  storeElements,
  storeTaskConfigurations,
  taskConfigurations,
} from '../apps/server/src/db/schema';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildUser,
} from '../apps/server/src/test/factories';
import { defaultElementLocks } from '../packages/shared/src/catalogue/constants';
import { defaultTaskConfigurationLocks } from '../packages/shared/src/tasks/constants';

const elementCount = Number(process.env.BENCH_BULK_ELEMENTS ?? 2000);
const taskCount = Number(process.env.BENCH_BULK_TASKS ?? 500);
const changedCount = Number(process.env.BENCH_BULK_CHANGED ?? 500);
const overrideCount = Number(process.env.BENCH_BULK_OVERRIDES ?? 200);
const calls = Number(process.env.BENCH_CALLS ?? 20);
const warmUpCalls = 3;
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_bulk';
const password = 'bench-bulk-1234';
/** What the client accepts: Chromium's by default; `identity` measures without compression. */
const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';

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
const round = (value: number) => Math.round(value);

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-bulk-'));
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = adminUrl
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 4 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);

/* ---------- Data ---------- */

const seedStarted = performance.now();
const { db } = database;
const distributor = await buildDistributor(db);
const catalogue = await buildDatabase(db, { distributor_id: distributor.id });
const store = await buildStore(db, {
  distributor_id: distributor.id,
  database_id: catalogue.id,
});
const account = await buildUser(db, {
  role: 'distributor',
  distributor_id: distributor.id,
  password,
});

async function insertChunks<T extends Record<string, unknown>>(
  table: Parameters<typeof db.insert>[0],
  rows: T[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await db.insert(table).values(rows.slice(start, start + 500) as never);
  }
}

const typeIds = Array.from({ length: 20 }, () => randomUUID());
await insertChunks(
  elementTypes,
  typeIds.map((id, index) => ({ id, database_id: catalogue.id, name: `Type ${index + 1}` })),
);
const elementIds = Array.from({ length: elementCount }, () => randomUUID());
await insertChunks(
  databaseElements,
  elementIds.map((id, index) => ({
    id,
    database_id: catalogue.id,
    name: `Élément ${String(index + 1).padStart(4, '0')}`,
    type_id: typeIds[index % typeIds.length]!,
    minimum_temperature: index % 3 === 0 ? -25 : 0,
    maximum_temperature: index % 3 === 0 ? -18 : 4,
    allergens: index % 4 === 0 ? [] : ['milkOrLactose'],
    locks: { ...defaultElementLocks, minimum_temperature: false, maximum_temperature: false },
  })),
);
await insertChunks(
  elementLabels,
  elementIds.flatMap((id) =>
    [0, 1, 2].map((index) => ({
      database_id: catalogue.id,
      database_element_id: id,
      index,
      name: `Étiquette ${index + 1}`,
      active: true,
      type: 'expiration',
      expiration_duration: 72,
      defrosting_duration: 0,
      cumulate_expiration_duration: false,
      show_expiration_hour: true,
      show_expiration_weekday: false,
    })),
  ),
);
await insertChunks(
  storeElements,
  elementIds.slice(0, overrideCount).map((id) => ({
    store_id: store.id,
    origin_id: id,
    minimum_temperature: 1,
  })),
);
const taskIds = Array.from({ length: taskCount }, () => randomUUID());
await insertChunks(
  taskConfigurations,
  taskIds.map((id, index) => ({
    id,
    database_id: catalogue.id,
    name: `Tâche ${String(index + 1).padStart(3, '0')}`,
    module: index % 2 ? 'temperatures' : 'actions',
    configuration:
      index % 2
        ? {
            temperature_elements: elementIds.slice(
              (index * 5) % elementCount,
              ((index * 5) % elementCount) + 5,
            ),
            is_delivery: false,
            automatic: false,
          }
        : {
            actions: ['Sols', 'Plans', 'Poubelles'].map((name) => ({
              name,
              requires_picture: false,
              attachments: [],
            })),
          },
    starts: [480, 900],
    durations: [60, 60],
    locks: { ...defaultTaskConfigurationLocks, schedule: false, requires_manager: false },
  })),
);
await insertChunks(
  storeTaskConfigurations,
  taskIds.slice(0, Math.floor(overrideCount / 2)).map((id) => ({
    store_id: store.id,
    origin_id: id,
    starts: [540],
    durations: [30],
  })),
);
if (adminUrl) await db.execute(sql`analyze`);
const seedSeconds = (performance.now() - seedStarted) / 1000;
// PGlite allows one process: the server opens the folder once the data is written.
await database.close();

/* ---------- The API in its own process ---------- */

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
async function stopServer(): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

console.log(
  `\nExpert mode (bulk) on ${driverLabel}, the API in its own process; ${cpus().length} cores, ` +
    `load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `Data (${seedSeconds.toFixed(1)} s): ${elementCount} elements × 3 labels, ${taskCount} task ` +
    `configurations; a store overriding ${overrideCount} elements and ` +
    `${Math.floor(overrideCount / 2)} configurations. ${calls} sequential calls each after ` +
    `${warmUpCalls} warm-up.`,
);

type Row = { key: string; id: string | null; version: number; name: string };
type Figures = { label: string; p50: number; p99: number; max: number; kb: number; rows: number };
const figures: Figures[] = [];

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
    body: JSON.stringify({ email: account.email, password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((value) => value.startsWith('mise_session='))!
    .split(';')[0]!;
  const csrf = (
    (await (await fetch(`${base}/api/auth/csrf`, { headers: { cookie } })).json()) as {
      csrfToken: string;
    }
  ).csrfToken;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        cookie,
        // As Chromium asks (the answers are compressed when the client accepts it).
        'accept-encoding': acceptEncoding,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'x-csrf-token': csrf }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 400)}`);
    return { elapsed, bytes: Buffer.byteLength(text), json: JSON.parse(text) as { rows: Row[] } };
  }

  async function measure(
    label: string,
    run: (index: number) => Promise<{ elapsed: number; bytes: number; rows: number }>,
  ) {
    for (let index = 0; index < warmUpCalls; index += 1) await run(-1 - index);
    const latencies: number[] = [];
    let last = { bytes: 0, rows: 0 };
    for (let index = 0; index < calls; index += 1) {
      const result = await run(index);
      latencies.push(result.elapsed);
      last = result;
    }
    latencies.sort((left, right) => left - right);
    const entry = {
      label,
      p50: round(percentile(latencies, 0.5)),
      p99: round(percentile(latencies, 0.99)),
      max: round(latencies.at(-1) ?? 0),
      kb: Math.round(last.bytes / 1024),
      rows: last.rows,
    };
    figures.push(entry);
    console.log(
      `${label.padEnd(58)} rows ${String(entry.rows).padStart(5)}  ${String(entry.kb).padStart(5)} KB  ` +
        `p50 ${entry.p50} ms  p99 ${entry.p99} ms  max ${entry.max} ms`,
    );
  }

  /** Bytes on the wire of a GET asking for compression (fetch would decompress), and the encoding. */
  function wireSize(path: string): Promise<{ bytes: number; encoding: string }> {
    return new Promise((resolve, reject) => {
      request(
        `${base}${path}`,
        { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () =>
            resolve({ bytes, encoding: String(response.headers['content-encoding'] ?? 'none') }),
          );
        },
      )
        .on('error', reject)
        .end();
    });
  }

  const get = (path: string) => async () => {
    const result = await call('GET', path);
    return { ...result, rows: result.json.rows.length };
  };

  /** Saves `changedCount` rows of the grid, each time with the versions the last save answered. */
  async function saves(
    label: string,
    path: string,
    change: (row: Row, round: number) => Record<string, unknown>,
  ) {
    const grid = (await call('GET', path)).json.rows.slice(0, changedCount);
    const versions = new Map(grid.map((row) => [row.key, row.version]));
    await measure(label, async (index) => {
      const rows = grid.map((row) => ({
        key: row.key,
        id: row.id,
        version: versions.get(row.key),
        values: change(row, index + 10),
      }));
      const result = await call('POST', path, { rows });
      for (const row of result.json.rows) versions.set(row.key, row.version);
      return { ...result, rows: result.json.rows.length };
    });
  }

  const elementsPath = `/api/databases/${catalogue.id}/elements/bulk`;
  const tasksPath = `/api/databases/${catalogue.id}/taskConfigurations/bulk`;
  for (const path of [elementsPath, tasksPath]) {
    const wire = await wireSize(path);
    console.log(
      `${path.split('/').at(-2)}: ${Math.round(wire.bytes / 1024)} KB on the wire (${wire.encoding})`,
    );
  }
  await measure(`GET database elements/bulk (${elementCount})`, get(elementsPath));
  await measure(
    `GET store elements/bulk (merged, ${overrideCount} overrides)`,
    get(`/api/stores/${store.id}/elements/bulk`),
  );
  await saves(
    `POST database elements/bulk, ${changedCount} changed rows`,
    elementsPath,
    (row, round) => ({
      name: `${row.name.split(' #')[0]} #${round}`,
      minimum_temperature: -30 + (round % 5),
      maximum_temperature: -10 + (round % 5),
    }),
  );
  await measure(`GET database taskConfigurations/bulk (${taskCount})`, get(tasksPath));
  await measure(
    'GET store taskConfigurations/bulk (merged)',
    get(`/api/stores/${store.id}/taskConfigurations/bulk`),
  );
  await saves(
    `POST database taskConfigurations/bulk, ${Math.min(changedCount, taskCount)} changed rows`,
    tasksPath,
    (row, round) => ({
      name: `${row.name.split(' #')[0]} #${round}`,
      schedules: [
        { start: 420 + (round % 30), end: 480 + (round % 30) },
        { start: 900, end: 960 },
      ],
      requires_manager: round % 2 === 0,
    }),
  );
} finally {
  await stopServer();
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
  if (!isKeeping) rmSync(dataDir, { recursive: true, force: true });
}
console.log(`load average after: ${loadavg()[0]!.toFixed(1)}`);

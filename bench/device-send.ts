/**
 * Tablets sending records (issue 14; not a test). The app is built and started in this
 * process (buildApp, no logger, no web app, no scheduler) on a fresh database: embedded PGlite
 * in a temporary folder, or, when DATABASE_URL is given, a scratch PostgreSQL database
 * `mise_bench_device` on that server (dropped at the end unless BENCH_KEEP=true).
 *
 * One licensed store (maximum_devices raised) with one traceability element; 10 tablets
 * (BENCH_TABLETS) pair through POST /api/devices/register with its key, one employee per
 * tablet is identified with a PIN, then:
 *
 *   1. results: each tablet sends BENCH_SENDS (default 50) results of open tasks of today
 *      (actions, or temperatures with BENCH_RESULT_MODULE=temperatures), one after another,
 *      the tablets all at once (POST /api/device/tasks/:id/result, each with its key);
 *   2. unscheduled: each tablet creates BENCH_SENDS traceability tasks with their result
 *      (POST /api/device/tasks), the tablets all at once.
 *
 * Prints p50 / p95 / p99 / max of the send latency (request to answer, over HTTP on
 * loopback) and the throughput of each phase; a warm-up of 5 sends per tablet is left out.
 *
 *   node --import tsx bench/device-send.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/device-send.ts
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { tasks } from '../apps/server/src/db/schema';
import { hashEmployeeSecret } from '../apps/server/src/modules/device/employees.service';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildEmployee,
  buildStore,
} from '../apps/server/src/test/factories';
import { noonZone } from '../apps/server/src/test/zones';
import { dayInZone } from '../packages/shared/src/tasks/rules';

const tabletCount = Number(process.env.BENCH_TABLETS ?? 10);
const sendsPerTablet = Number(process.env.BENCH_SENDS ?? 50);
const warmUpPerTablet = 5;
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_device';
const pin = '1234';
/**
 * The module of the scheduled tasks sent in phase 1: actions (default) or temperatures. A
 * temperatures result also recounts its store-day's equipment summary (home), whose cost grows
 * with the day's temperature tasks: 550 of them in one store-day here, far above a real store.
 */
const resultModule: 'temperatures' | 'actions' =
  process.env.BENCH_RESULT_MODULE === 'temperatures' ? 'temperatures' : 'actions';

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
const round1 = (value: number) => Math.round(value * 10) / 10;

function report(label: string, latencies: number[], elapsedMs: number): void {
  const sorted = [...latencies].sort((left, right) => left - right);
  console.log(
    `${label.padEnd(34)} n=${sorted.length}  p50 ${round1(percentile(sorted, 0.5))} ms  ` +
      `p95 ${round1(percentile(sorted, 0.95))} ms  p99 ${round1(percentile(sorted, 0.99))} ms  ` +
      `max ${round1(sorted.at(-1) ?? 0)} ms  ${Math.round((sorted.length / elapsedMs) * 1000)} req/s`,
  );
}

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-device-'));
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = adminUrl
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 10 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'http://127.0.0.1',
  ...(adminUrl ? { DATABASE_URL: databaseUrl(benchDatabase) } : {}),
});
const app = await buildApp({ config, database, logger: false, isServingWeb: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

// The store, its element and its employees (one per tablet, PIN 1234 hashed once).
const { db } = database;
const zone = noonZone();
const distributor = await buildDistributor(db);
const catalogue = await buildDatabase(db, { distributor_id: distributor.id });
const pairingKey = `BENCH${randomUUID().slice(0, 6).toUpperCase()}`;
const store = await buildStore(db, {
  distributor_id: distributor.id,
  database_id: catalogue.id,
  timezone_name: zone,
  mise_licence: true,
  maximum_devices: tabletCount + 5,
  pairing_key: pairingKey,
  created_at: new Date(Date.now() - 86_400_000),
});
const element = await buildDatabaseElement(db, {
  database_id: catalogue.id,
  name: 'Chicken',
  traceability_module_active: true,
});
await hashEmployeeSecret(pin);
const staff = [];
for (let index = 0; index < tabletCount; index += 1) {
  staff.push(await buildEmployee(db, { storeIds: [store.id], name: `Cook ${index + 1}`, pin }));
}

async function call(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

// Pairing and identification, as the tablet app does them.
type Tablet = { headers: Record<string, string> };
const tablets: Tablet[] = [];
for (let index = 0; index < tabletCount; index += 1) {
  const paired = await call('POST', '/api/devices/register', {
    pairing_key: pairingKey,
    device_id: `bench-tablet-${index}`,
    device_model: 'Bench Tab',
  });
  if (paired.status !== 200) throw new Error(`pairing failed: ${JSON.stringify(paired.json)}`);
  const authorization = `Bearer ${paired.json.token as string}`;
  const identified = await call(
    'POST',
    `/api/device/employees/${staff[index]!.id}/authenticate`,
    { pin },
    { authorization },
  );
  if (identified.status !== 200) throw new Error(`PIN refused: ${JSON.stringify(identified.json)}`);
  tablets.push({
    headers: { authorization, 'x-employee-token': identified.json.employee_token as string },
  });
}

// Open temperature tasks of today: one per result to send, started an hour ago.
const perTablet = warmUpPerTablet + sendsPerTablet;
const today = dayInZone(new Date(), zone);
const start = new Date(Date.now() - 3_600_000);
const elementSnapshot = {
  id: element.id,
  name: element.name,
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: null,
  reheating_temperature: null,
  cooling_temperature: null,
};
const rows = Array.from({ length: tabletCount * perTablet }, (_, index) => ({
  store_id: store.id,
  database_id: catalogue.id,
  day: today,
  name: `Check ${index + 1}`,
  module: resultModule,
  start,
  duration: 120,
  elements: resultModule === 'temperatures' ? [elementSnapshot] : [],
  actions:
    resultModule === 'actions' ? [{ name: 'Surfaces cleaned', requires_picture: false }] : [],
}));
const taskIds: string[] = [];
for (let offset = 0; offset < rows.length; offset += 500) {
  const inserted = await db
    .insert(tasks)
    .values(rows.slice(offset, offset + 500))
    .returning({ id: tasks.id });
  taskIds.push(...inserted.map((row) => row.id));
}

const actionsResult = (done: boolean) => ({
  entries: [{ index: 0, action: 'Surfaces cleaned', done, requires_picture: false, picture: null }],
});
const temperatureResult = (temperature: number) => ({
  entries: [
    {
      element: element.id,
      temperature,
      first_temperature: null,
      control_temperature: null,
      comment: '',
      pictures: [],
      timestamp: Math.floor(Date.now() / 1000),
    },
  ],
});

/** Each tablet sends its requests one after another; the tablets run at once. */
async function runPhase(
  label: string,
  request: (tablet: number, index: number) => Promise<{ status: number }>,
): Promise<void> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    tablets.map(async (_, tablet) => {
      for (let index = 0; index < perTablet; index += 1) {
        const before = performance.now();
        const response = await request(tablet, index);
        const elapsed = performance.now() - before;
        if (response.status !== 200) throw new Error(`${label}: answered ${response.status}`);
        if (index >= warmUpPerTablet) latencies.push(elapsed);
      }
    }),
  );
  report(label, latencies, performance.now() - started);
}

console.log(
  `\nDevice sends on ${driverLabel}: ${tabletCount} tablets × ${sendsPerTablet} sends ` +
    `(+${warmUpPerTablet} warm-up each), ${cpus().length} cores, load average ` +
    `${loadavg()[0]!.toFixed(1)}, server and tablets in one process`,
);
await runPhase(`POST /api/device/tasks/:id/result (${resultModule})`, (tablet, index) =>
  call(
    'POST',
    `/api/device/tasks/${taskIds[tablet * perTablet + index]!}/result`,
    {
      idempotency_key: randomUUID(),
      result:
        resultModule === 'temperatures'
          ? temperatureResult(2 + (index % 4))
          : actionsResult(index % 5 !== 0),
    },
    tablets[tablet]!.headers,
  ),
);
await runPhase('POST /api/device/tasks (traceability)', (tablet) =>
  call(
    'POST',
    '/api/device/tasks',
    {
      id: randomUUID(),
      idempotency_key: randomUUID(),
      module: 'traceability',
      element: element.id,
      result: { entries: [{ element: element.id, pictures: [] }] },
    },
    tablets[tablet]!.headers,
  ),
);

await app.close();
await database.close();
if (adminUrl && !isKeeping) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  });
}
rmSync(dataDir, { recursive: true, force: true });

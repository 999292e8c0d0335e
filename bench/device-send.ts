/**
 * Tablets sending records (issue 14; not a test). The API runs in its own process
 * (bench/api-server.ts: buildApp, no logger, no web app, no scheduler) so the load
 * generator here does not share its event loop; the database is a fresh one: embedded PGlite
 * in a temporary folder (seeded here, closed, then opened by the server process alone), or,
 * when DATABASE_URL is given, a scratch PostgreSQL database `mise_bench_device` on that server
 * (dropped at the end unless BENCH_KEEP=true).
 *
 * Three licensed stores of one catalogue; 10 tablets (BENCH_TABLETS) pair with each store's
 * key through POST /api/devices/register and identify one employee each with a PIN. Then:
 *
 * Saturation (closed loop): each tablet sends BENCH_SENDS (default 50) records one after
 * another, as fast as the answers come, the tablets all at once (5 warm-up sends each left
 * out). Far above a kitchen's pace: it shows where a send queues under load.
 *   1. results of open actions tasks of today (POST /api/device/tasks/:id/result);
 *   2. results of open temperature tasks, in another store whose one store-day then holds
 *      550 temperature tasks (each result recounts the day's equipment summary);
 *   3. unscheduled traceability tasks with their result (POST /api/device/tasks).
 *
 * Paced (open loop): the 10 tablets of a third store each send one record every second
 * (BENCH_PACED_SECONDS, default 30; the tablets' clocks spread over the second), whether or
 * not the previous answer came, each record of a kind in turn: an actions result (3
 * sub-tasks), a temperatures result (2 fridges), an unscheduled traceability record, an
 * unscheduled temperature control start. Still well above a kitchen's pace, on a realistic
 * store-day: 75 tasks of each module.
 *
 * Prints p50 / p95 / p99 / max of the send latency (request to answer, over HTTP on
 * loopback) and the throughput of each phase.
 *
 *   node --import tsx bench/device-send.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/device-send.ts
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
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
const pacedSeconds = Number(process.env.BENCH_PACED_SECONDS ?? 30);
const warmUpPerTablet = 5;
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_device';
const pin = '1234';

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
    `${label.padEnd(52)} n=${sorted.length}  p50 ${round1(percentile(sorted, 0.5))} ms  ` +
      `p95 ${round1(percentile(sorted, 0.95))} ms  p99 ${round1(percentile(sorted, 0.99))} ms  ` +
      `max ${round1(sorted.at(-1) ?? 0)} ms  ${Math.round((sorted.length / elapsedMs) * 1000)} req/s` +
      `  (load ${loadavg()[0]!.toFixed(1)})`,
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
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 4 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);

// The stores, their elements and the employees (one per tablet, of every store; PIN 1234).
const { db } = database;
const zone = noonZone();
const distributor = await buildDistributor(db);
const catalogue = await buildDatabase(db, { distributor_id: distributor.id });
type BenchStore = { id: string; pairingKey: string };
async function benchStore(): Promise<BenchStore> {
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
  return { id: store.id, pairingKey };
}
const actionsStore = await benchStore();
const temperaturesStore = await benchStore();
const pacedStore = await benchStore();
const chicken = await buildDatabaseElement(db, {
  database_id: catalogue.id,
  name: 'Chicken',
  traceability_module_active: true,
  temperature_control_module_active: true,
});
const fridges = [
  await buildDatabaseElement(db, { database_id: catalogue.id, name: 'Fridge 1' }),
  await buildDatabaseElement(db, { database_id: catalogue.id, name: 'Fridge 2' }),
];
await hashEmployeeSecret(pin);
const staff: { id: string }[] = [];
for (let index = 0; index < tabletCount; index += 1) {
  staff.push(
    await buildEmployee(db, {
      storeIds: [actionsStore.id, temperaturesStore.id, pacedStore.id],
      name: `Cook ${index + 1}`,
      pin,
    }),
  );
}

// Open tasks of today, started an hour ago.
const today = dayInZone(new Date(), zone);
const start = new Date(Date.now() - 3_600_000);
const snapshot = (element: { id: string; name: string }) => ({
  id: element.id,
  name: element.name,
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: null,
  reheating_temperature: null,
  cooling_temperature: null,
});
const actionNames = ['Surfaces cleaned', 'Bins emptied', 'Floor mopped'];
async function openTasks(
  storeId: string,
  module: 'actions' | 'temperatures',
  count: number,
  elementCount: number,
): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, index) => ({
    store_id: storeId,
    database_id: catalogue.id,
    day: today,
    name: `Check ${index + 1}`,
    module,
    start,
    duration: 120,
    elements: module === 'temperatures' ? fridges.slice(0, elementCount).map(snapshot) : [],
    actions:
      module === 'actions'
        ? actionNames.slice(0, elementCount).map((name) => ({ name, requires_picture: false }))
        : [],
  }));
  const ids: string[] = [];
  for (let offset = 0; offset < rows.length; offset += 500) {
    const inserted = await db
      .insert(tasks)
      .values(rows.slice(offset, offset + 500))
      .returning({ id: tasks.id });
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}
const perTablet = warmUpPerTablet + sendsPerTablet;
const saturationActions = await openTasks(actionsStore.id, 'actions', tabletCount * perTablet, 1);
const saturationTemperatures = await openTasks(
  temperaturesStore.id,
  'temperatures',
  tabletCount * perTablet,
  1,
);
// The paced store's day: each tablet sends kind (tablet + second) % 4 at each second.
const pacedKinds = ['actions', 'temperatures', 'traceability', 'temperature_control'] as const;
const pacedPlan = Array.from({ length: tabletCount }, (_, tablet) =>
  Array.from({ length: pacedSeconds }, (_, second) => pacedKinds[(tablet + second) % 4]!),
);
const pacedCount = (kind: (typeof pacedKinds)[number]) =>
  pacedPlan.flat().filter((item) => item === kind).length;
const pacedActions = await openTasks(pacedStore.id, 'actions', pacedCount('actions'), 3);
const pacedTemperatures = await openTasks(
  pacedStore.id,
  'temperatures',
  pacedCount('temperatures'),
  2,
);
// PGlite allows one process: the server opens the folder once the seed is written.
await database.close();

// The API in its own process.
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
      // Pairing is rate-limited per address: each tablet pairs from its own (X-Forwarded-For).
      TRUST_PROXY: 'true',
      ...(adminUrl ? { DATABASE_URL: databaseUrl(benchDatabase) } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
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
let pairedCount = 0;
async function pairTablets(store: BenchStore, name: string): Promise<Tablet[]> {
  const paired: Tablet[] = [];
  for (let index = 0; index < tabletCount; index += 1) {
    const registered = await call(
      'POST',
      '/api/devices/register',
      { pairing_key: store.pairingKey, device_id: `bench-${name}-${index}`, device_model: 'Bench' },
      { 'x-forwarded-for': `10.0.${pairedCount}.1` },
    );
    if (registered.status !== 200) {
      throw new Error(`pairing failed: ${JSON.stringify(registered.json)}`);
    }
    const authorization = `Bearer ${registered.json.token as string}`;
    const identified = await call(
      'POST',
      `/api/device/employees/${staff[index]!.id}/authenticate`,
      { pin },
      { authorization },
    );
    if (identified.status !== 200) {
      throw new Error(`PIN refused: ${JSON.stringify(identified.json)}`);
    }
    pairedCount += 1;
    paired.push({
      headers: { authorization, 'x-employee-token': identified.json.employee_token as string },
    });
  }
  return paired;
}
let actionsTablets: Tablet[] = [];
let temperaturesTablets: Tablet[] = [];
let pacedTablets: Tablet[] = [];

const actionsResult = (count: number, done: boolean) => ({
  entries: actionNames.slice(0, count).map((action, index) => ({
    index,
    action,
    done,
    requires_picture: false,
    picture: null,
  })),
});
const temperaturesResult = (count: number, temperature: number) => ({
  entries: fridges.slice(0, count).map((fridge) => ({
    element: fridge.id,
    temperature,
    first_temperature: null,
    control_temperature: null,
    comment: '',
    pictures: [],
    timestamp: Math.floor(Date.now() / 1000),
  })),
});
const traceabilityTask = (tablet: Tablet) =>
  call(
    'POST',
    '/api/device/tasks',
    {
      id: randomUUID(),
      idempotency_key: randomUUID(),
      module: 'traceability',
      element: chicken.id,
      result: { entries: [{ element: chicken.id, pictures: [] }] },
    },
    tablet.headers,
  );
const controlStart = (tablet: Tablet) =>
  call(
    'POST',
    '/api/device/tasks',
    {
      id: randomUUID(),
      idempotency_key: randomUUID(),
      module: 'temperature_control',
      element: chicken.id,
      result: {
        entries: [
          {
            element: chicken.id,
            mode: 'cooling',
            target_temperature: 3,
            start_temperature: 63,
            start_timestamp: Math.floor(Date.now() / 1000),
            end_temperature: null,
            end_timestamp: null,
            comment: '',
          },
        ],
      },
    },
    tablet.headers,
  );
const sendResult = (tablet: Tablet, taskId: string, result: unknown) =>
  call(
    'POST',
    `/api/device/tasks/${taskId}/result`,
    { idempotency_key: randomUUID(), result },
    tablet.headers,
  );

/** Closed loop: each tablet sends its requests one after another; the tablets run at once. */
async function runSaturation(
  label: string,
  tablets: Tablet[],
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

/** Open loop: each tablet sends one record a second on its own clock, answered or not. */
async function runPaced(): Promise<void> {
  const latencies: number[] = [];
  const byKind = new Map<string, number[]>();
  const pools = { actions: [...pacedActions], temperatures: [...pacedTemperatures] };
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let tablet = 0; tablet < tabletCount; tablet += 1) {
    for (let second = 0; second < pacedSeconds; second += 1) {
      const kind = pacedPlan[tablet]![second]!;
      const at = second * 1000 + (tablet * 1000) / tabletCount;
      const taskId =
        kind === 'actions' || kind === 'temperatures' ? pools[kind].shift()! : undefined;
      sends.push(
        new Promise<void>((resolve, reject) => {
          setTimeout(async () => {
            try {
              const device = pacedTablets[tablet]!;
              const before = performance.now();
              const response =
                kind === 'actions'
                  ? await sendResult(device, taskId!, actionsResult(3, second % 5 !== 0))
                  : kind === 'temperatures'
                    ? await sendResult(device, taskId!, temperaturesResult(2, 2 + (second % 4)))
                    : kind === 'traceability'
                      ? await traceabilityTask(device)
                      : await controlStart(device);
              const elapsed = performance.now() - before;
              if (response.status !== 200) throw new Error(`paced ${kind}: ${response.status}`);
              latencies.push(elapsed);
              byKind.set(kind, [...(byKind.get(kind) ?? []), elapsed]);
              resolve();
            } catch (error) {
              reject(error);
            }
          }, at);
        }),
      );
    }
  }
  await Promise.all(sends);
  const elapsed = performance.now() - started;
  report('paced, every record', latencies, elapsed);
  for (const kind of pacedKinds) report(`  of which ${kind}`, byKind.get(kind) ?? [], elapsed);
}

console.log(
  `\nDevice sends on ${driverLabel}, the API in its own process: ${tabletCount} tablets, ` +
    `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `Saturation (closed loop): ${tabletCount} tablets × ${sendsPerTablet} sends ` +
    `(+${warmUpPerTablet} warm-up each), back to back`,
);
try {
  actionsTablets = await pairTablets(actionsStore, 'actions');
  temperaturesTablets = await pairTablets(temperaturesStore, 'temperatures');
  pacedTablets = await pairTablets(pacedStore, 'paced');
  await runSaturation('POST /api/device/tasks/:id/result (actions)', actionsTablets, (t, i) =>
    sendResult(
      actionsTablets[t]!,
      saturationActions[t * perTablet + i]!,
      actionsResult(1, i % 5 !== 0),
    ),
  );
  await runSaturation(
    'POST /api/device/tasks/:id/result (temperatures)',
    temperaturesTablets,
    (t, i) =>
      sendResult(
        temperaturesTablets[t]!,
        saturationTemperatures[t * perTablet + i]!,
        temperaturesResult(1, 2 + (i % 4)),
      ),
  );
  await runSaturation('POST /api/device/tasks (traceability)', actionsTablets, (t) =>
    traceabilityTask(actionsTablets[t]!),
  );
  console.log(
    `Paced (open loop): ${tabletCount} tablets × 1 record/s for ${pacedSeconds} s, ` +
      `kinds in turn, one store-day of ~${pacedCount('actions')} tasks per module`,
  );
  await runPaced();
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}

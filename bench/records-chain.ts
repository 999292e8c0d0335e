/**
 * The records chain (issue 21; not a test). On a fresh database: embedded PGlite in a temporary
 * folder, or, when DATABASE_URL is given, a scratch PostgreSQL database `mise_bench_records` on
 * that server (dropped at the end unless BENCH_KEEP=true).
 *
 * 1. What the chain append adds to a task result write. The server's own write
 *    (submitTaskResult: lock the task, insert the revision, update the task, append) is bundled
 *    twice with esbuild: as it is, and with `appendToChain` stubbed out. Both complete
 *    BENCH_WRITES (default 1 000) temperature tasks of one store each, alternately (one with,
 *    one without, so the machine's load moves both alike), one at a time, after 100 warm-up
 *    writes each; prints p50 / p95 / p99 of each and the difference of the medians.
 * 2. Verifying a year of one busy store: BENCH_RECORD_DAYS (default 365) days of ~60 revisions
 *    each (48 task results, a correction every 8th, 3 employees clocking in and out with
 *    their punch revisions), written day by day and appended with appendToChain (one call per
 *    day, the day's revisions in time order). Then times the verifier over the whole chain,
 *    over the year as a period, and over its last 31 days.
 *
 *   node --import tsx bench/records-chain.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/records-chain.ts
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  punchEntries,
  punchEntryRevisions,
  taskResultRevisions,
  tasks,
} from '../apps/server/src/db/schema';
import { appendToChain, type ChainEntryInput } from '../apps/server/src/modules/records/chain';
import { punchEntryRevisionContent } from '../apps/server/src/modules/records/sources/punch-entry-revisions';
import { taskResultRevisionContent } from '../apps/server/src/modules/records/sources/task-result-revisions';
import { verifyRecordsChain } from '../apps/server/src/modules/records/verify';
import {
  buildDatabase,
  buildDistributor,
  buildEmployee,
  buildStore,
} from '../apps/server/src/test/factories';
import { noonZone } from '../apps/server/src/test/zones';
import { addDays, dayInZone } from '../packages/shared/src/tasks/rules';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_records';
const writes = Number(process.env.BENCH_WRITES ?? 1000);
const warmUp = 100;
const recordDays = Number(process.env.BENCH_RECORD_DAYS ?? 365);

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
const round2 = (value: number) => Math.round(value * 100) / 100;

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
  };
}

type WriteLib = {
  submitTaskResult: (
    db: Database,
    actor: {
      deviceId: string;
      storeId: string;
      employee: { id: string; name: string; surname: string };
    },
    taskId: string,
    body: { idempotency_key: string; result: unknown },
    now?: Date,
  ) => Promise<unknown>;
};

/** The server's write bundled as it is, or with the chain append stubbed out. */
async function bundleWrite(isChained: boolean): Promise<WriteLib> {
  const outdir = join(root, 'bench/results/.build');
  mkdirSync(outdir, { recursive: true });
  const name = isChained ? 'records-chain-with' : 'records-chain-without';
  const plugins: Plugin[] = [
    {
      name: 'external-packages',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@mise/') || args.path === 'rrule'
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ];
  if (!isChained) {
    plugins.unshift({
      name: 'no-chain',
      setup(builder) {
        builder.onResolve({ filter: /\/records\/chain$/ }, () => ({
          path: 'chain',
          namespace: 'no-chain',
        }));
        builder.onLoad({ filter: /.*/, namespace: 'no-chain' }, () => ({
          contents: 'export const appendToChain = async () => [];',
          loader: 'js',
        }));
      },
    });
  }
  await build({
    entryPoints: { [name]: join(root, 'bench/records-chain-lib.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    plugins,
  });
  return import(pathToFileURL(join(outdir, `${name}.js`)).href);
}

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-records-'));
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
const { db } = database;
const zone = noonZone();
const distributor = await buildDistributor(db);
const catalogue = await buildDatabase(db, { distributor_id: distributor.id });
const newStore = () =>
  buildStore(db, {
    distributor_id: distributor.id,
    database_id: catalogue.id,
    timezone_name: zone,
  });

const element = (name: string) => ({
  id: crypto.randomUUID(),
  name,
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: null,
  reheating_temperature: null,
  cooling_temperature: null,
});

console.log(`Records chain benchmark on ${driverLabel}, load ${loadavg()[0]!.toFixed(1)}`);

/* ---------- 1. A task result write with and without the append ---------- */
{
  const [withChain, withoutChain] = [await bundleWrite(true), await bundleWrite(false)];
  const store = await newStore();
  const employee = await buildEmployee(db, { storeIds: [store.id], name: 'Jeanne' });
  const actor = {
    deviceId: crypto.randomUUID(),
    storeId: store.id,
    employee: { id: employee.id, name: employee.name, surname: employee.surname },
  };
  const count = 2 * (writes + warmUp);
  const day = dayInZone(new Date(), zone);
  const start = new Date(Date.now() - 10 * 60_000);
  const taskIds: string[] = [];
  for (let offset = 0; offset < count; offset += 500) {
    const rows = await db
      .insert(tasks)
      .values(
        Array.from({ length: Math.min(500, count - offset) }, (_, index) => ({
          store_id: store.id,
          database_id: catalogue.id,
          name: `Fridges ${offset + index}`,
          module: 'temperatures' as const,
          day,
          start,
          duration: 120,
          elements: [element('Fridge 1'), element('Fridge 2')],
        })),
      )
      .returning({ id: tasks.id, elements: tasks.elements });
    taskIds.push(...rows.map((row) => row.id));
  }
  const elementsOf = new Map(
    (await db.select({ id: tasks.id, elements: tasks.elements }).from(tasks)).map((row) => [
      row.id,
      row.elements,
    ]),
  );
  const resultOf = (taskId: string) => ({
    entries: elementsOf.get(taskId)!.map((item, index) => ({
      element: item.id,
      temperature: 2 + index,
      first_temperature: null,
      control_temperature: null,
      comment: '',
      pictures: [],
      timestamp: Math.floor(Date.now() / 1000),
    })),
  });
  const timings = { with: [] as number[], without: [] as number[] };
  for (let index = 0; index < count; index += 1) {
    const isChained = index % 2 === 0;
    const taskId = taskIds[index]!;
    const lib = isChained ? withChain : withoutChain;
    const began = performance.now();
    await lib.submitTaskResult(db, actor, taskId, {
      idempotency_key: `bench-${index}`,
      result: resultOf(taskId),
    });
    const elapsed = performance.now() - began;
    if (index >= 2 * warmUp) (isChained ? timings.with : timings.without).push(elapsed);
  }
  const chained = summary(timings.with);
  const bare = summary(timings.without);
  const line = (label: string, figures: ReturnType<typeof summary>) =>
    console.log(
      `${label.padEnd(40)} n=${writes}  p50 ${round2(figures.p50)} ms  p95 ${round2(figures.p95)} ms  p99 ${round2(figures.p99)} ms`,
    );
  line('task result write, without the chain', bare);
  line('task result write, with the chain', chained);
  console.log(
    `${'chain append adds (p50 difference)'.padEnd(40)} ${round2(chained.p50 - bare.p50)} ms  (p95 ${round2(chained.p95 - bare.p95)} ms)`,
  );
}

/* ---------- 2. Verifying a year of one busy store ---------- */
{
  const store = await newStore();
  const staff = await Promise.all(
    ['Jeanne', 'Karim', 'Lena'].map((name) => buildEmployee(db, { storeIds: [store.id], name })),
  );
  const lastDay = dayInZone(new Date(), zone);
  const firstDay = addDays(lastDay, -(recordDays - 1));
  const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
  const generationStarted = performance.now();
  let revisionCount = 0;
  for (let offset = 0; offset < recordDays; offset += 1) {
    const day = addDays(firstDay, offset);
    const midnight = dayStart(day).getTime();
    const at = (minute: number) => new Date(midnight + minute * 60_000);
    await db.transaction(async (tx) => {
      const dayTasks = await tx
        .insert(tasks)
        .values(
          Array.from({ length: 48 }, (_, index) => ({
            store_id: store.id,
            database_id: catalogue.id,
            name: `Check ${index}`,
            module: 'temperatures' as const,
            day,
            start: at(360 + index * 15),
            duration: 60,
            elements: [element('Fridge 1'), element('Fridge 2')],
          })),
        )
        .returning();
      const revisions = await tx
        .insert(taskResultRevisions)
        .values(
          dayTasks.flatMap((task, index) => {
            const employee = staff[index % staff.length]!;
            const base = {
              task_id: task.id,
              store_id: store.id,
              kind: 'result' as const,
              completed_timestamp: at(370 + index * 15),
              employee_id: employee.id,
              employee: { name: employee.name, surname: employee.surname },
              request_hash: 'bench',
            };
            const result = (temperature: number) => ({
              entries: task.elements.map((item) => ({
                element: item.id,
                temperature,
                first_temperature: null,
                control_temperature: null,
                comment: '',
                pictures: [],
                timestamp: Math.floor(at(370 + index * 15).getTime() / 1000),
              })),
            });
            const first = {
              ...base,
              revision: 1,
              result: result(3),
              idempotency_key: `${task.id}:1`,
              created_at: at(370 + index * 15),
            };
            if (index % 8 !== 0) return [first];
            return [
              first,
              {
                ...base,
                revision: 2,
                result: result(4),
                reason: 'Corrected',
                idempotency_key: `${task.id}:2`,
                created_at: at(380 + index * 15),
              },
            ];
          }),
        )
        .returning();
      const entries = await tx
        .insert(punchEntries)
        .values(
          staff.flatMap((employee) =>
            [
              [true, 480],
              [false, 1020],
            ].map(([isIn, minute]) => ({
              store_id: store.id,
              employee_id: employee.id,
              day,
              is_in: isIn as boolean,
              timestamp: at(minute as number),
              source: 'device' as const,
            })),
          ),
        )
        .returning();
      const punches = await tx
        .insert(punchEntryRevisions)
        .values(
          entries.map((entry) => ({
            entry_id: entry.id,
            store_id: store.id,
            action: 'create' as const,
            before: null,
            after: {
              is_in: entry.is_in,
              timestamp: entry.timestamp.toISOString(),
              timestamp_modified: null,
            },
            employee_id: entry.employee_id,
            created_at: entry.timestamp,
          })),
        )
        .returning();
      const inputs: (ChainEntryInput & { at: number })[] = [
        ...revisions.map((row) => ({
          storeId: store.id,
          kind: 'task_result_revision' as const,
          recordId: row.id,
          record: taskResultRevisionContent(row),
          at: row.created_at.getTime(),
        })),
        ...punches.map((row) => ({
          storeId: store.id,
          kind: 'punch_entry_revision' as const,
          recordId: row.id,
          record: punchEntryRevisionContent(row),
          at: row.created_at.getTime(),
        })),
      ].sort((left, right) => left.at - right.at);
      await appendToChain(
        tx as unknown as Database,
        inputs.map(({ at: _at, ...input }) => input),
        at(23 * 60),
      );
      revisionCount += inputs.length;
    });
  }
  console.log(
    `generated ${recordDays} days, ${revisionCount} revisions (${Math.round(revisionCount / recordDays)} a day) in ${round2((performance.now() - generationStarted) / 1000)} s`,
  );
  const timed = async (label: string, options: { from?: Date; to?: Date }) => {
    const began = performance.now();
    const answer = await verifyRecordsChain(db, store.id, options);
    const seconds = (performance.now() - began) / 1000;
    const memory = Math.round(process.memoryUsage().rss / 1024 / 1024);
    console.log(
      `${label.padEnd(40)} ${answer.status}, ${answer.entries} entries in ${round2(seconds)} s  (rss ${memory} MB)`,
    );
    if (answer.status !== 'intact') console.log(JSON.stringify(answer.first));
  };
  await timed('verify the whole chain', {});
  await timed(`verify the ${recordDays} days as a period`, {
    from: dayStart(firstDay),
    to: dayStart(addDays(lastDay, 1)),
  });
  await timed('verify the last 31 days', {
    from: dayStart(addDays(lastDay, -30)),
    to: dayStart(addDays(lastDay, 1)),
  });
}

await database.close();
if (adminUrl && !isKeeping) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  });
}
rmSync(dataDir, { recursive: true, force: true });

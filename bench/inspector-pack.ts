/**
 * Inspector pack benchmark (issue 21; not a test). A store with a busy calendar month — the
 * month before the current one — then its inspector pack built through the API, timed:
 *
 * - 60 tasks a day (40 temperature readings of 3 elements, 10 cleaning plans of 4 actions with
 *   a photo, 5 oil checks of 2 fryers, 5 coolings or reheatings), 90 % done (some late, some
 *   anomalies), 8 % never done, one result in ten corrected (a second revision with a reason);
 * - 8 employees clocking in and out twice a day, 6 days a week;
 * - 6 probes reading every 5 minutes (4 bound to the store's elements), 30 alert episodes;
 * - 3 audit results submitted in the month (the demo's audit), rendered as PDFs by the build;
 * - the photos of the cleaning plans (one JPEG each, 1600×1200) in the storage: the history
 *   PDF prints them as thumbnails;
 * - one chain entry per result revision.
 *
 * The app runs in this process (buildApp, as the tests do) on a scratch PostgreSQL database
 * (`mise_bench_pack` on DATABASE_URL, default the local server) or, with BENCH_DRIVER=pglite,
 * on PGlite in a temporary folder. The pack is asked for by the store's owner
 * (POST /api/stores/:id/inspector-packs), its status followed (GET) until done, BENCH_RUNS times
 * (default 3): per run the wall time, the ZIP's size, the longest event-loop stall and the
 * resident memory's peak; then the ZIP is read back (yauzl) and each file's hash checked against
 * the manifest.
 *
 *   node --import tsx bench/inspector-pack.ts
 *   BENCH_DRIVER=pglite BENCH_RUNS=1 node --import tsx bench/inspector-pack.ts
 */

import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  alertEpisodes,
  auditResults,
  databases,
  probes,
  punchEntries,
  storeElements,
  taskResultRevisions,
  tasks,
} from '../apps/server/src/db/schema';
import { seedDemo } from '../apps/server/src/db/seed/demo';
import { readZip } from '../apps/server/src/modules/inspector-pack/zip-test-support';
import { appendToChain } from '../apps/server/src/modules/records/chain';
import { buildEmployee, buildStore, buildUser } from '../apps/server/src/test/factories';
import { previousMonth } from '../packages/shared/src/records/pack';
import { addDays, dayInZone, localMinuteToInstant } from '../packages/shared/src/tasks/rules';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const isPglite = process.env.BENCH_DRIVER === 'pglite';
const runs = Number(process.env.BENCH_RUNS ?? 3);
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_pack';
const zone = 'Europe/Paris';
const tasksPerDay = 60;
const readingEveryMinutes = 5;

const round1 = (value: number) => Math.round(value * 10) / 10;
const secondsSince = (started: number) => round1((performance.now() - started) / 1000);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
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

/* ---------- Database and app ---------- */

const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-pack-'));
if (!isPglite) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = isPglite
  ? await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') })
  : await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 5 });
await runMigrations(database);
const { db } = database;
const config = loadConfig({
  // As the tests: no load shedding, silent logs.
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: join(dataDir, 'data'),
  PUBLIC_URL: 'http://bench.test',
});
const app = await buildApp({ config, database, logger: false, isServingWeb: false });
await app.ready();

/* ---------- A busy month ---------- */

const generationStarted = performance.now();
await seedDemo(db);
const [demoDatabase] = await db
  .select({ id: databases.id, distributor: databases.distributor_id })
  .from(databases)
  .where(eq(databases.name, 'Bistro Group'));
const store = await buildStore(db, {
  name: 'Brasserie du Marché (bench)',
  distributor_id: demoDatabase!.distributor,
  database_id: demoDatabase!.id,
  timezone_name: zone,
  mise_licence: true,
  address: '1 place du Marché',
  city: 'Lyon',
});
const ownerPassword = 'Bench-pack-2026';
const owner = await buildUser(db, {
  role: 'customer',
  ownedStoreIds: [store.id],
  password: ownerPassword,
});
const month = previousMonth(dayInZone(new Date(), zone));
const days: string[] = [];
for (let day = month.start; day <= month.end; day = addDays(day, 1)) days.push(day);

const firstNames = ['Camille', 'Hugo', 'Léa', 'Nadia', 'Karim', 'Julie', 'Tom', 'Inès'];
const surnames = ['Martin', 'Bernard', 'Dubois', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Fournier'];
const employees = [];
for (const [index, name] of firstNames.entries()) {
  employees.push(
    await buildEmployee(db, {
      storeIds: [store.id],
      name,
      surname: surnames[index]!,
      database_id: demoDatabase!.id,
      pin: null,
    }),
  );
}

const element = (name: string, minimum: number | null, maximum: number | null) => ({
  id: randomUUID(),
  name,
  minimum_temperature: minimum,
  maximum_temperature: maximum,
  maximum_polarity: 25,
  reheating_temperature: 63,
  cooling_temperature: 10,
});
const cold = Array.from({ length: 16 }, (_, index) =>
  index < 13
    ? element(`Chambre froide ${index + 1}`, 0, 4)
    : element(`Congélateur ${index - 12}`, -25, -18),
);
const fryers = Array.from({ length: 4 }, (_, index) =>
  element(`Friteuse ${index + 1}`, null, null),
);
const cells = Array.from({ length: 4 }, (_, index) => element(`Cellule ${index + 1}`, null, null));
const actionNames = [
  'Nettoyer et désinfecter le plan de travail',
  'Vider et laver les poubelles',
  'Désinfecter les poignées de porte',
  'Nettoyer la trancheuse',
];

// One photo, stored under each cleaning plan's key (the PDF reads and resizes every one).
const photo = await sharp({
  create: {
    width: 1600,
    height: 1200,
    channels: 3,
    background: '#808080',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .jpeg({ quality: 80 })
  .toBuffer();

type TaskRow = typeof tasks.$inferInsert;
const taskRows: TaskRow[] = [];
const revisionRows: (typeof taskResultRevisions.$inferInsert)[] = [];
const photoKeys: string[] = [];
let random = 42;
const next = () => {
  random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
  return random / 2_147_483_648;
};
for (const day of days) {
  for (let slot = 1; slot <= tasksPerDay; slot++) {
    const module =
      slot <= 40
        ? 'temperatures'
        : slot <= 50
          ? 'actions'
          : slot <= 55
            ? 'oils'
            : 'temperature_control';
    const minute =
      module === 'temperatures'
        ? 360 + (slot - 1) * 24
        : module === 'actions'
          ? 480 + (slot - 41) * 60
          : module === 'oils'
            ? 600 + (slot - 51) * 90
            : 660 + (slot - 56) * 100;
    const duration = module === 'actions' ? 90 : module === 'temperature_control' ? 120 : 60;
    const start = localMinuteToInstant(day, minute, zone);
    const outcome = next();
    const isAnomalous = next() < 0.06;
    const completed =
      outcome < 0.8
        ? new Date(start.getTime() + duration * 30_000)
        : outcome < 0.92
          ? new Date(start.getTime() + (duration + 20) * 60_000)
          : null;
    const employee = employees[Math.floor(next() * employees.length)]!;
    const id = randomUUID();
    const epoch = completed ? Math.floor(completed.getTime() / 1000) : 0;
    const taskElements =
      module === 'temperatures'
        ? [cold[(slot - 1) % 16]!, cold[slot % 16]!, cold[(slot + 1) % 16]!]
        : module === 'oils'
          ? [fryers[(slot * 2) % 4]!, fryers[(slot * 2 + 1) % 4]!]
          : module === 'temperature_control'
            ? [cells[slot % 4]!]
            : [];
    const actions =
      module === 'actions'
        ? actionNames.map((name, index) => ({ name, requires_picture: index === 0 }))
        : [];
    let result: unknown = null;
    if (completed) {
      if (module === 'temperatures') {
        result = {
          entries: taskElements.map((item, index) => ({
            element: item.id,
            temperature:
              isAnomalous && index === 0
                ? (item.maximum_temperature ?? 0) + 2.5
                : round1((item.minimum_temperature ?? 0) + 0.5 + next() * 3),
            first_temperature: null,
            control_temperature: null,
            comment: isAnomalous && index === 0 ? 'Porte restée ouverte, recontrôlé.' : '',
            pictures: [],
            timestamp: epoch,
          })),
        };
      } else if (module === 'actions') {
        const key = `stores/${store.id}/tasks/${id}.jpg`;
        photoKeys.push(key);
        result = {
          entries: actions.map((action, index) => ({
            index,
            action: action.name,
            done: !(isAnomalous && index === 1),
            requires_picture: action.requires_picture,
            picture: action.requires_picture ? { path: key, timestamp: epoch } : null,
          })),
        };
      } else if (module === 'oils') {
        result = {
          entries: taskElements.map((item, index) => ({
            element: item.id,
            cleaned: next() < 0.3,
            oil_changed: false,
            oil_filtered: true,
            filter_changed: false,
            polarity: isAnomalous && index === 0 ? 27.5 : round1(8 + next() * 14),
            temperature: round1(165 + next() * 15),
            pictures: [],
          })),
        };
      } else {
        const mode = slot <= 58 ? 'cooling' : 'reheating';
        result = {
          entries: taskElements.map((item) => ({
            element: item.id,
            mode,
            target_temperature: mode === 'cooling' ? 10 : 63,
            start_temperature: mode === 'cooling' ? 63 : 4,
            start_timestamp: epoch - 5400,
            end_temperature: mode === 'cooling' ? (isAnomalous ? 14 : 8) : isAnomalous ? 55 : 71,
            end_timestamp: epoch,
            comment: isAnomalous ? 'Objectif non atteint, produit jeté.' : '',
          })),
        };
      }
    }
    const isCorrected = completed !== null && next() < 0.1;
    const who = { name: employee.name, surname: employee.surname };
    taskRows.push({
      id,
      store_id: store.id,
      database_id: demoDatabase!.id,
      day,
      name:
        module === 'temperatures'
          ? `Relevé des températures ${String(slot).padStart(2, '0')}`
          : module === 'actions'
            ? `Plan de nettoyage ${slot - 40}`
            : module === 'oils'
              ? `Contrôle des huiles ${slot - 50}`
              : `${slot <= 58 ? 'Refroidissement' : 'Remise en température'} ${slot - 55}`,
      module,
      start,
      duration,
      elements: taskElements,
      actions,
      completed_timestamp: completed,
      completed_employee: completed ? employee.id : null,
      employee: completed ? who : null,
      result,
      result_anomaly: completed ? isAnomalous : null,
      revision: completed ? (isCorrected ? 2 : 1) : 0,
      created_at: start,
      updated_at: completed ?? start,
    });
    if (completed) {
      const revision = (number: number, at: Date, reason: string | null) => ({
        task_id: id,
        store_id: store.id,
        revision: number,
        kind: 'result' as const,
        result,
        completed_timestamp: completed,
        employee_id: employee.id,
        employee: who,
        reason,
        idempotency_key: `${id}:${number}`,
        request_hash: createHash('sha256').update(`${id}:${number}`).digest('hex'),
        created_at: at,
      });
      revisionRows.push(revision(1, completed, null));
      if (isCorrected) {
        revisionRows.push(
          revision(2, new Date(completed.getTime() + 3_600_000), 'Erreur de saisie corrigée'),
        );
      }
    }
  }
}
const inBatches = async <T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) => {
  for (let index = 0; index < rows.length; index += size)
    await insert(rows.slice(index, index + size));
};
await inBatches(taskRows, 500, (batch) => db.insert(tasks).values(batch));
await inBatches(revisionRows, 500, (batch) => db.insert(taskResultRevisions).values(batch));
await inBatches(revisionRows, 500, (batch) =>
  appendToChain(
    db,
    batch.map((row) => ({
      storeId: store.id,
      kind: 'task_result_revision' as const,
      recordId: `${row.task_id}:${row.revision}`,
      record: { result: row.result, reason: row.reason },
    })),
    batch[0]!.created_at as Date,
  ),
);
for (const key of photoKeys) await app.deps.storage.put(key, photo);

// Punch cards: two shifts a day, Sundays off.
const punchRows: (typeof punchEntries.$inferInsert)[] = [];
for (const day of days) {
  if (new Date(`${day}T12:00:00Z`).getUTCDay() === 0) continue;
  for (const employee of employees) {
    for (const [minute, isIn] of [
      [420, true],
      [690, false],
      [810, true],
      [1020, false],
    ] as const) {
      punchRows.push({
        store_id: store.id,
        employee_id: employee.id,
        day,
        is_in: isIn,
        timestamp: localMinuteToInstant(day, minute + Math.floor(next() * 10), zone),
        source: 'device',
      });
    }
  }
}
await inBatches(punchRows, 500, (batch) => db.insert(punchEntries).values(batch));

// Probes: 6 of the store, 4 bound to its elements; a reading every 5 minutes.
const probeRows = await db
  .insert(probes)
  .values(
    [
      'Chambre froide 1',
      'Chambre froide 2',
      'Chambre froide 3',
      'Congélateur 1',
      'Vitrine',
      'Cave',
    ].map((name, index) => ({
      probe_uid: `bench-pack-${index + 1}`,
      name,
      store_id: store.id,
      secret_hash: createHash('sha256').update(randomUUID()).digest('hex'),
      minimum_temperature: index === 3 ? -25 : 0,
      maximum_temperature: index === 3 ? -18 : 4,
    })),
  )
  .returning();
for (const [index, probe] of probeRows.slice(0, 4).entries()) {
  await db.insert(storeElements).values({
    store_id: store.id,
    name: index === 3 ? 'Congélateur 1' : `Chambre froide ${index + 1}`,
    probe_id: probe.probe_uid,
  });
}
const periodFrom = localMinuteToInstant(month.start, 0, zone);
const periodTo = localMinuteToInstant(addDays(month.end, 1), 0, zone);
for (const [index, probe] of probeRows.entries()) {
  const base = index === 3 ? -21 : 2.5;
  await db.execute(sql`
    insert into probe_readings (probe_id, "timestamp", temperature, battery_level)
    select ${probe.id}::uuid, at,
      round((${base} + 1.2 * sin(extract(epoch from at) / 5400.0 + ${index})
        + (random() - 0.5))::numeric, 1)::real,
      90
    from generate_series(${periodFrom.toISOString()}::timestamptz,
      ${new Date(periodTo.getTime() - 1).toISOString()}::timestamptz,
      ${`${readingEveryMinutes} minutes`}::interval) as at`);
}
const episodeRows: (typeof alertEpisodes.$inferInsert)[] = [];
for (let index = 0; index < 30; index++) {
  const probe = probeRows[index % 6]!;
  const started = new Date(
    periodFrom.getTime() + (index + 0.5) * ((periodTo.getTime() - periodFrom.getTime()) / 30),
  );
  episodeRows.push({
    probe_id: probe.id,
    store_id: store.id,
    kind: index % 5 === 4 ? 'offline' : 'out_of_range',
    started_at: started,
    opened_at: new Date(started.getTime() + 15 * 60_000),
    resolved_at: new Date(started.getTime() + 75 * 60_000),
    minimum_temperature: probe.minimum_temperature,
    maximum_temperature: probe.maximum_temperature,
    delay_minutes: 15,
    worst_value: (probe.maximum_temperature ?? 0) + 3.2,
    last_value: (probe.maximum_temperature ?? 0) + 1,
    escalation_level: index % 3,
    acknowledged_at: new Date(started.getTime() + 40 * 60_000),
    acknowledged_by_name: 'Camille Martin',
    corrective_action: 'Porte refermée, produits contrôlés et déplacés si besoin.',
  });
}
await db.insert(alertEpisodes).values(episodeRows);

// Three audit results submitted in the month (the demo's audit, done again here).
const [demoResult] = await db.select().from(auditResults).limit(1);
const { id: _id, ...resultCopy } = demoResult!;
for (const week of [1, 2, 3]) {
  await db.insert(auditResults).values({
    ...resultCopy,
    store_id: store.id,
    pdf_key: null,
    end_date: localMinuteToInstant(addDays(month.start, week * 7), 15 * 60, zone),
  });
}
console.log(
  `data: ${month.start} – ${month.end}, ${taskRows.length} tasks, ${revisionRows.length} result revisions, ` +
    `${photoKeys.length} photos, ${punchRows.length} punch entries, ` +
    `${probeRows.length * Math.round((periodTo.getTime() - periodFrom.getTime()) / (readingEveryMinutes * 60_000))} probe readings, ` +
    `${episodeRows.length} alert episodes, 3 audit results (generated in ${secondsSince(generationStarted)} s)`,
);

/* ---------- The pack, through the API ---------- */

const login = await app.inject({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: owner.email, password: ownerPassword },
});
const cookie = String(login.headers['set-cookie']).split(';')[0]!;
const csrf = (
  await app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie } })
).json().csrfToken as string;

global.gc?.();
console.log(
  `resident memory before the builds: ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`,
);

type Run = { seconds: number; bytes: number; files: number; stallMs: number; peakRssMb: number };
const results: Run[] = [];
for (let run = 1; run <= runs; run++) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  loop.enable();
  const started = performance.now();
  const asked = await app.inject({
    method: 'POST',
    url: `/api/stores/${store.id}/inspector-packs`,
    headers: { cookie, 'x-csrf-token': csrf },
    payload: { period_start: month.start, period_end: month.end },
  });
  if (asked.statusCode !== 201) throw new Error(`POST: ${asked.statusCode} ${asked.body}`);
  const packId = asked.json().pack.id as string;
  let pack: {
    status: string;
    progress: number;
    file_size: number;
    download_url: string;
    manifest: { files: unknown[] };
  };
  const progressAt: string[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    pack = (
      await app.inject({
        method: 'GET',
        url: `/api/stores/${store.id}/inspector-packs/${packId}`,
        headers: { cookie },
      })
    ).json().pack;
    const mark = `${pack.progress}%@${secondsSince(started)}s`;
    if (!progressAt.at(-1)?.startsWith(`${pack.progress}%`)) progressAt.push(mark);
    if (pack.status === 'done' || pack.status === 'failed') break;
  }
  const seconds = secondsSince(started);
  loop.disable();
  clearInterval(sampler);
  if (pack.status !== 'done') throw new Error(`the pack failed: ${JSON.stringify(pack)}`);
  const result = {
    seconds,
    bytes: pack.file_size,
    files: pack.manifest.files.length,
    stallMs: round1(loop.max / 1e6),
    peakRssMb: Math.round(peakRss / 1024 / 1024),
  };
  results.push(result);
  console.log(
    `run ${run}: ${seconds} s, ZIP ${round1(result.bytes / 1024 / 1024)} MB, ${result.files} files, ` +
      `longest event-loop stall ${result.stallMs} ms, peak RSS ${result.peakRssMb} MB ` +
      `(load ${loadavg()[0]!.toFixed(1)}); progress ${progressAt.join(' ')}`,
  );
  if (run === runs) {
    const download = await app.inject({
      method: 'GET',
      url: pack.download_url,
      headers: { cookie },
    });
    const checkStarted = performance.now();
    const entries = await readZip(download.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as {
      files: { name: string; size: number; sha256: string }[];
      chain_head: { seq: number };
    };
    const mismatches = manifest.files.filter(
      (file) =>
        createHash('sha256')
          .update(entries.get(file.name) ?? '')
          .digest('hex') !== file.sha256,
    );
    console.log(
      `read back: ${entries.size} entries, ${mismatches.length} hash mismatches, chain head seq ${manifest.chain_head.seq} (${secondsSince(checkStarted)} s)`,
    );
    const largest = [...manifest.files].sort((a, b) => b.size - a.size).slice(0, 4);
    console.log(
      `largest files: ${largest.map((file) => `${file.name} ${round1(file.size / 1024)} kB`).join(', ')}`,
    );
  }
}
console.log(
  `inspector pack of a busy month (${isPglite ? 'PGlite' : 'PostgreSQL'}): median ${median(
    results.map((result) => result.seconds),
  )} s over ${runs} runs (target < 30 s)`,
);

await app.close();
await database.close();
if (!isPglite && !isKeeping) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  });
}
if (!isKeeping) rmSync(dataDir, { recursive: true, force: true });

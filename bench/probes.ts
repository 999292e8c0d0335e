/**
 * Probe readings (issue 15; not a test), on PostgreSQL (DATABASE_URL, a scratch database
 * `mise_bench_probes` dropped at the end unless BENCH_KEEP=true), the API in its own process
 * (bench/api-server.ts):
 *
 *   1. ingestion through the API: 50 probes at a time, each posting batches of 100 readings
 *      (POST /api/probes/readings/:probeUid with its secret) one after another; readings/s and
 *      the batch latency; then the same rows again (all duplicates, nothing written);
 *   2. the same number of rows by a bare COPY into probe_readings, for the ratio;
 *   3. the chart of one probe over a year (105,120 readings, one every 5 minutes, loaded by
 *      COPY): POST /api/probes/temperatures/:probeUID for the year by 10 users at once.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/probes.ts
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { probes } from '../apps/server/src/db/schema';
import { ensureProbeReadingPartitions } from '../apps/server/src/modules/probes/probes.service';
import { hashToken } from '../apps/server/src/platform/auth/tokens';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildUser,
  testPassword,
} from '../apps/server/src/test/factories';

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error('DATABASE_URL is required (PostgreSQL)');
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_probes';
const probeCount = 50;
const batchSize = 100;
const batchesPerProbe = Number(process.env.BENCH_BATCHES ?? 40);
const chartUsers = 10;
const chartRequests = Number(process.env.BENCH_CHART_REQUESTS ?? 30);

const url = new URL(adminUrl);
url.pathname = `/${benchDatabase}`;
const benchUrl = url.toString();
async function withAdmin(run: (client: pg.Client) => Promise<void>) {
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
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
};

await withAdmin(async (client) => {
  await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${benchDatabase}`);
});
const database = await openDatabase({ driver: 'pg', url: benchUrl, poolSize: 4 });
await runMigrations(database);
const { db } = database;
const now = new Date();
await ensureProbeReadingPartitions(db, now, { monthsBefore: 13, monthsAhead: 1 });
const distributor = await buildDistributor(db);
const catalogue = await buildDatabase(db, { distributor_id: distributor.id });
const store = await buildStore(db, { distributor_id: distributor.id, database_id: catalogue.id });
const admin = await buildUser(db, { role: 'admin' });
const secrets = new Map<string, string>();
const rows = Array.from({ length: probeCount + 1 }, (_, index) => {
  const secret = `bench-secret-${randomUUID()}`;
  const uid = `BENCH-${String(index).padStart(3, '0')}`;
  secrets.set(uid, secret);
  return {
    probe_uid: uid,
    name: `Probe ${index}`,
    store_id: store.id,
    secret_hash: hashToken(secret),
  };
});
const inserted = await db
  .insert(probes)
  .values(rows)
  .returning({ id: probes.id, uid: probes.probe_uid });
const chartProbe = inserted.at(-1)!;
const ingestProbes = inserted.slice(0, probeCount);

const server = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./api-server.ts', import.meta.url))],
  {
    env: { ...process.env, DATABASE_URL: benchUrl, PORT: '0', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port = await new Promise<number>((resolve, reject) => {
  server.stdout!.on('data', (chunk: Buffer) => {
    const found = chunk.toString().match(/listening (\d+)/);
    if (found) resolve(Number(found[1]));
  });
  server.once('exit', () => reject(new Error('the API stopped')));
});
const base = `http://127.0.0.1:${port}`;

try {
  // 1. Ingestion: each probe's readings every 5 minutes, going back from now (within 31 days).
  const readingsOf = (probeIndex: number, batch: number) =>
    Array.from({ length: batchSize }, (_, index) => {
      const step = batch * batchSize + index;
      return {
        timestamp: new Date(
          now.getTime() - (step + 1) * 5 * 60_000 - probeIndex * 1000,
        ).toISOString(),
        temperature: Math.round((3 + Math.sin(step / 12) * 1.5) * 10) / 10,
        batteryLevel: 90,
      };
    });
  const post = async (uid: string, body: unknown) => {
    const response = await fetch(`${base}/api/probes/readings/${uid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.get(uid)}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return (await response.json()) as { accepted: number; duplicates: number };
  };
  const ingest = async (label: string) => {
    const latencies: number[] = [];
    let accepted = 0;
    const started = performance.now();
    await Promise.all(
      ingestProbes.map(async (probe, probeIndex) => {
        for (let batch = 0; batch < batchesPerProbe; batch += 1) {
          const sent = performance.now();
          const answer = await post(probe.uid, { readings: readingsOf(probeIndex, batch) });
          latencies.push(performance.now() - sent);
          accepted += answer.accepted;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const total = probeCount * batchesPerProbe * batchSize;
    console.log(
      `${label}: ${total} readings in ${seconds.toFixed(1)} s = ${Math.round(total / seconds)} readings/s, ${accepted} written; batch ${summary(latencies)} (load ${loadavg()[0]!.toFixed(1)})`,
    );
    return total / seconds;
  };
  const apiRate = await ingest('API ingestion, 50 probes × batches of 100');
  await ingest('the same batches again (duplicates)');

  // 2. A bare COPY of as many rows (other probes' ids, same shape), for the ratio.
  const total = probeCount * batchesPerProbe * batchSize;
  const copyRows = function* (probeId: string, count: number, stepMinutes: number) {
    for (let step = 0; step < count; step += 1) {
      const at = new Date(now.getTime() - (step + 1) * stepMinutes * 60_000 - 500).toISOString();
      yield `${probeId}\t${at}\t${(3 + Math.sin(step / 12) * 1.5).toFixed(1)}\t90\n`;
    }
  };
  const copy = async (probeId: string, count: number, stepMinutes: number) => {
    const client = new pg.Client({ connectionString: benchUrl });
    await client.connect();
    try {
      const started = performance.now();
      const stream = copyFrom(
        'COPY probe_readings (probe_id, "timestamp", temperature, battery_level) FROM STDIN',
      );
      await pipeline(
        Readable.from(copyRows(probeId, count, stepMinutes)),
        client.query(stream as unknown as pg.Submittable) as unknown as typeof stream,
      );
      return (performance.now() - started) / 1000;
    } finally {
      await client.end();
    }
  };
  const [copyTarget] = await db
    .insert(probes)
    .values({ probe_uid: 'BENCH-COPY', name: 'COPY', store_id: store.id, secret_hash: 'x' })
    .returning({ id: probes.id });
  const copySeconds = await copy(copyTarget!.id, total, 1);
  const copyRate = total / copySeconds;
  console.log(
    `bare COPY of ${total} rows: ${copySeconds.toFixed(1)} s = ${Math.round(copyRate)} rows/s; the API reaches ${((apiRate / copyRate) * 100).toFixed(0)} % of it; ` +
      `10,000 stores × 4 probes every 5 min = 133 readings/s: headroom × ${Math.floor(apiRate / 133)}`,
  );

  // 3. A year of one probe (every 5 minutes), then its year chart by 10 users at once.
  const yearReadings = 365 * 24 * 12;
  await copy(chartProbe.id, yearReadings, 5);
  // COPY bypasses ingestion: its hourly rollup is made as migration 0018 backfills it.
  await db.execute(sql`insert into probe_readings_hourly
      (probe_id, hour, minimum, maximum, total, count, battery_level)
    select probe_id, date_trunc('hour', "timestamp", 'UTC'), min(temperature), max(temperature),
      sum(temperature), count(*), min(battery_level)
    from probe_readings where probe_id = ${chartProbe.id}::uuid group by 1, 2`);
  await db.execute(sql`analyze probe_readings_hourly`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: testPassword }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const { csrfToken } = (await (
    await fetch(`${base}/api/auth/csrf`, { headers: { cookie } })
  ).json()) as {
    csrfToken: string;
  };
  const chartBody = JSON.stringify({
    start: new Date(now.getTime() - 365 * 86_400_000).toISOString(),
    end: now.toISOString(),
  });
  const chart = async () => {
    const sent = performance.now();
    const response = await fetch(`${base}/api/probes/temperatures/${chartProbe.uid}`, {
      method: 'POST',
      headers: {
        cookie,
        'x-csrf-token': csrfToken,
        origin: base,
        'content-type': 'application/json',
      },
      body: chartBody,
    });
    const answer = (await response.json()) as { readings?: unknown[] };
    if (!response.ok) throw new Error(JSON.stringify(answer));
    return { ms: performance.now() - sent, points: answer.readings?.length ?? 0 };
  };
  const warm = await chart();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: chartUsers }, async () => {
      for (let request = 0; request < chartRequests; request += 1)
        latencies.push((await chart()).ms);
    }),
  );
  console.log(
    `year chart of one probe (${yearReadings} readings → ${warm.points} points), ${chartUsers} users × ${chartRequests}: ${summary(latencies)} (load ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  server.kill('SIGTERM');
  await database.close();
  if (!isKeeping)
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
}

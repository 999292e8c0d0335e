/**
 * Alert evaluation (issue 15; not a test), on PostgreSQL (DATABASE_URL, a scratch database
 * `mise_bench_alerts` dropped at the end unless BENCH_KEEP=true): 10,000 stores × 4 probes
 * (half with their own range, half taking it from a bound store element), each with its last
 * 30 minutes of readings (one every 5 minutes, 240,000 rows by COPY); 2 % of the probes out of
 * range for 25 minutes, 1 % silent for 15 minutes, 1 % with a low battery. Times one alert tick
 * (runAlertTick: every probe evaluated, episodes opened, notifications queued) when the
 * episodes open, then a steady tick (they hold), then a tick with nothing out of range.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/alerts.ts
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { runAlertTick } from '../apps/server/src/modules/alerts/alerts.engine';
import { ensureProbeReadingPartitions } from '../apps/server/src/modules/probes/probes.service';

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error('DATABASE_URL is required (PostgreSQL)');
const benchDatabase = 'mise_bench_alerts';
const storeCount = Number(process.env.BENCH_STORES ?? 10_000);
const probesPerStore = 4;
const url = new URL(adminUrl);
url.pathname = `/${benchDatabase}`;
const benchUrl = url.toString();

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

await admin(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
await admin(`CREATE DATABASE ${benchDatabase}`);
const database = await openDatabase({ driver: 'pg', url: benchUrl, poolSize: 4 });
await runMigrations(database);
const { db } = database;
const now = new Date();
await ensureProbeReadingPartitions(db, now);

// Organisation, owners, elements and probes, set-based.
const started = performance.now();
await db.execute(sql`insert into distributors (name) values ('Bench distributor')`);
await db.execute(sql`insert into databases (name, distributor_id)
  select 'Bench database', id from distributors limit 1`);
await db.execute(sql`insert into stores (name, address, postal_code, city, distributor_id, database_id)
  select 'Store ' || n, n || ' rue du Banc', '75001', 'Paris', d.distributor_id, d.id
  from generate_series(1, ${storeCount}) n, (select id, distributor_id from databases limit 1) d`);
await db.execute(sql`insert into users (email, password_hash, role, name)
  select 'owner' || row_number() over () || '@bench.test', 'x', 'customer', 'Owner'
  from stores`);
await db.execute(sql`insert into store_owners (store_id, user_id)
  select s.id, u.id from (select id, row_number() over (order by id) n from stores) s
  join (select id, row_number() over (order by id) n from users) u using (n)`);
await db.execute(sql`insert into probes (probe_uid, name, store_id, secret_hash, minimum_temperature,
    maximum_temperature, posting_interval)
  select 'bench-' || s.n || '-' || k, 'Probe ' || k, s.id, 'x',
    case when k % 2 = 0 then 0 end, case when k % 2 = 0 then 4 end, 300
  from (select id, row_number() over (order by id) n from stores) s, generate_series(1, ${probesPerStore}) k`);
await db.execute(sql`insert into store_elements (store_id, name, probe_id, minimum_temperature, maximum_temperature)
  select p.store_id, 'Fridge ' || p.probe_uid, p.probe_uid, 0, 4
  from probes p where p.minimum_temperature is null`);

// Readings: the last 30 minutes; probe n: out of range (n % 50 = 0), silent (n % 100 = 1).
const probeRows = (
  (await db.execute(
    sql`select id, row_number() over (order by id)::int as n from probes`,
  )) as unknown as {
    rows: { id: string; n: number }[];
  }
).rows;
function* readings() {
  for (const probe of probeRows) {
    const isSilent = probe.n % 100 === 1;
    for (let step = 0; step < 7; step += 1) {
      const minutesAgo = 30 - step * 5;
      if (isSilent && minutesAgo < 15) continue;
      const isOut = probe.n % 50 === 0 && minutesAgo <= 25;
      const temperature = isOut ? 9 + step / 10 : 2 + ((probe.n + step) % 20) / 10;
      const battery = probe.n % 100 === 2 ? 15 : 80;
      yield `${probe.id}\t${new Date(now.getTime() - minutesAgo * 60_000).toISOString()}\t${temperature}\t${battery}\n`;
    }
  }
}
const client = new pg.Client({ connectionString: benchUrl });
await client.connect();
const stream = copyFrom(
  'COPY probe_readings (probe_id, "timestamp", temperature, battery_level) FROM STDIN',
);
await pipeline(
  Readable.from(readings()),
  client.query(stream as unknown as pg.Submittable) as unknown as typeof stream,
);
await client.end();
await db.execute(sql`update probes p set last_temperature = r.temperature,
    last_temperature_timestamp = r."timestamp", battery_level = r.battery_level
  from (select distinct on (probe_id) probe_id, "timestamp", temperature, battery_level
    from probe_readings order by probe_id, "timestamp" desc) r
  where r.probe_id = p.id`);
await db.execute(sql`analyze`);
const probeCount = probeRows.length;
console.log(
  `setup: ${storeCount} stores, ${probeCount} probes, ${probeCount * 7} readings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const tick = async (label: string, at: Date) => {
  const begin = performance.now();
  const summary = await runAlertTick(db, at);
  const ms = performance.now() - begin;
  const queued = (
    (await db.execute(sql`select count(*)::int as count from alert_notifications`)) as unknown as {
      rows: { count: number }[];
    }
  ).rows[0]!.count;
  console.log(
    `${label}: ${ms.toFixed(0)} ms for ${probeCount} probes (${summary.candidates} out-of-range candidates; opened ${summary.opened}, resolved ${summary.resolved}, escalated ${summary.escalated}; ${queued} notifications queued in all)`,
  );
  return ms;
};
const first = await tick('tick with episodes opening', now);
const steady = await tick('steady tick (episodes hold)', new Date(now.getTime() + 1000));
await db.execute(sql`update probes set last_temperature = 3 where last_temperature > 4`);
await db.execute(sql`delete from alert_episodes`);
await db.execute(
  sql`update probes set battery_level = 80, last_temperature_timestamp = ${now.toISOString()}::timestamptz`,
);
const quiet = await tick('quiet tick (nothing to open)', new Date(now.getTime() + 2000));
console.log(
  `alert evaluation of ${probeCount} probes: worst tick ${Math.max(first, steady, quiet).toFixed(0)} ms (target < 2,000 ms)`,
);
await database.close();
if (process.env.BENCH_KEEP !== 'true')
  await admin(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);

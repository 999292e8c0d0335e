import {
  batteryRange,
  defaultPostingIntervalSeconds,
  maxChartPoints,
  maxChartRangeDays,
} from '@mise/shared/probes/constants';
import {
  bucketSeconds,
  minutesToSeconds,
  probeWorking,
  readingRefusal,
} from '@mise/shared/probes/rules';
import type {
  BoundElement,
  EditProbeBody,
  Probe,
  ProbeReadingInput,
} from '@mise/shared/probes/schemas';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { probeReadings, probeReadingsHourly, probes, stores } from '../../db/schema';
import { hashToken, newToken, safeEqual } from '../../platform/auth/tokens';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { recordProbeReadings } from '../../platform/metrics';
import { type Scope, storeFilter } from '../../platform/scope';
import {
  chainSealedReadings,
  lockProbeDays,
  probeDaySealDelayMs,
} from '../records/sources/probe-readings-days';
import { findStoreInScope } from '../stores/stores.service';
import { boundElementSql } from './bound-element';

type ProbeRow = typeof probes.$inferSelect;

/* ---------- Partitions (one a month, UTC) ---------- */

/** Arbitrary constant: one instance creates partitions at a time. */
const partitionLockKey = 7_316_215;

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

/** `probe_readings_y2027m01` for January 2027 (UTC). */
export function partitionName(monthStartUtc: Date): string {
  const month = String(monthStartUtc.getUTCMonth() + 1).padStart(2, '0');
  return `probe_readings_y${monthStartUtc.getUTCFullYear()}m${month}`;
}

/**
 * Creates the month partitions of probe_readings from `monthsBefore` months before `now`'s
 * month to `monthsAhead` months after it, those missing only. Readings already kept in the
 * DEFAULT partition for such a month move into it in the same transaction, so the partition
 * can be attached. Safe with several instances (advisory lock). Answers the names created.
 */
export async function ensureProbeReadingPartitions(
  db: Database,
  now: Date,
  { monthsBefore = 2, monthsAhead = 2 }: { monthsBefore?: number; monthsAhead?: number } = {},
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${partitionLockKey})`);
    const created: string[] = [];
    for (let offset = -monthsBefore; offset <= monthsAhead; offset++) {
      const from = monthStart(now.getUTCFullYear(), now.getUTCMonth() + offset);
      const to = monthStart(from.getUTCFullYear(), from.getUTCMonth() + 1);
      const name = partitionName(from);
      const found = (await tx.execute(
        sql`select to_regclass(${name}) is not null as exists`,
      )) as unknown as { rows: { exists: boolean }[] };
      if (found.rows[0]?.exists) continue;
      const table = sql.identifier(name);
      const lower = sql.raw(`'${from.toISOString()}'`);
      const upper = sql.raw(`'${to.toISOString()}'`);
      await tx.execute(sql`create table ${table} (like ${probeReadings} including defaults)`);
      await tx.execute(sql`with moved as (
          delete from probe_readings_default
          where "timestamp" >= ${lower}::timestamptz and "timestamp" < ${upper}::timestamptz
          returning probe_id, "timestamp", temperature, battery_level)
        insert into ${table} (probe_id, "timestamp", temperature, battery_level)
        select probe_id, "timestamp", temperature, battery_level from moved`);
      await tx.execute(
        sql`alter table ${probeReadings} attach partition ${table} for values from (${lower}) to (${upper})`,
      );
      created.push(name);
    }
    return created;
  });
}

/**
 * Retention (docs/scaling.md, docs/decisions.md "Retention of records"): the readings past
 * their store's retention are removed by the retention job (records/retention.ts), which leaves
 * a tombstone in the store's records chain. What is left here: month partitions whose month
 * ended more than `months` months before `now` (the deployment's PROBE_RETENTION_MONTHS; at
 * least 24, EU 852/2004 records) are detached and dropped once they hold no reading (a database
 * keeping its readings longer keeps its month; the job removes the hourly rollup with the
 * readings). Answers the partitions dropped.
 */
export async function dropExpiredReadingPartitions(
  db: Database,
  now: Date,
  months: number,
): Promise<string[]> {
  const cutoff = monthStart(now.getUTCFullYear(), now.getUTCMonth() - Math.max(24, months));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${partitionLockKey})`);
    const children = (await tx.execute(sql`select c.relname as name from pg_inherits i
        join pg_class c on c.oid = i.inhrelid
        join pg_class parent on parent.oid = i.inhparent
        where parent.relname = 'probe_readings' and c.relname ~ '^probe_readings_y[0-9]{4}m[0-9]{2}$'`)) as unknown as {
      rows: { name: string }[];
    };
    const dropped: string[] = [];
    for (const { name } of children.rows) {
      const year = Number(name.slice(16, 20));
      const month = Number(name.slice(21, 23)) - 1;
      if (monthStart(year, month + 1) > cutoff) continue;
      const table = sql.identifier(name);
      const left = (await tx.execute(
        sql`select exists (select 1 from ${table}) as left`,
      )) as unknown as { rows: { left: boolean }[] };
      if (left.rows[0]?.left) continue;
      await tx.execute(sql`alter table ${probeReadings} detach partition ${table}`);
      await tx.execute(sql`drop table ${table}`);
      dropped.push(name);
    }
    return dropped;
  });
}

/** Buckets at least this wide are read from the hourly rollup (ranges beyond ~6 weeks). */
const hourlyFromSeconds = 3600;

/* ---------- Probes ---------- */

function postUrlOf(publicUrl: string, probeUid: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/probes/readings/${encodeURIComponent(probeUid)}`;
}

/** The store element bound to each probe (one query for the list). */
export async function boundElements(
  db: Database,
  rows: Pick<ProbeRow, 'id' | 'store_id' | 'probe_uid'>[],
): Promise<Map<string, BoundElement>> {
  const bound = rows.filter((row) => row.store_id !== null);
  if (bound.length === 0) return new Map();
  const found = (await db.execute(sql`select p.id, el.name, el.minimum, el.maximum
    from ${probes} p
    join lateral ${boundElementSql(sql`p.store_id`, sql`p.probe_uid`)} el on true
    where p.id = any(${`{${bound.map((row) => row.id).join(',')}}`}::uuid[])`)) as unknown as {
    rows: { id: string; name: string | null; minimum: number | null; maximum: number | null }[];
  };
  return new Map(
    found.rows.map((row) => [
      row.id,
      {
        name: row.name ?? '',
        minimumTemperature: row.minimum === null ? null : Number(row.minimum),
        maximumTemperature: row.maximum === null ? null : Number(row.maximum),
      },
    ]),
  );
}

export function presentProbe(
  row: ProbeRow,
  now: Date,
  publicUrl: string,
  element: BoundElement | null = null,
): Probe {
  return {
    id: row.id,
    probeUID: row.probe_uid,
    active: row.active,
    name: row.name,
    batteryLevel: row.battery_level,
    maximumTemperature: row.maximum_temperature,
    minimumTemperature: row.minimum_temperature,
    criticalThreshold: row.critical_threshold,
    notifyTemperature: row.notify_temperature,
    postUrl: postUrlOf(publicUrl, row.probe_uid),
    postingInterval: row.posting_interval,
    pushNotification: row.push_notification,
    alertDelayMinutes: row.alert_delay_minutes,
    element,
    lastTemperature: row.last_temperature,
    lastTemperatureTimestamp: row.last_temperature_timestamp?.toISOString() ?? null,
    storeId: row.store_id,
    working: probeWorking(row.last_temperature_timestamp, now),
  };
}

const requireAdmin = (scope: Scope) => {
  if (scope.role !== 'admin') throw forbidden();
};

/** POST /api/probes (admin): a new probe and its secret, answered once. */
export async function createProbe(
  db: Database,
  scope: Scope,
  body: { probeUID: string; name: string; storeId?: string | null },
): Promise<{ row: ProbeRow; secret: string }> {
  requireAdmin(scope);
  if (body.storeId) await findStoreInScope(db, scope, body.storeId);
  const secret = newToken();
  const [row] = await db
    .insert(probes)
    .values({
      probe_uid: body.probeUID,
      name: body.name,
      store_id: body.storeId ?? null,
      posting_interval: defaultPostingIntervalSeconds,
      secret_hash: hashToken(secret),
    })
    .onConflictDoNothing({ target: probes.probe_uid })
    .returning();
  if (!row) throw new AppError('probe/already-exists');
  return { row, secret };
}

/** GET /api/probes (admin): every probe, by name. */
export async function listProbes(db: Database, scope: Scope): Promise<ProbeRow[]> {
  requireAdmin(scope);
  return db.select().from(probes).orderBy(asc(probes.name), asc(probes.probe_uid));
}

/** GET /api/probes/store/{storeId}: anyone who sees the store (404 otherwise). */
export async function listStoreProbes(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<ProbeRow[]> {
  const store = await findStoreInScope(db, scope, storeId);
  return db
    .select()
    .from(probes)
    .where(eq(probes.store_id, store.id))
    .orderBy(asc(probes.name), asc(probes.probe_uid));
}

/** A probe the scope may see: admins any, others those of a store in their scope (else 404). */
async function findProbeInScope(db: Database, scope: Scope, probeUid: string): Promise<ProbeRow> {
  if (scope.isAll) {
    const [row] = await db.select().from(probes).where(eq(probes.probe_uid, probeUid)).limit(1);
    if (!row) throw notFound();
    return row;
  }
  const [found] = await db
    .select({ probe: probes })
    .from(probes)
    .innerJoin(stores, eq(stores.id, probes.store_id))
    .where(and(eq(probes.probe_uid, probeUid), storeFilter(scope)))
    .limit(1);
  if (!found) throw notFound();
  return found.probe;
}

/** POST /api/probes/edit/{probeUID} (admin): postingInterval arrives in minutes. */
export async function editProbe(
  db: Database,
  scope: Scope,
  probeUid: string,
  body: EditProbeBody,
): Promise<ProbeRow> {
  requireAdmin(scope);
  const current = await findProbeInScope(db, scope, probeUid);
  const minimum =
    body.minimumTemperature === undefined ? current.minimum_temperature : body.minimumTemperature;
  const maximum =
    body.maximumTemperature === undefined ? current.maximum_temperature : body.maximumTemperature;
  if (minimum !== null && maximum !== null && minimum > maximum) {
    throw new AppError('probe/invalid-range');
  }
  const changes: Partial<typeof probes.$inferInsert> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.minimumTemperature !== undefined) changes.minimum_temperature = body.minimumTemperature;
  if (body.maximumTemperature !== undefined) changes.maximum_temperature = body.maximumTemperature;
  if (body.postingInterval !== undefined) {
    changes.posting_interval = minutesToSeconds(body.postingInterval);
  }
  if (body.active !== undefined) changes.active = body.active;
  if (body.pushNotification !== undefined) changes.push_notification = body.pushNotification;
  if (body.alertDelayMinutes !== undefined) changes.alert_delay_minutes = body.alertDelayMinutes;
  if (Object.keys(changes).length === 0) return current;
  const [row] = await db.update(probes).set(changes).where(eq(probes.id, current.id)).returning();
  return row!;
}

/** POST /api/probes/removeOwnership/{probeUID} (admin): the probe leaves its store. */
export async function removeOwnership(
  db: Database,
  scope: Scope,
  probeUid: string,
): Promise<ProbeRow> {
  requireAdmin(scope);
  const current = await findProbeInScope(db, scope, probeUid);
  const [row] = await db
    .update(probes)
    .set({ store_id: null })
    .where(eq(probes.id, current.id))
    .returning();
  return row!;
}

/* ---------- Readings in ---------- */

/**
 * POST /api/probes/readings/{probeUid}: authenticated by the probe's own secret (Bearer).
 * Every reading is checked first; one refused reading refuses the request and writes nothing.
 * Then one statement inserts them (a reading already kept is skipped: ON CONFLICT DO NOTHING
 * on (probe, timestamp)) and moves last_* to the newest reading only if it is newer than the
 * probe's current one, so a late batch never moves them backwards.
 */
export async function ingestReadings(
  db: Database,
  now: Date,
  probeUid: string,
  secret: string | null,
  readings: ProbeReadingInput[],
): Promise<{ accepted: number; duplicates: number }> {
  const [probe] = await db
    .select({ id: probes.id, secret_hash: probes.secret_hash })
    .from(probes)
    .where(eq(probes.probe_uid, probeUid))
    .limit(1);
  if (!probe || !secret || !safeEqual(hashToken(secret), probe.secret_hash)) {
    throw new AppError('probe/invalid-secret');
  }
  return recordReadings(db, now, probe.id, readings);
}

/**
 * The readings of a probe the caller already trusts (its secret checked, or the sensor
 * provider's pull): the same checks and the same single statement as ingestReadings. A missing
 * battery level (a provider may not send one) is kept as null and leaves the probe's own as is.
 */
export async function recordReadings(
  db: Database,
  now: Date,
  probeId: string,
  readings: { timestamp: string; temperature: number; batteryLevel: number | null }[],
): Promise<{ accepted: number; duplicates: number }> {
  const rows = readings.map((reading, index) => {
    const timestamp = new Date(reading.timestamp);
    const refusal = readingRefusal(
      {
        timestamp,
        temperature: reading.temperature,
        batteryLevel: reading.batteryLevel ?? batteryRange.min,
      },
      now,
    );
    if (refusal) {
      throw new AppError(refusal, undefined, [
        { path: `readings.${index}`, message: reading.timestamp },
      ]);
    }
    return {
      timestamp: timestamp.toISOString(),
      temperature: reading.temperature,
      battery_level: reading.batteryLevel === null ? null : Math.round(reading.batteryLevel),
    };
  });
  const payload = JSON.stringify(rows);
  // A reading older than the seal delay may land in a day the records chain has sealed: then
  // the insert runs in a transaction under the store's probe-days lock and chains what it
  // added to sealed days (issue 21, records/sources/probe-readings-days). Others: one statement.
  const sealedBefore = new Date(now.getTime() - probeDaySealDelayMs);
  const isLate = rows.some((row) => new Date(row.timestamp) < sealedBefore);
  const insert = (executor: Database) =>
    executor.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${payload}::jsonb)
        as r("timestamp" timestamptz, temperature real, battery_level smallint)
    ),
    inserted as (
      insert into ${probeReadings} (probe_id, "timestamp", temperature, battery_level)
      select ${probeId}::uuid, "timestamp", temperature, battery_level from input
      on conflict do nothing
      returning "timestamp", temperature, battery_level
    ),
    rolled as (
      insert into ${probeReadingsHourly} as h
        (probe_id, hour, minimum, maximum, total, count, battery_level)
      select ${probeId}::uuid, date_trunc('hour', "timestamp", 'UTC'), min(temperature),
        max(temperature), sum(temperature), count(*), min(battery_level)
      from inserted group by 2
      on conflict (probe_id, hour) do update set
        minimum = least(h.minimum, excluded.minimum),
        maximum = greatest(h.maximum, excluded.maximum),
        total = h.total + excluded.total,
        count = h.count + excluded.count,
        battery_level = least(h.battery_level, excluded.battery_level)
    ),
    newest as (
      select * from input order by "timestamp" desc limit 1
    ),
    moved as (
      update ${probes} set
        last_temperature = newest.temperature,
        last_temperature_timestamp = newest."timestamp",
        battery_level = coalesce(newest.battery_level, ${probes.battery_level})
      from newest
      where ${probes.id} = ${probeId}::uuid
        and (${probes.last_temperature_timestamp} is null
          or ${probes.last_temperature_timestamp} < newest."timestamp")
      returning 1
    )
    select (select count(*) from inserted)::int as accepted,
      (select coalesce(json_agg((extract(epoch from "timestamp") * 1000)::float8), '[]'::json)
        from inserted where "timestamp" < ${sealedBefore.toISOString()}::timestamptz) as sealed`) as unknown as Promise<{
      rows: { accepted: number; sealed: number[] | string }[];
    }>;
  const result = isLate
    ? await db.transaction(async (tx) => {
        const store = await lockProbeDays(tx, probeId);
        const written = await insert(tx);
        const sealed = written.rows[0]?.sealed ?? [];
        const instants = (
          typeof sealed === 'string' ? (JSON.parse(sealed) as number[]) : sealed
        ).map((ms) => new Date(Number(ms)));
        if (store) await chainSealedReadings(tx, store, probeId, instants, now);
        return written;
      })
    : await insert(db);
  const accepted = Number(result.rows[0]?.accepted ?? 0);
  recordProbeReadings(accepted, rows.length - accepted);
  return { accepted, duplicates: rows.length - accepted };
}

/* ---------- Readings out ---------- */

type Point = {
  timestamp: string;
  temperature: number;
  minTemperature: number;
  maxTemperature: number;
  batteryLevel: number | null;
  count: number;
};

/**
 * POST /api/probes/temperatures/{probeUID}: the readings of [start, end] (both included),
 * one by one up to maxChartPoints readings, else averaged in SQL (date_bin) into at most
 * maxChartPoints buckets of equal width starting at `start`, each with its min and max.
 */
export async function probeTemperatures(
  db: Database,
  scope: Scope,
  probeUid: string,
  body: { start: string; end: string },
) {
  const probe = await findProbeInScope(db, scope, probeUid);
  const start = new Date(body.start);
  const end = new Date(body.end);
  if (end < start) {
    throw new AppError('validation/invalid-input', 'The end is before the start.', [
      { path: 'end', message: 'before start' },
    ]);
  }
  if (end.getTime() - start.getTime() > maxChartRangeDays * 24 * 60 * 60 * 1000) {
    throw new AppError('date-range-too-long');
  }
  const inRange: SQL = sql`probe_id = ${probe.id}::uuid
    and "timestamp" >= ${start.toISOString()}::timestamptz
    and "timestamp" <= ${end.toISOString()}::timestamptz`;
  // Ranges read from the hourly rollup need no count of their raw readings first.
  const isHourly = bucketSeconds(start, end, maxChartPoints) >= hourlyFromSeconds;
  const counted = isHourly
    ? null
    : ((await db.execute(sql`
    select count(*)::int as count from (
      select 1 from ${probeReadings} where ${inRange} limit ${maxChartPoints + 1}
    ) as limited`)) as unknown as { rows: { count: number }[] });
  const isRaw = !isHourly && Number(counted?.rows[0]?.count ?? 0) <= maxChartPoints;
  let width: number | null = null;
  let rows: {
    at: number;
    temperature: number;
    min: number;
    max: number;
    battery: number | null;
    count: number;
  }[];
  if (isRaw) {
    const result = (await db.execute(sql`
      select (extract(epoch from "timestamp") * 1000)::float8 as at,
        temperature, temperature as min, temperature as max,
        battery_level::int as battery, 1 as count
      from ${probeReadings} where ${inRange}
      order by "timestamp"`)) as unknown as { rows: typeof rows };
    rows = result.rows;
  } else if (isHourly) {
    // Months or a year: buckets of whole hours read from the hourly rollup (8,760 rows a
    // year); each hour's min and max are those of its readings, so each bucket's are too.
    width = Math.ceil(bucketSeconds(start, end, maxChartPoints) / 3600) * 3600;
    const interval = `${width} seconds`;
    const origin = new Date(Math.floor(start.getTime() / 3_600_000) * 3_600_000).toISOString();
    const result = (await db.execute(sql`
      select (extract(epoch from date_bin(${interval}::interval, hour,
          ${origin}::timestamptz)) * 1000)::float8 as at,
        (sum(total) / sum(count))::float8 as temperature,
        min(minimum) as min, max(maximum) as max,
        min(battery_level)::int as battery, sum(count)::int as count
      from ${probeReadingsHourly}
      where probe_id = ${probe.id}::uuid and hour >= ${origin}::timestamptz
        and hour <= ${end.toISOString()}::timestamptz
      group by 1 order by 1`)) as unknown as { rows: typeof rows };
    rows = result.rows;
  } else {
    width = bucketSeconds(start, end, maxChartPoints);
    const interval = `${width} seconds`;
    const result = (await db.execute(sql`
      select (extract(epoch from date_bin(${interval}::interval, "timestamp",
          ${start.toISOString()}::timestamptz)) * 1000)::float8 as at,
        avg(temperature)::float8 as temperature,
        min(temperature) as min, max(temperature) as max,
        min(battery_level)::int as battery, count(*)::int as count
      from ${probeReadings} where ${inRange}
      group by 1 order by 1`)) as unknown as { rows: typeof rows };
    rows = result.rows;
  }
  const readings: Point[] = rows.map((row) => ({
    timestamp: new Date(Number(row.at)).toISOString(),
    temperature: Number(row.temperature),
    minTemperature: Number(row.min),
    maxTemperature: Number(row.max),
    batteryLevel: row.battery === null ? null : Number(row.battery),
    count: Number(row.count),
  }));
  return {
    probeUID: probe.probe_uid,
    start: start.toISOString(),
    end: end.toISOString(),
    bucketSeconds: width,
    readings,
  };
}

/* ---------- Probes mirrored from a sensor provider (modules/sensors) ---------- */

/**
 * Registers a store's provider probes, those whose UID is not taken yet (one statement; a UID
 * already registered, in this store or any other, is left as it is). Each gets a secret like
 * createProbe's, never answered: the provider's readings are pulled, not posted.
 */
export async function registerProviderProbes(
  db: Database,
  storeId: string,
  items: { probeUid: string; name: string; providerTagId: string }[],
): Promise<{ created: ProbeRow[]; existing: number }> {
  if (items.length === 0) return { created: [], existing: 0 };
  const created = await db
    .insert(probes)
    .values(
      items.map((item) => ({
        probe_uid: item.probeUid,
        name: item.name,
        store_id: storeId,
        provider_tag_id: item.providerTagId,
        posting_interval: defaultPostingIntervalSeconds,
        secret_hash: hashToken(newToken()),
      })),
    )
    .onConflictDoNothing({ target: probes.probe_uid })
    .returning();
  return { created, existing: items.length - created.length };
}

export type DueProviderProbe = {
  id: string;
  providerTagId: string;
  storeId: string;
  distributorId: string | null;
  lastTimestamp: Date | null;
};

/**
 * In one query: the provider probes of a store whose last reading is at least their posting
 * interval old at `now` (or which have none yet).
 */
export async function dueProviderProbes(db: Database, now: Date): Promise<DueProviderProbe[]> {
  const rows = await db
    .select({
      id: probes.id,
      providerTagId: probes.provider_tag_id,
      storeId: probes.store_id,
      distributorId: stores.distributor_id,
      lastTimestamp: probes.last_temperature_timestamp,
    })
    .from(probes)
    .innerJoin(stores, eq(stores.id, probes.store_id))
    .where(
      and(
        sql`${probes.provider_tag_id} is not null`,
        sql`(${probes.last_temperature_timestamp} is null or ${probes.last_temperature_timestamp}
          <= ${now.toISOString()}::timestamptz - make_interval(secs => ${probes.posting_interval}))`,
      ),
    )
    .orderBy(asc(probes.id));
  return rows.map((row) => ({
    ...row,
    providerTagId: row.providerTagId!,
    storeId: row.storeId!,
  }));
}

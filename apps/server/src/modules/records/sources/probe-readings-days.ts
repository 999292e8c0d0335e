import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appendToChain, type ChainEntryInput } from '../chain';
import type { ChainSource } from './types';

/*
 * Probe readings in the records chain (issue 21, docs/decisions.md "Records chain: probe
 * readings"). Readings arrive every few minutes, so they are chained by day: one entry per
 * probe and store day, `<probe id>:<day>`, once the day is sealed (its end plus
 * `probeDaySealDelayMs`), appended by the hourly job. Its content is the day's readings as a
 * count and the sha256 of their canonical lines, computed in SQL (one statement per day and
 * store); the day's bounds are kept in the entry's details, so a later change of the store's
 * time zone does not move them.
 *
 * A reading may arrive up to 31 days late (a probe's buffer). One that lands in a sealed day
 * is chained by its ingestion, in its transaction: an extra entry `<probe id>:<day>:late:<n>`
 * covering exactly the readings that batch added (their instants in the entry's details), or
 * the day's own entry when the day was not chained yet. The day's entry then covers the day's
 * readings less those of its late entries. Ingestion and the job take the same per-store lock
 * around their reads and writes, so a reading is covered by exactly one entry.
 */

/** A day is sealed once it ended this long ago: a reading for it afterwards is late. */
export const probeDaySealDelayMs = 60 * 60_000;
/** The job chains a day only this long after it is sealed (clock skew, a statement in flight). */
const jobMarginMs = 10 * 60_000;
/** How many days back the job looks for sealed days not chained yet (downtime). */
const jobLookbackDays = 7;
/**
 * The verifier's list asks for the days sealed this long before its end: the job (hourly) has
 * chained them by then.
 */
const listGraceMs = 4 * 60 * 60_000;
/** Arbitrary class of the per-store advisory lock (two-key form). */
const lockClass = 7_316_216;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

type Reader = Pick<Database, 'execute'>;

/** A probe's day (or one late batch of it) as stored now. */
export type ProbeReadingsDayRecord = {
  probe_id: string;
  store_id: string;
  day: string;
  /** The late batch's number; null for the day's own entry. */
  late: number | null;
  /** The day's bounds [from, to) (the day's own entry only). */
  from: string | null;
  to: string | null;
  count: number;
  /** sha256 (hex) of the readings' lines, null when there is none. */
  digest: string | null;
};

/**
 * The content: the probe, the store, the day, its bounds or the late batch's number, how many
 * readings and the sha256 of their lines, one per reading in time order:
 * `<epoch microseconds> <temperature> <battery level or ->` (the temperature as PostgreSQL
 * turns a real into numeric: 6 significant digits, whatever the session's float settings).
 */
export function probeReadingsDayContent(record: ProbeReadingsDayRecord) {
  const common = {
    probe_id: record.probe_id,
    store_id: record.store_id,
    day: record.day,
    count: record.count,
    readings_sha256: record.digest,
  };
  return record.late === null
    ? { ...common, from: record.from, to: record.to }
    : { ...common, late: record.late };
}

export const probeDayRecordId = (probeId: string, day: string) => `${probeId}:${day}`;

function parseRecordId(
  recordId: string,
): { probeId: string; day: string; late: number | null } | null {
  const [probeId = '', day = '', marker, late, ...rest] = recordId.split(':');
  if (!uuidPattern.test(probeId) || !dayPattern.test(day) || rest.length > 0) return null;
  if (marker === undefined) return { probeId, day, late: null };
  if (marker !== 'late' || !late || !/^[1-9][0-9]{0,5}$/.test(late)) return null;
  return { probeId, day, late: Number(late) };
}

/** A PostgreSQL array literal (elements quoted; none of ours holds a quote or a backslash). */
const arrayOf = (values: readonly string[], type: 'text' | 'uuid' | 'timestamptz'): SQL =>
  sql`${`{${values.map((value) => `"${value}"`).join(',')}}`}::${sql.raw(type)}[]`;

type Rows<T> = { rows: T[] };
async function rows<T>(db: Reader, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

/** A day's bounds in a zone: [its midnight, the next day's midnight). */
function dayBounds(day: string, zone: string): { from: Date; to: Date } {
  return {
    from: localMinuteToInstant(day, 0, zone),
    to: localMinuteToInstant(addDays(day, 1), 0, zone),
  };
}

type Span =
  | { key: string; probeId: string; from: string; to: string; exclude: readonly string[] }
  | { key: string; probeId: string; include: readonly string[] };

/**
 * Count and sha256 of the readings of each span, in one statement: a day's readings in
 * [from, to) less the excluded instants, or the readings at the included instants. A span
 * without readings has no row.
 */
async function digestsOf(
  db: Reader,
  spans: readonly Span[],
): Promise<Map<string, { count: number; digest: string }>> {
  const found = new Map<string, { count: number; digest: string }>();
  if (spans.length === 0) return found;
  const ranges = spans.filter((span) => 'from' in span);
  const picks = spans.filter((span) => 'include' in span);
  const excluded = ranges.flatMap((span) => span.exclude.map((at) => [span.key, at] as const));
  const included = picks.flatMap((span) =>
    span.include.map((at) => [span.key, span.probeId, at] as const),
  );
  const result = await rows<{ key: string; count: number; digest: string }>(
    db,
    sql`with ranges as (
        select * from unnest(${arrayOf(
          ranges.map((span) => span.key),
          'text',
        )}, ${arrayOf(
          ranges.map((span) => span.probeId),
          'uuid',
        )}, ${arrayOf(
          ranges.map((span) => span.from),
          'timestamptz',
        )}, ${arrayOf(
          ranges.map((span) => span.to),
          'timestamptz',
        )}) as s(key, probe_id, from_at, to_at)
      ),
      excluded as (
        select * from unnest(${arrayOf(
          excluded.map((pair) => pair[0]),
          'text',
        )}, ${arrayOf(
          excluded.map((pair) => pair[1]),
          'timestamptz',
        )}) as x(key, at)
      ),
      included as (
        select * from unnest(${arrayOf(
          included.map((triple) => triple[0]),
          'text',
        )}, ${arrayOf(
          included.map((triple) => triple[1]),
          'uuid',
        )}, ${arrayOf(
          included.map((triple) => triple[2]),
          'timestamptz',
        )}) as i(key, probe_id, at)
      ),
      picked as (
        select s.key, r."timestamp", r.temperature, r.battery_level
        from ranges s
        join probe_readings r on r.probe_id = s.probe_id
          and r."timestamp" >= s.from_at and r."timestamp" < s.to_at
        where not exists (select 1 from excluded x where x.key = s.key and x.at = r."timestamp")
        union all
        select i.key, r."timestamp", r.temperature, r.battery_level
        from included i
        join probe_readings r on r.probe_id = i.probe_id and r."timestamp" = i.at
      )
      select key, count(*)::int as count,
        encode(sha256(convert_to(string_agg(
          (extract(epoch from "timestamp") * 1000000)::bigint::text || ' ' ||
            temperature::numeric::text || ' ' || coalesce(battery_level::text, '-'),
          E'\n' order by "timestamp"), 'UTF8')), 'hex') as digest
      from picked group by key`,
  );
  for (const row of result) {
    found.set(row.key, { count: Number(row.count), digest: row.digest });
  }
  return found;
}

type DayEntry = { record_id: string; details: Record<string, unknown> | null };

/** The probe-day entries (days and late batches) of these probe days in a store's chain. */
async function entriesOfDays(
  db: Reader,
  storeId: string,
  keys: readonly string[],
): Promise<DayEntry[]> {
  if (keys.length === 0) return [];
  return rows<DayEntry>(
    db,
    sql`select record_id, details from record_chain_entries
      where store_id = ${storeId}::uuid and kind = 'probe_readings_day'
        and left(record_id, 47) = any(${arrayOf(keys, 'text')})`,
  );
}

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

async function storeZone(db: Reader, storeId: string): Promise<string> {
  const [row] = await rows<{ timezone_name: string }>(
    db,
    sql`select timezone_name from stores where id = ${storeId}::uuid`,
  );
  return row?.timezone_name ?? 'Europe/Paris';
}

export const probeReadingsDaySource: ChainSource<ProbeReadingsDayRecord> = {
  kind: 'probe_readings_day',
  contentOf: probeReadingsDayContent,
  async load(db, storeId, recordIds) {
    const parsed = recordIds.flatMap((recordId) => {
      const record = parseRecordId(recordId);
      return record
        ? [{ recordId, ...record, key: probeDayRecordId(record.probeId, record.day) }]
        : [];
    });
    const found = new Map<string, ProbeReadingsDayRecord>();
    if (parsed.length === 0) return found;
    const entries = await entriesOfDays(db, storeId, [
      ...new Set(parsed.map((record) => record.key)),
    ]);
    const details = new Map(entries.map((entry) => [entry.record_id, entry.details ?? {}]));
    const lateOf = new Map<string, string[]>();
    for (const entry of entries) {
      if (entry.record_id.length === 47) continue;
      const key = entry.record_id.slice(0, 47);
      lateOf.set(key, [...(lateOf.get(key) ?? []), ...stringsOf(entry.details?.timestamps)]);
    }
    let zone: string | null = null;
    const spans: Span[] = [];
    const bounds = new Map<string, { from: string; to: string }>();
    for (const record of parsed) {
      const stated = details.get(record.recordId);
      if (record.late !== null) {
        if (!stated) continue;
        spans.push({
          key: record.recordId,
          probeId: record.probeId,
          include: stringsOf(stated.timestamps),
        });
        continue;
      }
      let from = typeof stated?.from === 'string' ? stated.from : null;
      let to = typeof stated?.to === 'string' ? stated.to : null;
      if (!from || !to) {
        // A day no entry covers (the verifier asks for one found inserted): the store's zone.
        zone ??= await storeZone(db, storeId);
        const day = dayBounds(record.day, zone);
        from = day.from.toISOString();
        to = day.to.toISOString();
      }
      bounds.set(record.recordId, { from, to });
      spans.push({
        key: record.recordId,
        probeId: record.probeId,
        from,
        to,
        exclude: lateOf.get(record.key) ?? [],
      });
    }
    const digests = await digestsOf(db, spans);
    for (const record of parsed) {
      if (record.late !== null && !details.has(record.recordId)) continue;
      const digest = digests.get(record.recordId);
      found.set(record.recordId, {
        probe_id: record.probeId,
        store_id: storeId,
        day: record.day,
        late: record.late,
        from: bounds.get(record.recordId)?.from ?? null,
        to: bounds.get(record.recordId)?.to ?? null,
        count: digest?.count ?? 0,
        digest: digest?.digest ?? null,
      });
    }
    return found;
  },
  /**
   * The days that must be chained: of the store's probes, each day with readings in [from, to)
   * sealed after the probe's first day entry in this store (days before it predate its chain,
   * or belong to the store it came from) and sealed long enough before `to` and now for the job
   * to have chained it.
   */
  async list(db, storeId, from, to) {
    const firsts = await rows<{ probe_id: string; first_at: string | Date }>(
      db,
      sql`select c.probe_id, c.first_at from (
          select left(record_id, 36) as probe_id, min(created_at) as first_at
          from record_chain_entries
          where store_id = ${storeId}::uuid and kind = 'probe_readings_day'
          group by 1) c
        join probes p on p.id::text = c.probe_id and p.store_id = ${storeId}::uuid`,
    );
    if (firsts.length === 0) return [];
    const zone = await storeZone(db, storeId);
    const end = new Date(Math.min(to.getTime(), Date.now()) - listGraceMs);
    const earliest = new Date(
      Math.max(
        from.getTime(),
        Math.min(...firsts.map((row) => new Date(row.first_at).getTime())) - 2 * 86_400_000,
      ),
    );
    if (earliest >= end) return [];
    const days: { day: string; from: string; to: string }[] = [];
    for (let day = dayInZone(earliest, zone); ; day = addDays(day, 1)) {
      const bounds = dayBounds(day, zone);
      if (bounds.to > end) break;
      if (bounds.to > from) {
        days.push({ day, from: bounds.from.toISOString(), to: bounds.to.toISOString() });
      }
    }
    if (days.length === 0) return [];
    const found = await rows<{ probe_id: string; day: string }>(
      db,
      sql`select p.probe_id, d.day
        from unnest(${arrayOf(
          firsts.map((row) => row.probe_id),
          'uuid',
        )}, ${arrayOf(
          firsts.map((row) => new Date(row.first_at).toISOString()),
          'timestamptz',
        )}) as p(probe_id, first_at)
        join unnest(${arrayOf(
          days.map((day) => day.day),
          'text',
        )}, ${arrayOf(
          days.map((day) => day.from),
          'timestamptz',
        )}, ${arrayOf(
          days.map((day) => day.to),
          'timestamptz',
        )}) as d(day, from_at, to_at)
          on d.to_at + ${`${probeDaySealDelayMs / 1000} seconds`}::interval > p.first_at
        cross join lateral (select 1 from probe_readings r where r.probe_id = p.probe_id
          and r."timestamp" >= d.from_at and r."timestamp" < d.to_at limit 1) as has_reading`,
    );
    return found.map((row) => probeDayRecordId(row.probe_id, row.day));
  },
};

/**
 * Takes the store's probe-days lock until the transaction ends: the job's reading of a day and
 * a late reading's insertion into it never interleave.
 */
async function lockStoreDays(tx: Reader, storeId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${storeId}))`);
}

/**
 * Before inserting readings of which one may fall in a sealed day (older than the seal
 * delay): the probe's store and zone, its lock taken. Null for a probe without a store (its
 * readings belong to no store's chain).
 */
export async function lockProbeDays(
  tx: Reader,
  probeId: string,
): Promise<{ storeId: string; zone: string } | null> {
  const [probe] = await rows<{ store_id: string | null; timezone_name: string | null }>(
    tx,
    sql`select p.store_id, s.timezone_name from probes p
      left join stores s on s.id = p.store_id where p.id = ${probeId}::uuid`,
  );
  if (!probe?.store_id) return null;
  await lockStoreDays(tx, probe.store_id);
  return { storeId: probe.store_id, zone: probe.timezone_name ?? 'Europe/Paris' };
}

/**
 * After inserting readings, in the same transaction as lockProbeDays: the readings just
 * inserted into sealed days are chained, each day's as a late batch when the day is chained
 * already, else as the day's own entry (all its readings).
 */
export async function chainSealedReadings(
  tx: Database,
  store: { storeId: string; zone: string },
  probeId: string,
  inserted: readonly Date[],
  now: Date,
): Promise<void> {
  const byDay = new Map<string, string[]>();
  for (const at of inserted) {
    const day = dayInZone(at, store.zone);
    if (dayBounds(day, store.zone).to.getTime() + probeDaySealDelayMs > now.getTime()) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), at.toISOString()]);
  }
  if (byDay.size === 0) return;
  const days = [...byDay.keys()].sort();
  const entries = await entriesOfDays(
    tx,
    store.storeId,
    days.map((day) => probeDayRecordId(probeId, day)),
  );
  const lateCount = new Map<string, number>();
  const chained = new Set<string>();
  for (const entry of entries) {
    const key = entry.record_id.slice(0, 47);
    if (entry.record_id.length === 47) chained.add(key);
    else lateCount.set(key, (lateCount.get(key) ?? 0) + 1);
  }
  const spans: Span[] = [];
  const planned: { key: string; day: string; late: number | null; details: object }[] = [];
  for (const day of days) {
    const key = probeDayRecordId(probeId, day);
    if (chained.has(key)) {
      const late = (lateCount.get(key) ?? 0) + 1;
      const timestamps = byDay.get(day)!;
      const recordId = `${key}:late:${late}`;
      spans.push({ key: recordId, probeId, include: timestamps });
      planned.push({ key: recordId, day, late, details: { timestamps } });
    } else {
      const bounds = dayBounds(day, store.zone);
      const from = bounds.from.toISOString();
      const to = bounds.to.toISOString();
      spans.push({ key, probeId, from, to, exclude: [] });
      planned.push({ key, day, late: null, details: { from, to } });
    }
  }
  const digests = await digestsOf(tx, spans);
  const inputs: ChainEntryInput[] = [];
  for (const plan of planned) {
    const digest = digests.get(plan.key);
    if (!digest) continue;
    const bounds = plan.late === null ? (plan.details as { from: string; to: string }) : null;
    inputs.push({
      storeId: store.storeId,
      kind: 'probe_readings_day',
      recordId: plan.key,
      record: probeReadingsDayContent({
        probe_id: probeId,
        store_id: store.storeId,
        day: plan.day,
        late: plan.late,
        from: bounds?.from ?? null,
        to: bounds?.to ?? null,
        count: digest.count,
        digest: digest.digest,
      }),
      details: plan.details as Record<string, unknown>,
    });
  }
  await appendToChain(tx, inputs, now);
}

/**
 * The hourly job: for every store with probes, the sealed days of the last week with readings
 * that its chain does not cover yet are appended, one entry per probe and day, from the
 * probe's first chained day on (a probe new to the store: its latest sealed day only, its past
 * may be another store's). Idempotent: a day chained is never appended again. Reads one
 * statement per store to find the days, one per day to hash them.
 */
export async function chainProbeReadingDays(
  db: Database,
  now: Date,
): Promise<{ stores: number; appended: number }> {
  const stores = await rows<{ store_id: string; timezone_name: string }>(
    db,
    sql`select distinct p.store_id, s.timezone_name from probes p
      join stores s on s.id = p.store_id`,
  );
  let appended = 0;
  for (const store of stores) {
    const zone = store.timezone_name;
    const today = dayInZone(now, zone);
    const days: { day: string; from: string; to: string }[] = [];
    for (let back = jobLookbackDays; back >= 1; back--) {
      const day = addDays(today, -back);
      const bounds = dayBounds(day, zone);
      if (bounds.to.getTime() + probeDaySealDelayMs + jobMarginMs > now.getTime()) continue;
      days.push({ day, from: bounds.from.toISOString(), to: bounds.to.toISOString() });
    }
    if (days.length === 0) continue;
    const latest = days.at(-1)!;
    appended += await db.transaction(async (tx) => {
      await lockStoreDays(tx, store.store_id);
      const missing = await rows<{ probe_id: string; day: string }>(
        tx,
        sql`with firsts as (
            select left(record_id, 36) as probe_id, min(substr(record_id, 38, 10)) as first_day
            from record_chain_entries
            where store_id = ${store.store_id}::uuid and kind = 'probe_readings_day'
              and length(record_id) = 47
            group by 1)
          select p.id::text as probe_id, d.day
          from probes p
          left join firsts f on f.probe_id = p.id::text
          cross join unnest(${arrayOf(
            days.map((day) => day.day),
            'text',
          )}, ${arrayOf(
            days.map((day) => day.from),
            'timestamptz',
          )}, ${arrayOf(
            days.map((day) => day.to),
            'timestamptz',
          )}) as d(day, from_at, to_at)
          where p.store_id = ${store.store_id}::uuid
            and (case when f.first_day is null then d.day = ${latest.day}
              else d.day >= f.first_day end)
            and not exists (select 1 from record_chain_entries c
              where c.store_id = ${store.store_id}::uuid and c.kind = 'probe_readings_day'
                and c.record_id = p.id::text || ':' || d.day)
            and exists (select 1 from (select 1 from probe_readings r where r.probe_id = p.id
              and r."timestamp" >= d.from_at and r."timestamp" < d.to_at limit 1) as has_reading)
          order by d.day, p.id`,
      );
      if (missing.length === 0) return 0;
      const inputs: ChainEntryInput[] = [];
      for (const day of days) {
        const probeIds = missing.filter((row) => row.day === day.day).map((row) => row.probe_id);
        if (probeIds.length === 0) continue;
        const digests = await digestsOf(
          tx,
          probeIds.map((probeId) => ({
            key: probeDayRecordId(probeId, day.day),
            probeId,
            from: day.from,
            to: day.to,
            exclude: [],
          })),
        );
        for (const probeId of probeIds) {
          const digest = digests.get(probeDayRecordId(probeId, day.day));
          if (!digest) continue;
          inputs.push({
            storeId: store.store_id,
            kind: 'probe_readings_day',
            recordId: probeDayRecordId(probeId, day.day),
            record: probeReadingsDayContent({
              probe_id: probeId,
              store_id: store.store_id,
              day: day.day,
              late: null,
              from: day.from,
              to: day.to,
              count: digest.count,
              digest: digest.digest,
            }),
            details: { from: day.from, to: day.to },
          });
        }
      }
      await appendToChain(tx, inputs, now);
      return inputs.length;
    });
  }
  return { stores: stores.length, appended };
}

import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { resolveInheritance } from '@mise/shared/catalogue/rules';
import type { HistoryProbes, HistoryStore, ProbeElement } from '@mise/shared/history/schemas';
import { addDays } from '@mise/shared/tasks/rules';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { DateTime, IANAZone } from 'luxon';
import type { Database } from '../../db/client';
import { databaseElements, probeReadings, probes, storeElements, stores } from '../../db/schema';
import type { Scope } from '../../platform/scope';
import { listAlerts } from '../alerts/alerts.service';
import { checkRange, findHistoryStore } from './history.service';

/*
 * The probe records of a store's history (issue 15): the alert episodes of the period with
 * their acknowledgements, and, for each store element bound to one of the store's probes, the
 * probe's readings summarised per calendar day of the store next to the manual readings.
 *
 * An inspector compares a fridge's manual readings with what its probe saw that day: the
 * lowest and highest reading (was it ever out of bounds?), the last one, and how many readings
 * there were (a gap shows as a low count). The full series stays on the probe's page.
 *
 * Three statements whatever the number of rows, after the history's own store check (scope,
 * active, licensed, manager access): the bound elements, the episodes (through the alerts
 * service) and one aggregate over the readings of the bound probes (their primary key
 * (probe, time) and the month partitions bound the scan).
 */

/** Whatever the number of episodes of a month, they are all records: no page cut. */
const maxEpisodes = 100_000;

const boundFieldKeys = ['name', 'minimum_temperature', 'maximum_temperature'] as const;
type BoundFieldKey = (typeof boundFieldKeys)[number];

/** The instants a period of store days covers: [first midnight, the midnight after the last). */
export function periodInstants(start: string, end: string, timezoneName: string) {
  const zone = IANAZone.isValidZone(timezoneName) ? timezoneName : 'UTC';
  const from = DateTime.fromISO(start, { zone }).startOf('day');
  const to = DateTime.fromISO(addDays(end, 1), { zone }).startOf('day');
  return { zone, from: from.toJSDate(), to: to.toJSDate() };
}

type BoundElement = Omit<ProbeElement, 'days'> & { probe_id: string };

/**
 * The store's elements bound to one of its probes (store_elements.probe_id holds the probeUID;
 * a binding counts only while that probe belongs to the same store), with their effective
 * name and bounds (the origin's when it locks them), by name.
 */
async function boundElements(db: Database, storeId: string): Promise<BoundElement[]> {
  const rows = await db
    .select({
      id: storeElements.id,
      originId: databaseElements.id,
      own: {
        name: storeElements.name,
        minimum_temperature: storeElements.minimum_temperature,
        maximum_temperature: storeElements.maximum_temperature,
      },
      origin: {
        name: databaseElements.name,
        minimum_temperature: databaseElements.minimum_temperature,
        maximum_temperature: databaseElements.maximum_temperature,
        locks: databaseElements.locks,
      },
      probeId: probes.id,
      probeUid: probes.probe_uid,
      probeName: probes.name,
    })
    .from(storeElements)
    .innerJoin(stores, eq(stores.id, storeElements.store_id))
    .innerJoin(
      probes,
      and(
        eq(probes.probe_uid, storeElements.probe_id),
        eq(probes.store_id, storeElements.store_id),
      ),
    )
    .leftJoin(
      databaseElements,
      and(
        eq(databaseElements.id, storeElements.origin_id),
        eq(databaseElements.database_id, stores.database_id),
      ),
    )
    .where(and(eq(storeElements.store_id, storeId), isNotNull(storeElements.probe_id)))
    .orderBy(asc(storeElements.id));
  return rows
    .map((row) => {
      const origin = row.originId && row.origin ? row.origin : null;
      const { values } = resolveInheritance<BoundFieldKey, unknown>(
        boundFieldKeys,
        row.own,
        origin
          ? { values: origin, locks: { ...defaultElementLocks, ...(origin.locks ?? {}) } }
          : null,
      );
      return {
        element_id: row.id,
        origin_id: origin ? row.originId : null,
        name: (values.name as string | null) ?? row.probeName,
        probe_id: row.probeId,
        probe_uid: row.probeUid,
        probe_name: row.probeName,
        minimum_temperature: (values.minimum_temperature as number | null) ?? null,
        maximum_temperature: (values.maximum_temperature as number | null) ?? null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.element_id.localeCompare(b.element_id));
}

type DayRow = {
  probe_id: string;
  day: string;
  minimum: number;
  maximum: number;
  last_temperature: number;
  last_at: number;
  readings: number;
};

/** Per probe and store day of [from, to): lowest, highest, last reading and count (one statement). */
async function probeDays(
  db: Database,
  probeIds: readonly string[],
  period: { zone: string; from: Date; to: Date },
): Promise<DayRow[]> {
  if (probeIds.length === 0) return [];
  const local = sql`(${probeReadings.timestamp} at time zone ${period.zone})`;
  const result = (await db.execute(sql`
    select ${probeReadings.probe_id} as probe_id,
      to_char(${local}::date, 'YYYY-MM-DD') as day,
      min(${probeReadings.temperature}) as minimum,
      max(${probeReadings.temperature}) as maximum,
      (array_agg(${probeReadings.temperature} order by ${probeReadings.timestamp} desc))[1]
        as last_temperature,
      (extract(epoch from max(${probeReadings.timestamp})) * 1000)::float8 as last_at,
      count(*)::int as readings
    from ${probeReadings}
    where ${probeReadings.probe_id} in (${sql.join(
      probeIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and ${probeReadings.timestamp} >= ${period.from.toISOString()}::timestamptz
      and ${probeReadings.timestamp} < ${period.to.toISOString()}::timestamptz
    group by 1, 2
    order by 1, 2`)) as unknown as { rows: DayRow[] };
  return result.rows;
}

/** The probe records of a store over its calendar days [start, end], for a checked store. */
export async function probeRecordsOfStore(
  db: Database,
  scope: Scope,
  store: HistoryStore,
  start: string,
  end: string,
): Promise<Pick<HistoryProbes, 'alerts' | 'elements'>> {
  const period = periodInstants(start, end, store.timezone_name);
  const elements = await boundElements(db, store.id);
  const [alerts, days] = await Promise.all([
    // An episode belongs to the period when it overlaps it (begun before its end, not
    // resolved before its start), newest first.
    listAlerts(db, scope, {
      storeId: store.id,
      state: 'all',
      from: period.from.toISOString(),
      to: new Date(period.to.getTime() - 1).toISOString(),
      limit: maxEpisodes,
    }),
    probeDays(db, [...new Set(elements.map((element) => element.probe_id))], period),
  ]);
  const daysByProbe = new Map<string, ProbeElement['days']>();
  for (const row of days) {
    const list = daysByProbe.get(row.probe_id) ?? [];
    list.push({
      day: row.day,
      minimum: Number(row.minimum),
      maximum: Number(row.maximum),
      last_temperature: Number(row.last_temperature),
      last_reading_at: new Date(Number(row.last_at)).toISOString(),
      readings: Number(row.readings),
    });
    daysByProbe.set(row.probe_id, list);
  }
  return {
    alerts,
    elements: elements.map(({ probe_id, ...element }) => ({
      ...element,
      days: daysByProbe.get(probe_id) ?? [],
    })),
  };
}

/** GET /api/stores/:storeId/history/probes: the history's store rule, range rule and records. */
export async function findHistoryProbes(
  db: Database,
  scope: Scope,
  storeId: string,
  query: { start: string; end: string },
): Promise<HistoryProbes> {
  checkRange(query.start, query.end);
  const store = await findHistoryStore(db, scope, storeId);
  const records = await probeRecordsOfStore(db, scope, store, query.start, query.end);
  return { store_id: store.id, start: query.start, end: query.end, ...records };
}

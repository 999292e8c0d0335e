import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordChainEntries } from '../../db/schema';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { recordHashOf } from './chain';
import {
  chainProbeReadingDays,
  probeReadingsDayContent,
  probeReadingsDaySource,
} from './sources/probe-readings-days';
import { verifyRecordsChain } from './verify';

/*
 * Issue 21: a probe's readings chained by store day. The day's entry is appended once the day
 * is sealed, by the job, once; a late reading for a sealed day is chained by its ingestion (an
 * extra `:late:<n>` entry), and the day's own entry still rebuilds as chained; a reading
 * changed or added by SQL is found.
 */

const zone = 'Europe/Paris';
const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let clock = now;
const context = useTestApp({ now: () => clock });

const dayEnd = (day: string) => localMinuteToInstant(addDays(day, 1), 0, zone);
const localTime = (day: string, hour: number, minute = 0) =>
  localMinuteToInstant(day, hour * 60 + minute, zone);

/** The latest day the job seals at `now` (ended at least 1 h 10 min ago). */
function latestSealedDay(): string {
  for (let day = addDays(dayInZone(now, zone), -1); ; day = addDays(day, -1)) {
    if (dayEnd(day).getTime() + 70 * 60_000 <= now.getTime()) return day;
  }
}
const day = latestSealedDay();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
const secrets = new Map<string, string>();
const probeIds = new Map<string, string>();

async function register(probeUID: string, storeId: string) {
  const response = await admin.inject({
    method: 'POST',
    url: '/api/probes',
    payload: { probeUID, name: `Probe ${probeUID}`, storeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  secrets.set(probeUID, response.json().secret);
}

async function post(probeUID: string, readings: { at: Date; temperature: number }[]) {
  return context.app.inject({
    method: 'POST',
    url: `/api/probes/readings/${probeUID}`,
    headers: { authorization: `Bearer ${secrets.get(probeUID)}` },
    payload: {
      readings: readings.map((reading) => ({
        timestamp: reading.at.toISOString(),
        temperature: reading.temperature,
        batteryLevel: 80,
      })),
    },
  });
}

function entriesOf(storeId: string) {
  return context.db
    .select()
    .from(recordChainEntries)
    .where(
      and(
        eq(recordChainEntries.store_id, storeId),
        eq(recordChainEntries.kind, 'probe_readings_day'),
      ),
    )
    .orderBy(asc(recordChainEntries.seq));
}

async function rehash(storeId: string, recordIds: string[]) {
  const rows = await probeReadingsDaySource.load(context.db, storeId, recordIds);
  return new Map(
    recordIds.map((id) => {
      const row = rows.get(id);
      return [id, row === undefined ? null : recordHashOf(probeReadingsDaySource.contentOf(row))];
    }),
  );
}

const storeA2 = () => tenants.a.stores[1]!.id;
const storeB1 = () => tenants.b.stores[0]!.id;
const probeId = (uid: string) => probeIds.get(uid)!;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  await register('day-fridge', storeA2());
  await register('day-late-store', storeB1());
  const rows = (await context.db.execute(sql`select id, probe_uid from probes`)) as unknown as {
    rows: { id: string; probe_uid: string }[];
  };
  for (const row of rows.rows) probeIds.set(row.probe_uid, row.id);
  // A rollup row of -42.5 °C fails its transaction at COMMIT (after the chain append).
  await context.db.execute(
    sql.raw(`create or replace function test_fail_at_commit() returns trigger
      language plpgsql as $$ begin raise exception 'test: failed at commit'; end $$`),
  );
  await context.db.execute(
    sql.raw(`create constraint trigger hourly_fail_at_commit
      after insert or update on probe_readings_hourly
      deferrable initially deferred for each row when (new.minimum = -42.5)
      execute function test_fail_at_commit()`),
  );
});

describe('probe readings by store day in the records chain', () => {
  const dayId = () => `${probeId('day-fridge')}:${day}`;

  it('appends a sealed day once, by the job, with every reading of the day', async () => {
    // The day's readings arrive on time (every 30 minutes), before the day is over.
    clock = new Date(dayEnd(day).getTime() - 5 * 60_000);
    const readings = Array.from({ length: 48 }, (_, index) => ({
      at: localTime(day, Math.floor(index / 2), (index % 2) * 30),
      temperature: 3 + (index % 5) / 10,
    }));
    const posted = await post('day-fridge', readings);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(await entriesOf(storeA2())).toEqual([]);

    clock = now;
    const first = await chainProbeReadingDays(context.db, now);
    expect(first.appended).toBeGreaterThanOrEqual(1);
    const entries = await entriesOf(storeA2());
    expect(entries.map((entry) => entry.record_id)).toEqual([dayId()]);
    expect(entries[0]!.details).toEqual({
      from: localTime(day, 0).toISOString(),
      to: dayEnd(day).toISOString(),
    });
    // Again (another hour, another instance): nothing more.
    expect((await chainProbeReadingDays(context.db, now)).appended).toBe(0);
    expect(await entriesOf(storeA2())).toHaveLength(1);

    const loaded = await probeReadingsDaySource.load(context.db, storeA2(), [dayId()]);
    const content = probeReadingsDayContent(loaded.get(dayId())!);
    expect(content).toMatchObject({ probe_id: probeId('day-fridge'), day, count: 48 });
    expect(content.readings_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await rehash(storeA2(), [dayId()])).get(dayId())).toBe(entries[0]!.record_hash);
  });

  it('chains a late reading for the sealed day as its own entry; a failed one leaves none', async () => {
    clock = now;
    const failed = await post('day-fridge', [{ at: localTime(day, 12, 7), temperature: -42.5 }]);
    expect(failed.statusCode).toBe(500);
    expect((await entriesOf(storeA2())).map((entry) => entry.record_id)).toEqual([dayId()]);
    const kept = (await context.db.execute(
      sql`select count(*)::int as count from probe_readings
        where probe_id = ${probeId('day-fridge')} and temperature = -42.5`,
    )) as unknown as { rows: { count: number }[] };
    expect(Number(kept.rows[0]!.count)).toBe(0);

    const late = await post('day-fridge', [{ at: localTime(day, 12, 2), temperature: 2.5 }]);
    expect(late.statusCode, late.body).toBe(200);
    // The same reading sent again is a duplicate: nothing is chained.
    await post('day-fridge', [{ at: localTime(day, 12, 2), temperature: 2.5 }]);
    const twoMore = await post('day-fridge', [
      { at: localTime(day, 13, 2), temperature: 2.6 },
      { at: localTime(day, 13, 7), temperature: 2.7 },
    ]);
    expect(twoMore.statusCode, twoMore.body).toBe(200);

    const entries = await entriesOf(storeA2());
    expect(entries.map((entry) => entry.record_id)).toEqual([
      dayId(),
      `${dayId()}:late:1`,
      `${dayId()}:late:2`,
    ]);
    expect(entries[1]!.details).toEqual({ timestamps: [localTime(day, 12, 2).toISOString()] });
    const hashes = await rehash(
      storeA2(),
      entries.map((entry) => entry.record_id),
    );
    for (const entry of entries) expect(hashes.get(entry.record_id)).toBe(entry.record_hash);
    const lateRow = (
      await probeReadingsDaySource.load(context.db, storeA2(), [`${dayId()}:late:2`])
    ).get(`${dayId()}:late:2`)!;
    expect(probeReadingsDaySource.contentOf(lateRow)).toMatchObject({ late: 2, count: 2 });
    // The job does not chain the day again.
    expect((await chainProbeReadingDays(context.db, now)).appended).toBe(0);
  });

  it('finds a reading changed, added or removed by SQL behind the application', async () => {
    const entries = await entriesOf(storeA2());
    const ids = entries.map((entry) => entry.record_id);
    const chained = new Map(entries.map((entry) => [entry.record_id, entry.record_hash]));
    const eight = localTime(day, 8).toISOString();
    await context.db.execute(sql`update probe_readings set temperature = 9
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${eight}::timestamptz`);
    let hashes = await rehash(storeA2(), ids);
    expect(hashes.get(dayId())).not.toBe(chained.get(dayId()));
    expect(hashes.get(`${dayId()}:late:1`)).toBe(chained.get(`${dayId()}:late:1`));
    await context.db.execute(sql`update probe_readings set temperature = 3.1
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${eight}::timestamptz`);
    expect((await rehash(storeA2(), ids)).get(dayId())).toBe(chained.get(dayId()));

    // A late reading changed: its own entry breaks, not the day's.
    const noon = localTime(day, 12, 2).toISOString();
    await context.db.execute(sql`update probe_readings set temperature = 1
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${noon}::timestamptz`);
    hashes = await rehash(storeA2(), ids);
    expect(hashes.get(`${dayId()}:late:1`)).not.toBe(chained.get(`${dayId()}:late:1`));
    expect(hashes.get(dayId())).toBe(chained.get(dayId()));
    await context.db.execute(sql`update probe_readings set temperature = 2.5
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${noon}::timestamptz`);

    // A reading slipped into the day by SQL (not through ingestion), then removed.
    const slipped = localTime(day, 14, 14).toISOString();
    await context.db.execute(sql`insert into probe_readings (probe_id, "timestamp", temperature)
      values (${probeId('day-fridge')}, ${slipped}::timestamptz, 3)`);
    expect((await rehash(storeA2(), ids)).get(dayId())).not.toBe(chained.get(dayId()));
    await context.db.execute(sql`delete from probe_readings
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${slipped}::timestamptz`);
    // A reading of the day deleted.
    const two = localTime(day, 2).toISOString();
    await context.db.execute(sql`delete from probe_readings
      where probe_id = ${probeId('day-fridge')} and "timestamp" = ${two}::timestamptz`);
    expect((await rehash(storeA2(), ids)).get(dayId())).not.toBe(chained.get(dayId()));
    await context.db.execute(sql`insert into probe_readings (probe_id, "timestamp", temperature, battery_level)
      values (${probeId('day-fridge')}, ${two}::timestamptz, 3.4, 80)`);
    expect(await rehash(storeA2(), ids)).toEqual(chained);
    expect(await verifyRecordsChain(context.db, storeA2())).toMatchObject({
      status: 'intact',
      counts: { probe_readings_day: 3 },
    });
  });

  it("lists the sealed days a probe's chain owes: a day filled by SQL is found until chained", async () => {
    // Three days before: a probe of store B1 sends, two hours after that day ended, a reading
    // of it — the day is sealed, so its ingestion chains it (the probe's first entry).
    const first = addDays(day, -3);
    clock = new Date(dayEnd(first).getTime() + 2 * 60 * 60_000);
    const posted = await post('day-late-store', [{ at: localTime(first, 10), temperature: 4 }]);
    expect(posted.statusCode, posted.body).toBe(200);
    const uid = probeId('day-late-store');
    expect((await entriesOf(storeB1())).map((entry) => entry.record_id)).toEqual([
      `${uid}:${first}`,
    ]);
    expect(await probeReadingsDaySource.list(context.db, storeB1(), new Date(0), now)).toEqual([]);

    // The next day's readings written by SQL, behind the application: owed, not chained.
    const next = addDays(first, 1);
    await context.db.execute(sql`insert into probe_readings (probe_id, "timestamp", temperature)
      values (${uid}, ${localTime(next, 9).toISOString()}::timestamptz, 5)`);
    expect(await probeReadingsDaySource.list(context.db, storeB1(), new Date(0), now)).toEqual([
      `${uid}:${next}`,
    ]);
    expect(await verifyRecordsChain(context.db, storeB1())).toMatchObject({
      status: 'broken',
      first: {
        kind: 'probe_readings_day',
        record_id: `${uid}:${next}`,
        problem: 'record-inserted',
      },
    });
    // A period that ends before that day does not owe it.
    expect(
      await probeReadingsDaySource.list(context.db, storeB1(), new Date(0), localTime(next, 0)),
    ).toEqual([]);

    // The job chains every missing day since the probe's first one.
    clock = now;
    await chainProbeReadingDays(context.db, now);
    expect((await entriesOf(storeB1())).map((entry) => entry.record_id)).toEqual([
      `${uid}:${first}`,
      `${uid}:${next}`,
    ]);
    expect(await verifyRecordsChain(context.db, storeB1())).toMatchObject({ status: 'intact' });
  });
});

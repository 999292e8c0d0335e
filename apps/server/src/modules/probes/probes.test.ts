import { createHash } from 'node:crypto';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { maxChartPoints } from '@mise/shared/probes/constants';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeReadings, probes } from '../../db/schema';
import {
  buildDatabaseElement,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { ensureProbeReadingPartitions } from './probes.service';

let clock = new Date('2026-11-24T12:00:00.000Z');
const context = useTestApp({ now: () => clock });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
const secrets = new Map<string, string>();

const minutes = (value: number) => value * 60 * 1000;
const at = (offsetMs: number) => new Date(clock.getTime() + offsetMs).toISOString();
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function register(probeUID: string, storeId: string | null) {
  const response = await admin.inject({
    method: 'POST',
    url: '/api/probes',
    payload: { probeUID, name: `Probe ${probeUID}`, ...(storeId ? { storeId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  secrets.set(probeUID, response.json().secret);
  return response.json();
}

function post(probeUid: string, payload: object, secret: string | null = secrets.get(probeUid)!) {
  return context.app.inject({
    method: 'POST',
    url: `/api/probes/readings/${probeUid}`,
    payload,
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
  });
}

async function readingCount(probeUid: string): Promise<number> {
  const rows = await context.db
    .select({ count: sql<number>`count(*)::int` })
    .from(probeReadings)
    .innerJoin(probes, eq(probes.id, probeReadings.probe_id))
    .where(eq(probes.probe_uid, probeUid));
  return Number(rows[0]!.count);
}

async function probeRow(probeUid: string) {
  const [row] = await context.db.select().from(probes).where(eq(probes.probe_uid, probeUid));
  return row!;
}

const batch = (count: number, startMs: number, stepMs = minutes(5)) =>
  Array.from({ length: count }, (_, index) => ({
    timestamp: at(startMs + index * stepMs),
    temperature: ((index * 7) % 40) / 4 - 2,
    batteryLevel: 90,
  }));

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  await register('fridge-a1', tenants.a.stores[0]!.id);
  await register('freezer-b1', tenants.b.stores[0]!.id);
});

describe('POST /api/probes (register, admin only)', () => {
  it('answers 401 anonymous and 403 with the permission text to the other roles', async () => {
    const payload = { probeUID: 'nobody', name: 'Nobody' };
    const anonymous = await context.app.inject({ method: 'POST', url: '/api/probes', payload });
    expect(anonymous.statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await agent.inject({ method: 'POST', url: '/api/probes', payload });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({
        code: 'permission/denied',
        message: 'You do not have permission to execute this action.',
      });
    }
    expect(
      (await context.db.select().from(probes).where(eq(probes.probe_uid, 'nobody'))).length,
    ).toBe(0);
  });

  it('answers the probe with its secret once, stores only the SHA-256, refuses a second UID', async () => {
    const body = await register('walk-in-a2', tenants.a.stores[1]!.id);
    expect(body.probe).toMatchObject({
      probeUID: 'walk-in-a2',
      name: 'Probe walk-in-a2',
      storeId: tenants.a.stores[1]!.id,
      postingInterval: 300,
      active: true,
      lastTemperature: null,
      working: false,
      postUrl: 'http://mise.test/api/probes/readings/walk-in-a2',
    });
    expect(body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await probeRow('walk-in-a2');
    expect(row.secret_hash).toBe(sha256(body.secret));
    const again = await admin.inject({
      method: 'POST',
      url: '/api/probes',
      payload: { probeUID: 'walk-in-a2', name: 'Twice' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('probe/already-exists');
    const list = await admin.inject({ method: 'GET', url: '/api/probes' });
    expect(JSON.stringify(list.json())).not.toContain(body.secret);
    expect(JSON.stringify(list.json())).not.toContain(row.secret_hash);
  });

  it('refuses an unknown store (404) and a UID that cannot travel in a path (400)', async () => {
    const unknown = await admin.inject({
      method: 'POST',
      url: '/api/probes',
      payload: { probeUID: 'lost', name: 'Lost', storeId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(404);
    const badUid = await admin.inject({
      method: 'POST',
      url: '/api/probes',
      payload: { probeUID: 'a/b', name: 'Slash' },
    });
    expect(badUid.statusCode).toBe(400);
  });
});

describe('POST /api/probes/readings/:probeUid (ingestion)', () => {
  it('refuses a missing, wrong or other probe’s secret with 401 and writes nothing', async () => {
    const reading = { timestamp: at(0), temperature: 3.5, batteryLevel: 80 };
    for (const secret of [null, 'wrong-secret', secrets.get('freezer-b1')!]) {
      const response = await post('fridge-a1', reading, secret);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('probe/invalid-secret');
    }
    const unknownProbe = await post('no-such-probe', reading, secrets.get('fridge-a1')!);
    expect(unknownProbe.statusCode).toBe(401);
    expect(await readingCount('fridge-a1')).toBe(0);
  });

  it('accepts a batch once: the same batch again accepts 0 and writes nothing twice', async () => {
    const readings = batch(20, -minutes(200));
    const first = await post('fridge-a1', { readings });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ accepted: 20, duplicates: 0 });
    const second = await post('fridge-a1', { readings });
    expect(second.json()).toEqual({ accepted: 0, duplicates: 20 });
    expect(await readingCount('fridge-a1')).toBe(20);
  });

  it('two identical batches racing write each reading once', async () => {
    const readings = batch(200, -minutes(3 * 24 * 60), 1000);
    const answers = await Promise.all([
      post('fridge-a1', { readings }),
      post('fridge-a1', { readings }),
    ]);
    const accepted = answers.map((answer) => answer.json().accepted as number);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(accepted[0]! + accepted[1]!).toBe(200);
    expect(await readingCount('fridge-a1')).toBe(220);
  });

  it('accepts a single reading and a repeated timestamp inside one batch once', async () => {
    const single = await post('walk-in-a2', {
      timestamp: at(0),
      temperature: 2,
      batteryLevel: 55.6,
    });
    expect(single.json()).toEqual({ accepted: 1, duplicates: 0 });
    const repeated = await post('walk-in-a2', {
      readings: [
        { timestamp: at(-60_000), temperature: 2, batteryLevel: 55 },
        { timestamp: at(-60_000), temperature: 9, batteryLevel: 55 },
      ],
    });
    expect(repeated.json()).toEqual({ accepted: 1, duplicates: 1 });
    expect((await probeRow('walk-in-a2')).battery_level).toBe(56);
  });

  it.each([
    [
      'a timestamp more than 5 minutes ahead',
      { timestamp: at(minutes(5) + 1000) },
      'probe/reading-in-future',
    ],
    [
      'a timestamp older than 31 days',
      { timestamp: at(-minutes(31 * 24 * 60) - 1000) },
      'probe/reading-too-old',
    ],
    ['a temperature above 300 °C', { temperature: 300.5 }, 'probe/temperature-out-of-range'],
    ['a temperature below -80 °C', { temperature: -81 }, 'probe/temperature-out-of-range'],
    ['a battery above 100 %', { batteryLevel: 101 }, 'probe/battery-out-of-range'],
    ['a battery below 0 %', { batteryLevel: -1 }, 'probe/battery-out-of-range'],
  ])('refuses a batch holding %s and writes nothing of it', async (_label, change, code) => {
    const before = await readingCount('fridge-a1');
    const lastBefore = (await probeRow('fridge-a1')).last_temperature_timestamp;
    const readings = batch(3, minutes(1), 1000);
    readings[1] = { ...readings[1]!, ...change };
    const response = await post('fridge-a1', { readings });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(await readingCount('fridge-a1')).toBe(before);
    expect((await probeRow('fridge-a1')).last_temperature_timestamp).toEqual(lastBefore);
  });

  it('refuses more than 1,000 readings, an epoch timestamp and unknown fields (400)', async () => {
    for (const payload of [
      { readings: batch(1001, -minutes(2000), 1000) },
      { timestamp: Math.floor(clock.getTime() / 1000), temperature: 3, batteryLevel: 50 },
      { timestamp: at(0), temperature: 3, batteryLevel: 50, probeId: 'x' },
      { readings: [] },
    ]) {
      const response = await post('fridge-a1', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });

  it('last temperature follows the newest reading and never moves backwards', async () => {
    await register('cold-room-a1', tenants.a.stores[0]!.id);
    const newest = { timestamp: at(-minutes(10)), temperature: 4.5, batteryLevel: 70 };
    expect((await post('cold-room-a1', newest)).json().accepted).toBe(1);
    const late = await post('cold-room-a1', {
      readings: [
        { timestamp: at(-minutes(30)), temperature: 12, batteryLevel: 90 },
        { timestamp: at(-minutes(20)), temperature: 11, batteryLevel: 91 },
      ],
    });
    expect(late.json()).toEqual({ accepted: 2, duplicates: 0 });
    const row = await probeRow('cold-room-a1');
    expect(row.last_temperature).toBe(4.5);
    expect(row.last_temperature_timestamp?.toISOString()).toBe(newest.timestamp);
    expect(row.battery_level).toBe(70);
    const newer = { timestamp: at(-minutes(1)), temperature: 5, batteryLevel: 69 };
    await post('cold-room-a1', newer);
    const list = await customerA.inject({
      method: 'GET',
      url: `/api/probes/store/${tenants.a.stores[0]!.id}`,
    });
    expect(
      list.json().items.find((item: { probeUID: string }) => item.probeUID === 'cold-room-a1'),
    ).toMatchObject({
      lastTemperature: 5,
      lastTemperatureTimestamp: newer.timestamp,
      batteryLevel: 69,
      working: true,
    });
  });
});

describe('GET /api/probes and GET /api/probes/store/:storeId', () => {
  it('lists every probe to the admin with its working status; 403 to the other roles', async () => {
    const response = await admin.inject({ method: 'GET', url: '/api/probes' });
    expect(response.statusCode).toBe(200);
    const items = response.json().items as { probeUID: string; working: boolean }[];
    expect(items.map((item) => item.probeUID)).toEqual(
      expect.arrayContaining(['fridge-a1', 'freezer-b1', 'walk-in-a2']),
    );
    expect(items.find((item) => item.probeUID === 'freezer-b1')!.working).toBe(false);
    for (const agent of [distributorA, managerA, customerA]) {
      expect((await agent.inject({ method: 'GET', url: '/api/probes' })).statusCode).toBe(403);
    }
  });

  it("lists a store's probes to whoever sees the store, 404 to another tenant", async () => {
    const storeA1 = tenants.a.stores[0]!.id;
    for (const agent of [admin, distributorA, managerA, customerA]) {
      const response = await agent.inject({ method: 'GET', url: `/api/probes/store/${storeA1}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().items.map((item: { probeUID: string }) => item.probeUID)).toEqual(
        expect.arrayContaining(['fridge-a1', 'cold-room-a1']),
      );
    }
    const storeB1 = tenants.b.stores[0]!.id;
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await agent.inject({ method: 'GET', url: `/api/probes/store/${storeB1}` });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('freezer-b1');
    }
    const storeA2 = tenants.a.stores[1]!.id;
    expect(
      (await customerA.inject({ method: 'GET', url: `/api/probes/store/${storeA2}` })).statusCode,
    ).toBe(404);
  });
});

describe('a probe bound to a store element', () => {
  it('answers the element and its range with the probe (the alerts default range)', async () => {
    await register('bound-a1', tenants.a.stores[0]!.id);
    await buildStoreElement(context.db, {
      store_id: tenants.a.stores[0]!.id,
      name: 'Walk-in',
      probe_id: 'bound-a1',
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    const response = await customerA.inject({
      method: 'GET',
      url: `/api/probes/store/${tenants.a.stores[0]!.id}`,
    });
    const probe = response
      .json()
      .items.find((item: { probeUID: string }) => item.probeUID === 'bound-a1');
    expect(probe.element).toEqual({
      name: 'Walk-in',
      minimumTemperature: 0,
      maximumTemperature: 4,
    });
    // A store value under a database lock takes the database element's, as the catalogue does.
    await register('bound-a1-locked', tenants.a.stores[0]!.id);
    const origin = await buildDatabaseElement(context.db, {
      database_id: tenants.a.database.id,
      name: 'Freezer',
      minimum_temperature: -25,
      maximum_temperature: -18,
      locks: { ...defaultElementLocks, maximum_temperature: true, minimum_temperature: false },
    });
    await buildStoreElement(context.db, {
      store_id: tenants.a.stores[0]!.id,
      origin_id: origin.id,
      probe_id: 'bound-a1-locked',
      minimum_temperature: -30,
      maximum_temperature: -10,
    });
    const locked = (
      await customerA.inject({ method: 'GET', url: `/api/probes/store/${tenants.a.stores[0]!.id}` })
    )
      .json()
      .items.find((item: { probeUID: string }) => item.probeUID === 'bound-a1-locked');
    expect(locked.element).toEqual({
      name: 'Freezer',
      minimumTemperature: -30,
      maximumTemperature: -18,
    });
    const unbound = response
      .json()
      .items.find((item: { probeUID: string }) => item.probeUID === 'fridge-a1');
    expect(unbound.element).toBeNull();
  });
});

describe('POST /api/probes/edit/:probeUID and removeOwnership (admin only)', () => {
  it('stores the posting interval in seconds from minutes and checks min <= max', async () => {
    const response = await admin.inject({
      method: 'POST',
      url: '/api/probes/edit/walk-in-a2',
      payload: {
        name: 'Walk-in',
        postingInterval: 15,
        minimumTemperature: 0,
        maximumTemperature: 4,
        active: false,
        pushNotification: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().probe).toMatchObject({
      name: 'Walk-in',
      postingInterval: 900,
      minimumTemperature: 0,
      maximumTemperature: 4,
      active: false,
      pushNotification: true,
    });
    expect((await probeRow('walk-in-a2')).posting_interval).toBe(900);
    const inverted = await admin.inject({
      method: 'POST',
      url: '/api/probes/edit/walk-in-a2',
      payload: { minimumTemperature: 5 },
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().error.code).toBe('probe/invalid-range');
    const missing = await admin.inject({
      method: 'POST',
      url: '/api/probes/edit/nothing-here',
      payload: { name: 'x' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('answers 403 to distributor, manager and customer and changes nothing', async () => {
    for (const agent of [distributorA, managerA, customerA]) {
      const edit = await agent.inject({
        method: 'POST',
        url: '/api/probes/edit/fridge-a1',
        payload: { name: 'Hijacked' },
      });
      expect(edit.statusCode).toBe(403);
      const remove = await agent.inject({
        method: 'POST',
        url: '/api/probes/removeOwnership/fridge-a1',
      });
      expect(remove.statusCode).toBe(403);
    }
    const row = await probeRow('fridge-a1');
    expect(row.name).toBe('Probe fridge-a1');
    expect(row.store_id).toBe(tenants.a.stores[0]!.id);
  });

  it("removeOwnership takes the probe off its store's list", async () => {
    const response = await admin.inject({
      method: 'POST',
      url: '/api/probes/removeOwnership/walk-in-a2',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().probe.storeId).toBeNull();
    const list = await admin.inject({
      method: 'GET',
      url: `/api/probes/store/${tenants.a.stores[1]!.id}`,
    });
    expect(list.json().items).toEqual([]);
  });
});

describe('partitions of probe_readings', () => {
  const partitionOf = async (probeUid: string, timestamp: string) => {
    const result = (await context.db.execute(sql`
      select r.tableoid::regclass::text as partition
      from probe_readings r join probes p on p.id = r.probe_id
      where p.probe_uid = ${probeUid} and r."timestamp" = ${timestamp}::timestamptz`)) as unknown as {
      rows: { partition: string }[];
    };
    return result.rows.map((row) => row.partition);
  };

  it('creates month partitions at start and ahead, attached to probe_readings', async () => {
    const created = await ensureProbeReadingPartitions(
      context.db,
      new Date('2027-01-15T00:00:00Z'),
    );
    expect(created).toEqual(['probe_readings_y2027m02', 'probe_readings_y2027m03']);
    expect(
      await ensureProbeReadingPartitions(context.db, new Date('2027-01-15T00:00:00Z')),
    ).toEqual([]);
    const result = (await context.db.execute(sql`
      select c.relname::text as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'probe_readings'::regclass order by 1`)) as unknown as {
      rows: { name: string }[];
    };
    expect(result.rows.map((row) => row.name)).toEqual([
      'probe_readings_default',
      'probe_readings_y2026m09',
      'probe_readings_y2026m10',
      'probe_readings_y2026m11',
      'probe_readings_y2026m12',
      'probe_readings_y2027m01',
      'probe_readings_y2027m02',
      'probe_readings_y2027m03',
    ]);
  });

  it('routes Jan 31 23:59 and Feb 1 00:00 into two month partitions', async () => {
    clock = new Date('2027-02-01T00:03:00.000Z');
    try {
      await register('boundary', tenants.a.stores[0]!.id);
      const response = await post('boundary', {
        readings: [
          { timestamp: '2027-01-31T23:59:00Z', temperature: 3, batteryLevel: 80 },
          { timestamp: '2027-02-01T00:00:00Z', temperature: 3.5, batteryLevel: 80 },
        ],
      });
      expect(response.json()).toEqual({ accepted: 2, duplicates: 0 });
      expect(await partitionOf('boundary', '2027-01-31T23:59:00Z')).toEqual([
        'probe_readings_y2027m01',
      ]);
      expect(await partitionOf('boundary', '2027-02-01T00:00:00Z')).toEqual([
        'probe_readings_y2027m02',
      ]);
    } finally {
      clock = new Date('2026-11-24T12:00:00.000Z');
    }
  });

  it('keeps a reading with no month partition in DEFAULT, then moves it into the new month', async () => {
    clock = new Date('2027-07-10T08:00:00.000Z');
    try {
      await register('summer', tenants.a.stores[0]!.id);
      const timestamp = '2027-07-10T07:55:00.000Z';
      expect(
        (await post('summer', { timestamp, temperature: 6, batteryLevel: 40 })).json(),
      ).toEqual({
        accepted: 1,
        duplicates: 0,
      });
      expect(await partitionOf('summer', timestamp)).toEqual(['probe_readings_default']);
      const created = await ensureProbeReadingPartitions(context.db, clock, {
        monthsBefore: 0,
        monthsAhead: 0,
      });
      expect(created).toEqual(['probe_readings_y2027m07']);
      expect(await partitionOf('summer', timestamp)).toEqual(['probe_readings_y2027m07']);
      // Still accepted once after the move.
      expect(
        (await post('summer', { timestamp, temperature: 6, batteryLevel: 40 })).json(),
      ).toEqual({
        accepted: 0,
        duplicates: 1,
      });
    } finally {
      clock = new Date('2026-11-24T12:00:00.000Z');
    }
  });
});

describe('POST /api/probes/temperatures/:probeUID', () => {
  const range = (probeUid: string, agent: Agent, start: string, end: string) =>
    agent.inject({
      method: 'POST',
      url: `/api/probes/temperatures/${probeUid}`,
      payload: { start, end },
    });

  it('answers a short range reading by reading, both ends included', async () => {
    await register('short', tenants.a.stores[0]!.id);
    const readings = batch(5, -minutes(60), minutes(10));
    await post('short', { readings });
    const response = await range(
      'short',
      customerA,
      readings[1]!.timestamp,
      readings[3]!.timestamp,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().bucketSeconds).toBeNull();
    expect(response.json().readings).toEqual(
      readings.slice(1, 4).map((reading) => ({
        timestamp: reading.timestamp,
        temperature: reading.temperature,
        minTemperature: reading.temperature,
        maxTemperature: reading.temperature,
        batteryLevel: 90,
        count: 1,
      })),
    );
  });

  it("downsamples a long range to <= 1,000 buckets whose min/max equal the raw data's", async () => {
    await register('long', tenants.a.stores[0]!.id);
    const readings = batch(2500, -minutes(2600), minutes(1));
    for (let offset = 0; offset < readings.length; offset += 1000) {
      const response = await post('long', { readings: readings.slice(offset, offset + 1000) });
      expect(response.statusCode, response.body).toBe(200);
    }
    const start = readings[0]!.timestamp;
    const end = readings.at(-1)!.timestamp;
    const response = await range('long', admin, start, end);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const width = body.bucketSeconds as number;
    expect(width).toBe(150);
    expect(body.readings.length).toBeLessThanOrEqual(maxChartPoints);
    // The same buckets computed from the raw data sent.
    const expected = new Map<string, { min: number; max: number; sum: number; count: number }>();
    for (const reading of readings) {
      const offset = new Date(reading.timestamp).getTime() - new Date(start).getTime();
      const key = new Date(
        new Date(start).getTime() + Math.floor(offset / (width * 1000)) * width * 1000,
      ).toISOString();
      const bucket = expected.get(key) ?? { min: Infinity, max: -Infinity, sum: 0, count: 0 };
      bucket.min = Math.min(bucket.min, reading.temperature);
      bucket.max = Math.max(bucket.max, reading.temperature);
      bucket.sum += reading.temperature;
      bucket.count += 1;
      expected.set(key, bucket);
    }
    expect(body.readings).toHaveLength(expected.size);
    for (const point of body.readings) {
      const bucket = expected.get(point.timestamp)!;
      expect(point.minTemperature).toBe(bucket.min);
      expect(point.maxTemperature).toBe(bucket.max);
      expect(point.count).toBe(bucket.count);
      expect(point.temperature).toBeCloseTo(bucket.sum / bucket.count, 6);
    }
  });

  it('reads months from the hourly rollup: whole-hour buckets equal to the raw data', async () => {
    await register('months', tenants.a.stores[0]!.id);
    // 45 days, a reading every 20 minutes, posted as a hub would (each batch under 31 days old).
    const saved = clock;
    const first = new Date('2026-09-01T00:10:00.000Z').getTime();
    const readings = Array.from({ length: 45 * 72 }, (_, index) => ({
      timestamp: new Date(first + index * minutes(20)).toISOString(),
      temperature: ((index * 13) % 50) / 5 - 3,
      batteryLevel: 80,
    }));
    for (let offset = 0; offset < readings.length; offset += 1000) {
      const slice = readings.slice(offset, offset + 1000);
      clock = new Date(new Date(slice.at(-1)!.timestamp).getTime() + minutes(1));
      const response = await post('months', { readings: slice });
      expect(response.statusCode, response.body).toBe(200);
      // Sent twice: the rollup counts each reading once.
      await post('months', { readings: slice });
    }
    clock = saved;
    const start = '2026-09-01T00:00:00.000Z';
    const end = readings.at(-1)!.timestamp;
    const body = (await range('months', admin, start, end)).json();
    const width = body.bucketSeconds as number;
    expect(width % 3600).toBe(0);
    expect(body.readings.length).toBeLessThanOrEqual(maxChartPoints);
    const expected = new Map<string, { min: number; max: number; count: number }>();
    for (const reading of readings) {
      const offset = new Date(reading.timestamp).getTime() - new Date(start).getTime();
      const key = new Date(
        new Date(start).getTime() + Math.floor(offset / (width * 1000)) * width * 1000,
      ).toISOString();
      const bucket = expected.get(key) ?? { min: Infinity, max: -Infinity, count: 0 };
      bucket.min = Math.min(bucket.min, reading.temperature);
      bucket.max = Math.max(bucket.max, reading.temperature);
      bucket.count += 1;
      expected.set(key, bucket);
    }
    expect(body.readings).toHaveLength(expected.size);
    for (const point of body.readings) {
      const bucket = expected.get(point.timestamp)!;
      expect(point.minTemperature).toBeCloseTo(bucket.min, 5);
      expect(point.maxTemperature).toBeCloseTo(bucket.max, 5);
      expect(point.count).toBe(bucket.count);
    }
  });

  it("answers 404 for another tenant's probe and refuses an inverted range", async () => {
    const other = await range('freezer-b1', customerA, at(-minutes(60)), at(0));
    expect(other.statusCode).toBe(404);
    const inverted = await range('fridge-a1', admin, at(0), at(-minutes(60)));
    expect(inverted.statusCode).toBe(400);
    const tooLong = await range('fridge-a1', admin, '2020-01-01T00:00:00Z', at(0));
    expect(tooLong.json().error.code).toBe('date-range-too-long');
  });
});

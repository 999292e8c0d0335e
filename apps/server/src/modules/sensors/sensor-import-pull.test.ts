import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeReadings, probes } from '../../db/schema';
import {
  createLocalSensorProvider,
  localSensorPassword,
  type SensorProvider,
} from '../../platform/integrations/sensor-provider';
import { simulatedReading } from '../../platform/integrations/sensor-simulation';
import { buildStore, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';
import { registerProviderProbes } from '../probes/probes.service';
import { pullProviderReadings } from './sensors.service';

const provider: SensorProvider = createLocalSensorProvider();
const context = useTestApp({ integrations: { sensorProvider: provider } });
const demoHash = createHash('sha256').update(localSensorPassword).digest('hex');

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

const importProbes = (agent: Agent | null, payload: object) =>
  agent
    ? agent.inject({ method: 'POST', url: '/api/koovea/import', payload })
    : context.app.inject({ method: 'POST', url: '/api/koovea/import', payload });
const connect = (agent: Agent, target: { storeId: string } | { distributorId: string }) =>
  agent.inject({
    method: 'POST',
    url: '/api/koovea/validCredentials',
    payload: { email: 'demo@koovea.test', password: demoHash, ...target },
  });
const probesOf = (storeId: string) =>
  context.db
    .select()
    .from(probes)
    .where(eq(probes.store_id, storeId))
    .orderBy(asc(probes.probe_uid));
const readingCount = async (probeId: string) =>
  (
    await context.db
      .select({ value: count() })
      .from(probeReadings)
      .where(eq(probeReadings.probe_id, probeId))
  )[0]!.value;

describe('POST /api/koovea/import', () => {
  it('answers 401 anonymous, 400 to invalid input, 404 outside the scope, writing nothing', async () => {
    const storeId = tenants.a.stores[0]!.id;
    expect((await importProbes(null, { storeId })).statusCode).toBe(401);
    for (const payload of [{}, { storeId: 'x' }, { storeId, extra: 1 }]) {
      const response = await importProbes(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(
      (await importProbes(distributorA, { storeId: tenants.b.stores[0]!.id })).statusCode,
    ).toBe(404);
    expect((await importProbes(customerA, { storeId: tenants.a.stores[1]!.id })).statusCode).toBe(
      404,
    );
    expect(await context.db.select().from(probes)).toEqual([]);
  });

  it('answers 409 sensor/not-connected to a store with no credentials', async () => {
    const response = await importProbes(customerA, { storeId: tenants.a.stores[0]!.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('sensor/not-connected');
    expect(await context.db.select().from(probes)).toEqual([]);
  });

  it("imports the store's tags once as its probes; a manager of a store not manager-owned may not", async () => {
    const storeId = tenants.a.stores[0]!.id;
    expect((await connect(customerA, { storeId })).json()).toEqual({ status: 'ok' });
    const refused = await importProbes(managerA, { storeId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    const first = await importProbes(customerA, { storeId });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ created: 4, existing: 0, skipped: 0 });
    const rows = await probesOf(storeId);
    expect(rows.map((row) => [row.probe_uid, row.name, row.provider_tag_id])).toEqual([
      ['koovea-tag-cold-room', 'Chambre froide', 'tag-cold-room'],
      ['koovea-tag-freezer', 'Congélateur', 'tag-freezer'],
      ['koovea-tag-fridge-1', 'Frigo 1', 'tag-fridge-1'],
      ['koovea-tag-walk-in', 'Chambre froide positive', 'tag-walk-in'],
    ]);
    expect(new Set(rows.map((row) => row.secret_hash)).size).toBe(4);
    expect(rows.every((row) => row.posting_interval === 300)).toBe(true);
    const again = await importProbes(admin, { storeId });
    expect(again.json()).toEqual({ created: 0, existing: 4, skipped: 0 });
    expect(await probesOf(storeId)).toHaveLength(4);
  });

  it("uses the distributor's credentials and the store's hub; then only staff may import", async () => {
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
      manager_owned: true,
      sensor_sticker_id: 'hub-storage',
    });
    expect(
      (await connect(distributorA, { distributorId: tenants.a.distributor.id })).json(),
    ).toEqual({ status: 'ok' });
    // The manager could edit this manager-owned store, but its credentials are the distributor's.
    expect((await importProbes(managerA, { storeId: store.id })).statusCode).toBe(403);
    const response = await importProbes(distributorA, { storeId: store.id });
    // hub-storage holds the freezer only, already imported by the first store: left there.
    expect(response.json()).toEqual({ created: 0, existing: 1, skipped: 0 });
    expect(await probesOf(store.id)).toEqual([]);
  });
});

describe('pullProviderReadings', () => {
  const now = new Date('2026-11-20T12:02:00Z');
  const storeId = () => tenants.a.stores[0]!.id;

  it("pulls the last 24 hours of every due probe of a connected store, once, with the provider's values", async () => {
    // A provider probe of a store with no credentials is never pulled.
    const lonely = await buildStore(context.db, { distributor_id: null });
    await registerProviderProbes(context.db, lonely.id, [
      { probeUid: 'koovea-lonely', name: 'Lonely', providerTagId: 'tag-fridge-1' },
    ]);
    const first = await pullProviderReadings(context.db, provider, now);
    // 24 h of 5-minute marks: (12:02 yesterday, 12:02] holds 12:05 … 12:00, 288 readings.
    expect(first).toEqual({ probes: 4, readings: 4 * 288 });
    const rows = await probesOf(storeId());
    for (const row of rows) {
      expect(await readingCount(row.id)).toBe(288);
      expect(row.last_temperature_timestamp?.toISOString()).toBe('2026-11-20T12:00:00.000Z');
      const expected = simulatedReading(row.provider_tag_id!, new Date('2026-11-20T12:00:00Z'));
      expect(row.last_temperature).toBeCloseTo(expected.temperature, 4);
      expect(row.battery_level).toBe(expected.batteryLevel);
    }
    const [lonelyProbe] = await probesOf(lonely.id);
    expect(await readingCount(lonelyProbe!.id)).toBe(0);

    // The same instant again: nothing is due, nothing is written.
    expect(await pullProviderReadings(context.db, provider, now)).toEqual({
      probes: 0,
      readings: 0,
    });
    // Even a probe that forgot its last reading gets the same readings again and keeps one each.
    await context.db
      .update(probes)
      .set({ last_temperature_timestamp: null })
      .where(eq(probes.probe_uid, 'koovea-tag-freezer'));
    expect(await pullProviderReadings(context.db, provider, now)).toEqual({
      probes: 1,
      readings: 0,
    });
    const freezer = rows.find((row) => row.probe_uid === 'koovea-tag-freezer')!;
    expect(await readingCount(freezer.id)).toBe(288);
  });

  it('pulls only what is new once a posting interval has passed, in a fixed number of queries', async () => {
    const later = new Date(now.getTime() + 17 * 60_000);
    let summary: Awaited<ReturnType<typeof pullProviderReadings>> | undefined;
    const queries = await countQueries(context.database, async () => {
      summary = await pullProviderReadings(context.db, provider, later);
    });
    // 12:05, 12:10 and 12:15 for each of the four probes.
    expect(summary).toEqual({ probes: 4, readings: 12 });
    // One query for the due probes, one for the credentials, one insert a probe.
    expect(queries).toBe(2 + 4);
    for (const row of await probesOf(storeId())) {
      expect(await readingCount(row.id)).toBe(291);
      expect(row.last_temperature_timestamp?.toISOString()).toBe('2026-11-20T12:15:00.000Z');
    }
  });

  it('honours each probe its posting interval, and a silent provider costs nothing', async () => {
    await context.db
      .update(probes)
      .set({ posting_interval: 3600 })
      .where(and(eq(probes.store_id, storeId()), eq(probes.probe_uid, 'koovea-tag-walk-in')));
    const later = new Date('2026-11-20T12:30:00Z');
    expect(await pullProviderReadings(context.db, provider, later)).toEqual({
      probes: 3,
      readings: 9,
    });
    const silent: SensorProvider = { ...provider, readings: async () => [] };
    expect(
      await pullProviderReadings(context.db, silent, new Date('2026-11-20T13:00:00Z')),
    ).toEqual({ probes: 3, readings: 0 });
    const throwing: SensorProvider = {
      ...provider,
      readings: async () => {
        throw new Error('down');
      },
    };
    const logged: string[] = [];
    expect(
      await pullProviderReadings(context.db, throwing, new Date('2026-11-20T13:00:00Z'), (_, m) =>
        logged.push(m),
      ),
    ).toEqual({ probes: 3, readings: 0 });
    expect(logged).toEqual(['sensor pull failed', 'sensor pull failed', 'sensor pull failed']);
  });

  it('drops a reading ingestion would refuse, and keeps the others', async () => {
    const odd: SensorProvider = {
      ...provider,
      readings: async (_credentials, _tagId, since, until) => [
        { timestamp: new Date(since.getTime() + 60_000), temperature: 999, batteryLevel: 50 },
        { timestamp: new Date(since.getTime() + 120_000), temperature: 3, batteryLevel: null },
        { timestamp: new Date(until.getTime() + 3_600_000), temperature: 3, batteryLevel: 50 },
      ],
    };
    const at = new Date('2026-11-20T14:00:00Z');
    const logged: unknown[] = [];
    const summary = await pullProviderReadings(context.db, odd, at, (details) =>
      logged.push(details),
    );
    expect(summary).toEqual({ probes: 4, readings: 4 });
    expect(logged).toHaveLength(4);
    const [walkIn] = await context.db
      .select()
      .from(probes)
      .where(eq(probes.probe_uid, 'koovea-tag-walk-in'));
    // A reading with no battery level leaves the probe's last battery level as it was.
    expect(walkIn!.battery_level).not.toBeNull();
    expect(walkIn!.last_temperature).toBe(3);
    const absurd = await context.db
      .select({ value: count() })
      .from(probeReadings)
      .where(gt(probeReadings.temperature, 300));
    expect(absurd[0]!.value).toBe(0);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;

const on = (timestamp: string) => ({ timestamp, activated: true });
const off = (timestamp: string) => ({ timestamp, activated: false });
const march = { start: '2026-03-01', end: '2026-03-31' };

/**
 * Monthly distributor "Billing Monthly" (default price 19, its database at 22) and 5-year
 * distributor "Billing Yearly" (price 10), plus an inactive distributor left out by default.
 */
let monthly: Awaited<ReturnType<typeof buildDistributor>>;
let yearly: Awaited<ReturnType<typeof buildDistributor>>;
let sleeping: Awaited<ReturnType<typeof buildDistributor>>;
const storeIds: Record<string, string> = {};

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);

  monthly = await buildDistributor(context.db, { name: 'Billing Monthly' });
  yearly = await buildDistributor(context.db, {
    name: 'Billing Yearly',
    billing_cycle: 60,
    licence_price: '10',
  });
  sleeping = await buildDistributor(context.db, { name: 'Billing Sleeping', active: false });
  const pricedDatabase = await buildDatabase(context.db, {
    distributor_id: monthly.id,
    licence_price: '22',
  });
  const store = async (label: string, values: Parameters<typeof buildStore>[1]): Promise<void> => {
    storeIds[label] = (await buildStore(context.db, { name: label, ...values })).id;
  };
  const licensed = { mise_licence: true };
  await store('M1 all year', {
    distributor_id: monthly.id,
    ...licensed,
    licence_activation_history: [on('2026-01-10T09:00:00Z')],
  });
  await store('M2 mid-month two devices', {
    distributor_id: monthly.id,
    ...licensed,
    maximum_devices: 2,
    licence_activation_history: [on('2026-03-15T10:00:00Z')],
  });
  await store('M3 store override', {
    distributor_id: monthly.id,
    database_id: pricedDatabase.id,
    ...licensed,
    licence_price: '25.50',
    licence_activation_history: [on('2026-02-01T00:00:00Z')],
  });
  await store('M4 toggled', {
    distributor_id: monthly.id,
    ...licensed,
    licence_activation_history: [
      on('2026-03-02T08:00:00Z'),
      off('2026-03-05T08:00:00Z'),
      on('2026-03-20T08:00:00Z'),
    ],
  });
  await store('M5 never licensed', { distributor_id: monthly.id });
  await store('M6 inactive, licensed early March', {
    distributor_id: monthly.id,
    active: false,
    licence_activation_history: [on('2026-02-01T00:00:00Z'), off('2026-03-10T00:00:00Z')],
  });
  await store('M7 inactive since January', {
    distributor_id: monthly.id,
    active: false,
    licence_activation_history: [on('2025-11-01T00:00:00Z'), off('2026-01-15T00:00:00Z')],
  });
  await store('M8 database price', {
    distributor_id: monthly.id,
    database_id: pricedDatabase.id,
    ...licensed,
    licence_activation_history: [on('2026-02-20T00:00:00Z')],
  });
  await store('M9 three devices at 19.99', {
    distributor_id: monthly.id,
    ...licensed,
    maximum_devices: 3,
    licence_price: '19.99',
    licence_activation_history: [on('2026-03-31T23:00:00Z')],
  });
  await store('Y1 new term', {
    distributor_id: yearly.id,
    ...licensed,
    licence_activation_history: [on('2026-03-03T00:00:00Z')],
  });
  await store('Y2 term paid in 2025', {
    distributor_id: yearly.id,
    ...licensed,
    licence_activation_history: [on('2025-06-01T00:00:00Z')],
  });
  await store('S1 sleeping', {
    distributor_id: sleeping.id,
    ...licensed,
    licence_activation_history: [on('2026-03-01T00:00:00Z')],
  });
});

const summary = (agent: Agent | null, payload: object) => {
  const options = { method: 'POST' as const, url: '/api/billing/summary', payload };
  return agent ? agent.inject(options) : context.app.inject(options);
};

type BilledStore = {
  name: string;
  cost: number;
  maximumDevices: number;
  licencePrice: number;
  billedMonths: number;
};

describe('POST /api/billing/summary', () => {
  it('answers 401 anonymous and 403 to every role but admin', async () => {
    expect((await summary(null, { period: march })).statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await summary(agent, { period: march });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
  });

  it('refuses invalid periods and fields with 400, and an unknown distributor with 404', async () => {
    for (const payload of [
      {},
      { period: { start: '2026-03-01' } },
      { period: { start: '2026-03-31', end: '2026-03-01' } },
      { period: { start: '2026-3-1', end: '2026-03-31' } },
      { period: march, distributorId: 'abc' },
      { period: march, currency: 'EUR' },
    ]) {
      const response = await summary(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    const tooLong = await summary(admin, { period: { start: '2020-01-01', end: '2026-03-31' } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const unknown = await summary(admin, {
      period: march,
      distributorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('bills every active distributor: mid-month activation, toggles, overrides, devices, 5-year cycle', async () => {
    const response = await summary(admin, { period: march });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body.billedStores).sort()).toEqual(['Billing Monthly', 'Billing Yearly']);
    const costs = (name: string) =>
      Object.fromEntries(
        (body.billedStores[name] as BilledStore[]).map((store) => [store.name, store.cost]),
      );
    expect(costs('Billing Monthly')).toEqual({
      'M1 all year': 19,
      'M2 mid-month two devices': 38,
      'M3 store override': 25.5,
      'M4 toggled': 19,
      'M6 inactive, licensed early March': 19,
      'M8 database price': 22,
      'M9 three devices at 19.99': 59.97,
    });
    expect(costs('Billing Yearly')).toEqual({ 'Y1 new term': 600 });
    const yearlyStore = (body.billedStores['Billing Yearly'] as BilledStore[])[0]!;
    expect(yearlyStore).toMatchObject({ maximumDevices: 1, licencePrice: 10, billedMonths: 60 });
    const twoDevices = (body.billedStores['Billing Monthly'] as BilledStore[]).find(
      (store) => store.name === 'M2 mid-month two devices',
    )!;
    expect(twoDevices).toMatchObject({ maximumDevices: 2, licencePrice: 19, billedMonths: 1 });

    const byId = Object.fromEntries(
      body.distributors.map((row: { id: string; cost: number }) => [row.id, row.cost]),
    );
    expect(byId[monthly.id]).toBe(202.47);
    expect(byId[yearly.id]).toBe(600);
    expect(byId[tenants.a.distributor.id]).toBe(0);
    expect(byId[sleeping.id]).toBeUndefined();
    expect(body.total).toBe(802.47);
  });

  it('bills only the distributor asked for, even an inactive one', async () => {
    const yearlyOnly = (await summary(admin, { period: march, distributorId: yearly.id })).json();
    expect(yearlyOnly.total).toBe(600);
    expect(Object.keys(yearlyOnly.billedStores)).toEqual(['Billing Yearly']);
    expect(yearlyOnly.distributors).toEqual([
      { id: yearly.id, name: 'Billing Yearly', billing_cycle: 60, cost: 600 },
    ]);
    const sleepingOnly = (
      await summary(admin, { period: march, distributorId: sleeping.id })
    ).json();
    expect(sleepingOnly.total).toBe(19);
  });

  it('bills a month with no activation nothing, and the next months of the monthly cycle again', async () => {
    const april = (
      await summary(admin, {
        period: { start: '2026-04-01', end: '2026-04-30' },
        distributorId: monthly.id,
      })
    ).json();
    const names = (april.billedStores['Billing Monthly'] as BilledStore[]).map(
      (store) => store.name,
    );
    expect(names).not.toContain('M6 inactive, licensed early March');
    expect(names).toContain('M1 all year');
    expect(names).not.toContain('M5 never licensed');
    const quarter = (
      await summary(admin, {
        period: { start: '2026-01-01', end: '2026-03-31' },
        distributorId: monthly.id,
      })
    ).json();
    const m1 = (quarter.billedStores['Billing Monthly'] as BilledStore[]).find(
      (store) => store.name === 'M1 all year',
    )!;
    expect(m1).toMatchObject({ cost: 57, billedMonths: 3 });
  });
});

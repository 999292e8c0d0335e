import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scoreClassOf } from '@mise/shared/history/rules';
import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildEmployee,
  buildStore,
  buildTask,
  buildTaskConfiguration,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { noonZone } from '../../test/zones';
import { asDevice, buildDevice, employeeToken, newKey } from '../device/test-support';
import { presentTask } from '../tasks/present-task';
import { storeScoreCounts } from './home.service';

/**
 * The home dashboard through the API (spec 000 §2): the restaurant score (SQL aggregate equal
 * to the shared rule), today's tasks by tab, equipment states, the manager's view, the best
 * stores, and the live "task" event a tablet's completion sends to an open home page.
 */

/** The server's clock: the real time unless a test sets it (AppDeps.now). */
let frozenNow: Date | null = null;
const context = useTestApp({ now: () => frozenNow ?? new Date() });

const zone = noonZone();
const today = () => dayInZone(new Date(), zone);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

let customer: Agent;
let manager: Agent;
let otherCustomer: Agent;
let storeId: string;
let databaseId: string;
let secondStoreId: string;
let emptyStoreId: string;
let otherStoreId: string;
let fridgeA: Awaited<ReturnType<typeof buildDatabaseElement>>;
let fridgeB: Awaited<ReturnType<typeof buildDatabaseElement>>;
let delivery: Awaited<ReturnType<typeof buildDatabaseElement>>;
let openTaskId: string;
let openTaskStart: Date;

const snapshot = (element: { id: string; name: string }) => ({
  id: element.id,
  name: element.name,
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: 25,
  reheating_temperature: null,
  cooling_temperature: null,
});
const reading = (element: string, temperature: number, timestamp = 0) => ({
  element,
  temperature,
  first_temperature: temperature,
  control_temperature: null,
  comment: '',
  pictures: [],
  timestamp,
});

/** A task of `day` in the store's zone at `minute`, optionally completed `after` minutes in. */
async function dayTask(
  store: string,
  day: string,
  values: { after?: number | null; result?: unknown; anomaly?: boolean } = {},
) {
  const start = localMinuteToInstant(day, 8 * 60, zone);
  return buildTask(context.db, {
    store_id: store,
    day,
    start,
    duration: 60,
    elements: [snapshot({ id: '00000000-0000-4000-8000-0000000000aa', name: 'Frigo' })],
    ...(values.after !== undefined && values.after !== null
      ? {
          completed_timestamp: new Date(start.getTime() + values.after * 60_000),
          employee: { name: 'Emma', surname: 'Bernard' },
          result: values.result ?? { entries: [] },
          result_anomaly: values.anomaly ?? false,
        }
      : {}),
  });
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  databaseId = database.id;
  const common = {
    distributor_id: distributor.id,
    database_id: database.id,
    timezone_name: zone,
    mise_licence: true,
  };
  const store = await buildStore(db, { ...common, name: 'Bistro Zeta' });
  const second = await buildStore(db, { ...common, name: 'Bistro Alpha' });
  const empty = await buildStore(db, { ...common, name: 'Bistro Vide' });
  const other = await buildStore(db, {
    distributor_id: (await buildDistributor(db)).id,
    timezone_name: zone,
  });
  storeId = store.id;
  secondStoreId = second.id;
  emptyStoreId = empty.id;
  otherStoreId = other.id;
  fridgeA = await buildDatabaseElement(db, { database_id: database.id, name: 'Frigo A' });
  fridgeB = await buildDatabaseElement(db, { database_id: database.id, name: 'Frigo B' });
  delivery = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Livraison viande',
    temperature_delivery_item: true,
  });

  // Score window: 2 on time, 1 on time with an anomaly, 1 late, 1 missed, 1 postponed, and one
  // task 40 days ago (outside the window).
  const yesterday = addDays(today(), -1);
  await dayTask(storeId, yesterday, { after: 10 });
  await dayTask(storeId, addDays(today(), -5), { after: 20 });
  await dayTask(storeId, addDays(today(), -3), { after: 30, anomaly: true });
  await dayTask(storeId, addDays(today(), -2), { after: 120 });
  await dayTask(storeId, addDays(today(), -2));
  const copy = await dayTask(storeId, addDays(today(), -4), { after: 5 });
  const postponed = await dayTask(storeId, addDays(today(), -4));
  await db.update(tasks).set({ postponed_task: copy.id }).where(eq(tasks.id, postponed.id));
  await dayTask(storeId, addDays(today(), -40));
  // The second store: everything on time → 100; the other tenant's store: also 100.
  await dayTask(secondStoreId, yesterday, { after: 5 });
  await dayTask(otherStoreId, yesterday, { after: 5 });

  // Today: a completed temperature round (Frigo A in then out → mixed, Frigo B in range, the
  // delivery out of range), a late task, and one still to do.
  const elements = [snapshot(fridgeA), snapshot(fridgeB), snapshot(delivery)];
  await buildTask(db, {
    store_id: storeId,
    day: today(),
    name: 'Relevé du matin',
    start: hoursAgo(3),
    duration: 60,
    elements,
    completed_timestamp: hoursAgo(2.5),
    employee: { name: 'Hugo', surname: 'Petit' },
    result: {
      entries: [reading(fridgeA.id, 3, 1), reading(fridgeB.id, 2), reading(delivery.id, 9)],
    },
  });
  await buildTask(db, {
    store_id: storeId,
    day: today(),
    name: 'Relevé de midi',
    start: hoursAgo(2),
    duration: 60,
    elements,
    completed_timestamp: hoursAgo(1.9),
    employee: { name: 'Hugo', surname: 'Petit' },
    result: { entries: [reading(fridgeA.id, 8, 2), reading(fridgeB.id, 3)] },
  });
  await buildTask(db, {
    store_id: storeId,
    day: today(),
    name: 'Nettoyage oublié',
    module: 'actions',
    start: hoursAgo(4),
    duration: 30,
    elements: [],
    actions: [{ name: 'Plan de travail', requires_picture: false }],
  });
  const open = await buildTask(db, {
    store_id: storeId,
    day: today(),
    name: 'Relevé du soir',
    start: new Date(Date.now() + 30 * 60_000),
    duration: 60,
    elements: [snapshot(fridgeA)],
  });
  openTaskId = open.id;
  openTaskStart = open.start;
  const fryer = { ...snapshot({ id: '00000000-0000-4000-8000-0000000000f1', name: 'Friteuse' }) };
  await buildTask(db, {
    store_id: storeId,
    day: addDays(today(), -3),
    module: 'oils',
    name: 'Huile',
    start: localMinuteToInstant(addDays(today(), -3), 600, zone),
    elements: [fryer],
    completed_timestamp: localMinuteToInstant(addDays(today(), -3), 610, zone),
    result: {
      entries: [
        {
          element: fryer.id,
          cleaned: true,
          oil_changed: true,
          oil_filtered: true,
          filter_changed: true,
          polarity: 8,
          temperature: 175,
          pictures: [],
        },
      ],
    },
  });
  await buildTask(db, {
    store_id: storeId,
    day: addDays(today(), -1),
    module: 'oils',
    name: 'Huile',
    start: localMinuteToInstant(addDays(today(), -1), 600, zone),
    elements: [fryer],
    completed_timestamp: localMinuteToInstant(addDays(today(), -1), 610, zone),
    result: {
      entries: [
        {
          element: fryer.id,
          cleaned: false,
          oil_changed: false,
          oil_filtered: true,
          filter_changed: false,
          polarity: 14.5,
          temperature: 172,
          pictures: [],
        },
      ],
    },
  });

  const customerUser = await buildUser(db, {
    role: 'customer',
    ownedStoreIds: [storeId, secondStoreId, emptyStoreId],
  });
  const managerUser = await buildUser(db, { role: 'manager', managedDatabaseIds: [database.id] });
  const otherUser = await buildUser(db, { role: 'customer', ownedStoreIds: [otherStoreId] });
  customer = await signIn(context.app, customerUser.email, testPassword);
  manager = await signIn(context.app, managerUser.email, testPassword);
  otherCustomer = await signIn(context.app, otherUser.email, testPassword);
});

describe('restaurant score', () => {
  it('is the average credit of the due tasks of the last 30 days', async () => {
    const response = await customer.inject({ method: 'GET', url: `/api/stores/${storeId}/home` });
    expect(response.statusCode).toBe(200);
    const { score } = response.json();
    // On time: yesterday, 5 days ago, the postponed task's copy, today's two rounds (written
    // without an anomaly flag by the factory) and two oil checks; today's forgotten action and
    // the task undone 2 days ago are missed; the postponed original and the task 40 days ago
    // do not count.
    expect(score.counts).toEqual({
      onTime: 7,
      onTimeWithAnomaly: 1,
      late: 1,
      lateWithAnomaly: 0,
      missed: 2,
    });
    // (7 + 0.5 + 0.5 + 0) / 11 = 0.727 → 73
    expect(score.window_end).toBe(today());
    expect(score.window_start).toBe(addDays(today(), -29));
    expect(score.value).toBe(73);
  });

  it('the SQL aggregate equals the shared rule applied to every task', async () => {
    const now = new Date();
    const rows = await context.db.select().from(tasks).where(eq(tasks.store_id, storeId));
    const expected = { onTime: 0, onTimeWithAnomaly: 0, late: 0, lateWithAnomaly: 0, missed: 0 };
    for (const row of rows) {
      if (row.day < addDays(today(), -29) || row.day > today()) continue;
      const status = presentTask(row, now, zone).status;
      const scoreClass = scoreClassOf(status, row.result_anomaly === true);
      if (scoreClass) expected[scoreClass] += 1;
    }
    expect(await storeScoreCounts(context.db, storeId, now)).toEqual(expected);
  });
});

describe('store home', () => {
  it("lists today's tasks by tab, with the employee on completed ones", async () => {
    // An employee stored as a JSON string holding JSON reads as the object (as Drizzle reads it).
    await context.db.execute(
      sql`update ${tasks} set employee = to_jsonb(${JSON.stringify({ name: 'Hugo', surname: 'Petit' })}::text)
           where store_id = ${storeId} and name = 'Relevé de midi'`,
    );
    const home = (
      await customer.inject({ method: 'GET', url: `/api/stores/${storeId}/home` })
    ).json();
    expect(home.today).toBe(today());
    expect(home.tasks.completed.map((task: { name: string }) => task.name)).toEqual([
      'Relevé du matin',
      'Relevé de midi',
    ]);
    expect(home.tasks.completed[0].employee).toEqual({ name: 'Hugo', surname: 'Petit' });
    expect(home.tasks.completed[1].employee).toEqual({ name: 'Hugo', surname: 'Petit' });
    expect(home.tasks.late.map((task: { name: string }) => task.name)).toEqual([
      'Nettoyage oublié',
    ]);
    expect(home.tasks.pending.map((task: { name: string }) => task.name)).toEqual([
      'Relevé du soir',
    ]);
  });

  it('shows equipment states: mixed, in range, delivery out of range, and the oil', async () => {
    const { equipment } = (
      await customer.inject({ method: 'GET', url: `/api/stores/${storeId}/home` })
    ).json();
    expect(equipment.fridges).toEqual([
      expect.objectContaining({ name: 'Frigo A', state: 'mixed', last_temperature: 8 }),
      expect.objectContaining({ name: 'Frigo B', state: 'in-range' }),
    ]);
    expect(equipment.delivery).toEqual([
      expect.objectContaining({
        name: 'Livraison viande',
        state: 'out-of-range',
        last_temperature: 9,
      }),
    ]);
    expect(equipment.oils).toEqual([
      expect.objectContaining({
        name: 'Friteuse',
        temperature: 172,
        polarity: 14.5,
        last_change_at: localMinuteToInstant(addDays(today(), -3), 610, zone).toISOString(),
      }),
    ]);
  });

  it('managers get the score but neither tasks nor equipment', async () => {
    const home = (
      await manager.inject({ method: 'GET', url: `/api/stores/${storeId}/home` })
    ).json();
    expect(home.score.value).not.toBeNull();
    expect(home.tasks).toBeNull();
    expect(home.equipment).toBeNull();
  });

  it("another tenant's store answers 404", async () => {
    const response = await otherCustomer.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/home`,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('best stores', () => {
  it('ranks the scope’s stores by score, skipping stores without one', async () => {
    const body = (await customer.inject({ method: 'GET', url: '/api/home/best-stores' })).json();
    expect(body.items.map((item: { name: string }) => item.name)).toEqual([
      'Bistro Alpha',
      'Bistro Zeta',
    ]);
    expect(body.items[0].score).toBe(100);
    const byDatabase = (
      await manager.inject({ method: 'GET', url: `/api/home/best-stores?databaseId=${databaseId}` })
    ).json();
    expect(byDatabase.items.map((item: { id: string }) => item.id)).not.toContain(otherStoreId);
    expect(byDatabase.items.map((item: { id: string }) => item.id)).not.toContain(emptyStoreId);
  });
});

describe('a new store, unlicensed stores and the store API (issue 13)', () => {
  let admin: Agent;
  let distributorId: string;
  beforeAll(async () => {
    const user = await buildUser(context.db, { role: 'admin' });
    admin = await signIn(context.app, user.email, testPassword);
    distributorId = (await buildDistributor(context.db)).id;
  });
  const bestOf = async (database: string) =>
    (
      await admin.inject({ method: 'GET', url: `/api/home/best-stores?databaseId=${database}` })
    ).json().items as { id: string; score: number }[];

  it('a store created today has no score yet (null, not 0) and is not ranked: its tasks before its creation are not generated', async () => {
    const database = await buildDatabase(context.db, { distributor_id: distributorId });
    // Every day 08:00–09:00 and 17:00–18:00 (Paris).
    await buildTaskConfiguration(context.db, {
      database_id: database.id,
      recurrence_anchor: '2026-01-01',
      starts: [480, 1020],
      durations: [60, 60],
    });
    // Created at 11:30 in Paris; it is now 12:00 there.
    const store = await buildStore(context.db, {
      distributor_id: distributorId,
      database_id: database.id,
      timezone_name: 'Europe/Paris',
      mise_licence: true,
      created_at: new Date('2026-06-10T09:30:00Z'),
    });
    frozenNow = new Date('2026-06-10T10:00:00Z');
    try {
      const run = await admin.inject({
        method: 'POST',
        url: '/api/task_generation/run',
        payload: { storeId: store.id },
      });
      expect(run.statusCode, run.body).toBe(200);
      // Only the 17:00 check: the 08:00 one was scheduled before the store existed.
      expect(run.json()).toEqual({ day: '2026-06-10', created: 1 });
      const home = (
        await admin.inject({ method: 'GET', url: `/api/stores/${store.id}/home` })
      ).json();
      expect(home.score.value).toBeNull();
      expect(home.score.counts).toEqual({
        onTime: 0,
        onTimeWithAnomaly: 0,
        late: 0,
        lateWithAnomaly: 0,
        missed: 0,
      });
      const detail = await admin.inject({ method: 'GET', url: `/api/stores/${store.id}` });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().store.score).toBeNull();
      expect(await bestOf(database.id)).toEqual([]);
    } finally {
      frozenNow = null;
    }
  });

  it('best stores lists only active, licensed stores', async () => {
    const database = await buildDatabase(context.db, { distributor_id: distributorId });
    const common = {
      distributor_id: distributorId,
      database_id: database.id,
      timezone_name: zone,
    };
    const licensed = await buildStore(context.db, { ...common, mise_licence: true });
    const unlicensed = await buildStore(context.db, { ...common, mise_licence: false });
    const inactive = await buildStore(context.db, {
      ...common,
      mise_licence: true,
      active: false,
    });
    const yesterday = addDays(today(), -1);
    await dayTask(licensed.id, yesterday, { after: 90 }); // done late: 50
    await dayTask(unlicensed.id, yesterday, { after: 5 }); // 100, but unlicensed
    await dayTask(inactive.id, yesterday, { after: 5 }); // 100, but inactive
    expect(await bestOf(database.id)).toEqual([
      expect.objectContaining({ id: licensed.id, score: 50 }),
    ]);
  });

  it('GET /api/stores/:id answers as `score` the figure the home shows, null without a due task', async () => {
    for (const id of [storeId, secondStoreId, emptyStoreId]) {
      const home = (await customer.inject({ method: 'GET', url: `/api/stores/${id}/home` })).json();
      const detail = await customer.inject({ method: 'GET', url: `/api/stores/${id}` });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().store.score, id).toBe(home.score.value);
    }
    const store = (await customer.inject({ method: 'GET', url: `/api/stores/${storeId}` })).json()
      .store;
    expect(store.score).toBe(73);
    const empty = (
      await customer.inject({ method: 'GET', url: `/api/stores/${emptyStoreId}` })
    ).json().store;
    expect(empty.score).toBeNull();
  });
});

/** Opens the store's event stream on a listening server and collects "task" events. */
function openStream(port: number, cookie: string, store: string) {
  const events: unknown[] = [];
  let resolveReady: () => void;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  let status = 0;
  const request = httpRequest(
    { port, host: '127.0.0.1', path: `/api/stores/${store}/events`, headers: { cookie } },
    (response) => {
      status = response.statusCode ?? 0;
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        if (buffer.includes(': connected')) resolveReady();
        for (const block of buffer.split('\n\n').slice(0, -1)) {
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (block.startsWith('event: task') && data) events.push(JSON.parse(data.slice(6)));
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
      });
      if (status !== 200) resolveReady();
    },
  );
  request.end();
  return { events, ready, close: () => request.destroy(), status: () => status };
}

describe('live updates', () => {
  it('a task completed on a tablet reaches the open home page as a "task" event', async () => {
    const { app, db } = context;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const stream = openStream(port, customer.cookie, storeId);
    const foreign = openStream(port, otherCustomer.cookie, storeId);
    try {
      await stream.ready;
      await foreign.ready;
      expect(stream.status()).toBe(200);
      expect(foreign.status()).toBe(404);

      const { token } = await buildDevice(db, storeId);
      const employee = await buildEmployee(db, { storeIds: [storeId], name: 'Nina' });
      const employeeAuth = await employeeToken(app, token, employee.id);
      // At the task's start (it opens for results 30 minutes before).
      frozenNow = openTaskStart;
      const response = await asDevice(
        app,
        token,
        employeeAuth,
      )({
        method: 'POST',
        url: `/api/device/tasks/${openTaskId}/result`,
        payload: {
          idempotency_key: newKey(),
          result: { entries: [reading(fridgeA.id, 12)] },
        },
      });
      frozenNow = null;
      expect(response.statusCode).toBe(200);
      const deadline = Date.now() + 5000;
      while (stream.events.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(stream.events).toEqual([
        { store_id: storeId, task_id: openTaskId, kind: 'completed' },
      ]);
      // The record carries its anomaly flag from the shared rule (12 °C is out of range).
      const [row] = await db.select().from(tasks).where(eq(tasks.id, openTaskId));
      expect(row!.result_anomaly).toBe(true);
    } finally {
      frozenNow = null;
      stream.close();
      foreign.close();
    }
  });
});

import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskGenerationEvents, tasks } from '../../db/schema';
import { resolveScope } from '../../platform/scope';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildStore,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { listStoreTasks } from './tasks.service';

/**
 * The tasks API end to end: configurations created through the task-configurations API as a
 * user would, generation run by the admin, the store's tasks with their statuses, and the
 * admin's event search.
 */

const context = useTestApp();
let admin: Agent;
let customer: Agent;
let manager: Agent;
let parisId: string;
let newYorkId: string;
let otherStoreId: string;
let databaseId: string;
let fridgeId: string;
let customerUser: Awaited<ReturnType<typeof buildUser>>;

/** The first day after `from` on which the zone's UTC offset changes (a DST change). */
function nextOffsetChange(zone: string, from: string): string {
  const offsetAtNoon = (day: string) =>
    localMinuteToInstant(day, 720, zone).getTime() - Date.parse(`${day}T12:00:00Z`);
  let day = from;
  for (let index = 0; index < 400; index += 1) {
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    if (offsetAtNoon(next) !== offsetAtNoon(day)) return next;
    day = next;
  }
  throw new Error(`no offset change in ${zone}`);
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  databaseId = database.id;
  const common = { distributor_id: distributor.id, database_id: database.id };
  const paris = await buildStore(db, { ...common, timezone_name: 'Europe/Paris' });
  const newYork = await buildStore(db, { ...common, timezone_name: 'America/New_York' });
  const otherDistributor = await buildDistributor(db);
  const other = await buildStore(db, { distributor_id: otherDistributor.id });
  parisId = paris.id;
  newYorkId = newYork.id;
  otherStoreId = other.id;
  const fridge = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Frigo cuisine',
    minimum_temperature: 0,
    maximum_temperature: 4,
  });
  fridgeId = fridge.id;
  const adminUser = await buildUser(db, { role: 'admin' });
  customerUser = await buildUser(db, { role: 'customer', ownedStoreIds: [paris.id] });
  const managerUser = await buildUser(db, {
    role: 'manager',
    managedDatabaseIds: [database.id],
  });
  admin = await signIn(context.app, adminUser.email, testPassword);
  customer = await signIn(context.app, customerUser.email, testPassword);
  manager = await signIn(context.app, managerUser.email, testPassword);
});

describe('generation from configurations made through the API', () => {
  let fridgesId: string;

  it('database configuration, store override and store configuration give the right tasks', async () => {
    const created = await admin.inject({
      method: 'POST',
      url: `/api/databases/${databaseId}/taskConfigurations`,
      payload: {
        name: 'Relevé frigos',
        module: 'temperatures',
        configuration: { temperature_elements: [fridgeId], is_delivery: false, automatic: false },
        schedules: [
          { start: 480, end: 540 },
          { start: 1020, end: 1080 },
        ],
        locks: { schedule: false },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    fridgesId = created.json().configuration.id;
    const empty = await admin.inject({
      method: 'POST',
      url: `/api/databases/${databaseId}/taskConfigurations`,
      payload: {
        name: 'Contrôle sans horaire',
        module: 'actions',
        configuration: {
          actions: [{ name: 'Vérifier', requires_picture: false, attachments: [] }],
        },
        schedules: [],
      },
    });
    expect(empty.statusCode, empty.body).toBe(200);

    // Paris overrides the schedule (09:00–09:30) and adds its own daily action.
    const override = await customer.inject({
      method: 'POST',
      url: `/api/stores/${parisId}/taskConfigurations`,
      payload: { origin_id: fridgesId, schedules: [{ start: 540, end: 570 }] },
    });
    expect(override.statusCode, override.body).toBe(200);
    const own = await customer.inject({
      method: 'POST',
      url: `/api/stores/${parisId}/taskConfigurations`,
      payload: {
        name: 'Sortir les poubelles',
        module: 'actions',
        configuration: {
          actions: [{ name: 'Poubelles', requires_picture: true, attachments: [] }],
        },
        schedules: [{ start: 1320, end: 1380 }],
      },
    });
    expect(own.statusCode, own.body).toBe(200);

    const day = addDays(dayInZone(new Date(), 'Europe/Paris'), 1);
    const run = await admin.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId: parisId, day },
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ day, created: 2 });
    const again = await admin.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId: parisId, day },
    });
    expect(again.json()).toEqual({ day, created: 0 });

    const list = await customer.inject({
      method: 'GET',
      url: `/api/stores/${parisId}/tasks?day=${day}`,
    });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().items as {
      name: string;
      start: string;
      duration: number;
      status: string;
      elements: { name: string }[];
      actions: { name: string }[];
    }[];
    expect(items.map((item) => [item.name, item.start, item.duration, item.status])).toEqual([
      [
        'Relevé frigos',
        localMinuteToInstant(day, 540, 'Europe/Paris').toISOString(),
        30,
        'on-time',
      ],
      [
        'Sortir les poubelles',
        localMinuteToInstant(day, 1320, 'Europe/Paris').toISOString(),
        60,
        'on-time',
      ],
    ]);
    expect(items[0]!.elements.map((element) => element.name)).toEqual(['Frigo cuisine']);
    expect(items[1]!.actions).toEqual([
      { name: 'Poubelles', requires_picture: true, attachments: [] },
    ]);

    // The no-schedule configuration left a warning.
    const events = await context.db
      .select()
      .from(taskGenerationEvents)
      .where(and(eq(taskGenerationEvents.store_id, parisId), eq(taskGenerationEvents.type, 2)));
    expect(events.map((event) => event.message).join()).toContain('Contrôle sans horaire');
  });

  it('New York on its next DST change: 08:00 and 17:00 wall clock, exactly once', async () => {
    const today = dayInZone(new Date(), 'America/New_York');
    const change = nextOffsetChange('America/New_York', today);
    for (const day of [addDays(change, -1), change]) {
      const results = await Promise.all(
        [1, 2].map(() =>
          admin.inject({
            method: 'POST',
            url: '/api/task_generation/run',
            payload: { storeId: newYorkId, day },
          }),
        ),
      );
      expect(results.reduce((sum, result) => sum + result.json().created, 0)).toBe(2);
      const list = await admin.inject({
        method: 'GET',
        url: `/api/stores/${newYorkId}/tasks?day=${day}`,
      });
      expect(list.json().items.map((item: { start: string }) => item.start)).toEqual([
        localMinuteToInstant(day, 480, 'America/New_York').toISOString(),
        localMinuteToInstant(day, 1020, 'America/New_York').toISOString(),
      ]);
    }
    const before = localMinuteToInstant(addDays(change, -1), 480, 'America/New_York');
    const after = localMinuteToInstant(change, 480, 'America/New_York');
    // Same wall-clock time, an hour apart in UTC terms (±1 h on the day of the change).
    expect(Math.abs(after.getTime() - before.getTime() - 86_400_000)).toBe(3_600_000);
  });

  it('run: admin only, store in scope', async () => {
    const denied = await manager.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId: parisId },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission/denied');
    const unknown = await admin.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /api/stores/:storeId/tasks', () => {
  const now = new Date('2026-06-10T12:00:00Z'); // 14:00 in Paris
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    const base = { store_id: parisId, module: 'actions' as const, duration: 60 };
    const [original] = await context.db
      .insert(tasks)
      .values([
        { ...base, day: '2026-06-10', name: 'E postponed', start: at('2026-06-10T05:00:00Z') },
      ])
      .returning();
    await context.db.insert(tasks).values([
      {
        ...base,
        day: '2026-06-10',
        name: 'A done',
        start: at('2026-06-10T06:00:00Z'),
        completed_timestamp: at('2026-06-10T06:30:00Z'),
      },
      {
        ...base,
        day: '2026-06-10',
        name: 'B done late',
        start: at('2026-06-10T07:00:00Z'),
        completed_timestamp: at('2026-06-10T09:00:00Z'),
      },
      { ...base, day: '2026-06-10', name: 'C late', start: at('2026-06-10T08:00:00Z') },
      { ...base, day: '2026-06-10', name: 'D on time', start: at('2026-06-10T15:00:00Z') },
      { ...base, day: '2026-06-09', name: 'F yesterday', start: at('2026-06-09T08:00:00Z') },
    ]);
    await context.db
      .update(tasks)
      .set({ postponed_task: original!.id })
      .where(eq(tasks.id, original!.id));
  });

  it('statuses at a controlled now: done, done-late, late, on-time, postponed; non-finalized for yesterday', async () => {
    const scope = await resolveScope(context.db, customerUser);
    const today = await listStoreTasks(context.db, scope, parisId, '2026-06-10', now);
    expect(today.items.map((item) => [item.name, item.status])).toEqual([
      ['E postponed', 'postponed'],
      ['A done', 'done'],
      ['B done late', 'done-late'],
      ['C late', 'late'],
      ['D on time', 'on-time'],
    ]);
    const yesterday = await listStoreTasks(context.db, scope, parisId, '2026-06-09', now);
    expect(yesterday.items.map((item) => [item.name, item.status])).toEqual([
      ['F yesterday', 'non-finalized'],
    ]);
    // Default day: the store's today at `now` (00:30 in Paris is still the 10th, 22:30Z the 9th).
    expect(
      (await listStoreTasks(context.db, scope, parisId, undefined, at('2026-06-09T22:30:00Z'))).day,
    ).toBe('2026-06-10');
  });

  it('over HTTP: the store day by default; 404 outside the scope; bad day 400', async () => {
    const response = await customer.inject({ method: 'GET', url: `/api/stores/${parisId}/tasks` });
    expect(response.statusCode).toBe(200);
    expect(response.json().day).toBe(dayInZone(new Date(), 'Europe/Paris'));
    const history = await customer.inject({
      method: 'GET',
      url: `/api/stores/${parisId}/tasks?day=2026-06-09`,
    });
    expect(history.json().items.map((item: { status: string }) => item.status)).toEqual([
      'non-finalized',
    ]);
    expect(
      (await customer.inject({ method: 'GET', url: `/api/stores/${newYorkId}/tasks` })).statusCode,
    ).toBe(404);
    expect(
      (await admin.inject({ method: 'GET', url: `/api/stores/${otherStoreId}/tasks` })).statusCode,
    ).toBe(200);
    expect(
      (await manager.inject({ method: 'GET', url: `/api/stores/${otherStoreId}/tasks` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await customer.inject({ method: 'GET', url: `/api/stores/${parisId}/tasks?day=10/06/2026` }))
        .statusCode,
    ).toBe(400);
    expect(
      (await context.app.inject({ method: 'GET', url: `/api/stores/${parisId}/tasks` })).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/task_generation/search', () => {
  const search = (agent: Agent, payload: object) =>
    agent.inject({ method: 'POST', url: '/api/task_generation/search', payload });
  const range = () => ({
    start: new Date(Date.now() - 3_600_000).toISOString(),
    end: new Date(Date.now() + 60_000).toISOString(),
  });

  it('admin only', async () => {
    for (const agent of [customer, manager]) {
      const response = await search(agent, { ...range(), storeId: parisId });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({
        code: 'permission/denied',
        message: 'You do not have permission to execute this action.',
      });
    }
  });

  it('a store is required, and at most 31 days', async () => {
    const missing = await search(admin, range());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('task-generation/select-store');
    const nullStore = await search(admin, { ...range(), storeId: null });
    expect(nullStore.json().error.code).toBe('task-generation/select-store');
    const tooLong = await search(admin, {
      start: '2026-01-01T00:00:00Z',
      end: '2026-02-01T00:00:01Z',
      storeId: parisId,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const exactly = await search(admin, {
      start: '2026-01-01T00:00:00Z',
      end: '2026-02-01T00:00:00Z',
      storeId: parisId,
    });
    expect(exactly.statusCode).toBe(200);
  });

  it("answers the store's events of the range, newest first", async () => {
    const response = await search(admin, { ...range(), storeId: parisId });
    expect(response.statusCode).toBe(200);
    const items = response.json().items as {
      type: number;
      store_id: string | null;
      timestamp: string;
      message: string;
    }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.store_id === parisId || item.store_id === null)).toBe(true);
    const times = items.map((item) => item.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(items.map((item) => item.type)).toEqual(expect.arrayContaining([2, 3, 4]));
    expect(
      items
        .filter((item) => item.type === 4)
        .map((item) => item.message)
        .sort(),
    ).toEqual(['Relevé frigos', 'Sortir les poubelles']);
    const past = await search(admin, {
      start: '2026-01-01T00:00:00Z',
      end: '2026-01-31T00:00:00Z',
      storeId: parisId,
    });
    expect(past.json().items).toEqual([]);
    expect(past.json().truncated).toBe(false);
  });

  it('answers truncated: true when more than 1000 events match', async () => {
    const base = new Date('2025-03-01T00:00:00Z').getTime();
    await context.db.insert(taskGenerationEvents).values(
      Array.from({ length: 1001 }, (_, index) => ({
        store_id: parisId,
        type: 4,
        message: `Event ${index}`,
        created_at: new Date(base + index * 1000),
      })),
    );
    const response = await search(admin, {
      start: '2025-03-01T00:00:00Z',
      end: '2025-03-02T00:00:00Z',
      storeId: parisId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toHaveLength(1000);
    expect(response.json().truncated).toBe(true);
  });
});

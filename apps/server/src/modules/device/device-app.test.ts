import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { dayInZone } from '@mise/shared/tasks/rules';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authTokens,
  databases,
  devices,
  elementLabels,
  employeeRoles,
  stores,
  taskResultRevisions,
  tasks,
} from '../../db/schema';
import {
  buildDatabaseElement,
  buildElementType,
  buildEmployee,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';
import { noonZone } from '../../test/zones';
import { asDevice, buildDevice, employeeToken, newKey, png, pngUpload } from './test-support';

/*
 * Issue 14: what the tablet app reads and creates beyond its day's tasks — its context, its
 * store's elements, unscheduled tasks (traceability, temperature control) and back-office
 * links — and the files a tablet may read.
 */

const context = useTestApp();
const zone = noonZone();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let storeId: string;
let databaseId: string;
let deviceToken: string;
let deviceRowId: string;
let session: string;
let employee: Awaited<ReturnType<typeof buildEmployee>>;
/** The other tenant's store, paired, with an employee identified. */
let otherToken: string;
let otherSession: string;
let otherStoreId: string;

/** Catalogue of database A as store A sees it. */
let fridge: Awaited<ReturnType<typeof buildDatabaseElement>>;
let fridgeOverride: Awaited<ReturnType<typeof buildStoreElement>>;
let ownElement: Awaited<ReturnType<typeof buildStoreElement>>;
let inactive: Awaited<ReturnType<typeof buildDatabaseElement>>;
let noControl: Awaited<ReturnType<typeof buildDatabaseElement>>;
let otherElement: Awaited<ReturnType<typeof buildDatabaseElement>>;

const unlocked = {
  ...defaultElementLocks,
  name: false,
  labels: false,
  attachments: false,
  maximum_temperature: false,
} as const;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  storeId = tenants.a.stores[0]!.id;
  databaseId = tenants.a.database.id;
  await context.db
    .update(stores)
    .set({ timezone_name: zone, week_start: 1, hidden_modules: ['oils'] })
    .where(eq(stores.id, storeId));
  await context.db
    .update(databases)
    .set({
      hidden_modules: ['actions'],
      hidden_extensions: ['shop'],
      screen_saver_url: `/api/files/databases/${databaseId}/screen_saver/saver.png`,
    })
    .where(eq(databases.id, databaseId));
  const paired = await buildDevice(context.db, storeId);
  deviceToken = paired.token;
  deviceRowId = paired.device.id;
  employee = await buildEmployee(context.db, { storeIds: [storeId], name: 'Jeanne' });
  session = await employeeToken(context.app, deviceToken, employee.id);
  otherStoreId = tenants.b.stores[0]!.id;
  const other = await buildDevice(context.db, otherStoreId);
  otherToken = other.token;
  const otherEmployee = await buildEmployee(context.db, { storeIds: [otherStoreId] });
  otherSession = await employeeToken(context.app, otherToken, otherEmployee.id);

  const type = await buildElementType(context.db, { database_id: databaseId, name: 'Fridges' });
  fridge = await buildDatabaseElement(context.db, {
    database_id: databaseId,
    name: 'Fridge',
    type_id: type.id,
    minimum_temperature: 0,
    maximum_temperature: 4,
    traceability_module_active: true,
    temperature_control_module_active: true,
    cooling_temperature: 10,
    cooling_duration: 90,
    reheating_temperature: 63,
    reheating_duration: 45,
    allergens: ['milkOrLactose'],
    locks: unlocked,
  });
  fridgeOverride = await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: fridge.id,
    name: 'Kitchen fridge',
    maximum_temperature: 5,
    // Locked by default at the database: the override's value is not the effective one.
    minimum_temperature: -5,
  });
  ownElement = await buildStoreElement(context.db, {
    store_id: storeId,
    name: 'Chicken soup',
    type_id: (await buildElementType(context.db, { store_id: storeId, name: 'Soups' })).id,
    traceability_module_active: true,
    temperature_control_module_active: true,
    reheating_duration: 30,
    labels_module_active: true,
  });
  inactive = await buildDatabaseElement(context.db, {
    database_id: databaseId,
    name: 'Old fryer',
    active: false,
  });
  noControl = await buildDatabaseElement(context.db, {
    database_id: databaseId,
    name: 'Bread',
    traceability_module_active: false,
    temperature_control_module_active: false,
  });
  otherElement = await buildDatabaseElement(context.db, {
    database_id: tenants.b.database.id,
    name: 'Other tenant fridge',
    traceability_module_active: true,
    temperature_control_module_active: true,
  });

  // Labels: two of the database element (one overridden by the store), one inactive, and the
  // store's own element's label.
  const originLabel = await buildLabel(context.db, {
    database_id: databaseId,
    database_element_id: fridge.id,
    name: 'Opened',
    type: 'expiration',
    expiration_duration: 72,
    index: 1,
  });
  const secondOrigin = await buildLabel(context.db, {
    database_id: databaseId,
    database_element_id: fridge.id,
    name: 'Defrosted',
    type: 'defrosting',
    defrosting_duration: 24,
    index: 0,
  });
  await buildLabel(context.db, {
    database_id: databaseId,
    database_element_id: fridge.id,
    name: 'Retired',
    active: false,
    index: 2,
  });
  // The store's override of "Opened": only its name is its own, the rest falls back.
  await context.db.insert(elementLabels).values({
    store_id: storeId,
    store_element_id: fridgeOverride.id,
    origin_id: originLabel.id,
    index: 1,
    name: 'Opened (kitchen)',
  });
  await buildLabel(context.db, {
    store_id: storeId,
    store_element_id: ownElement.id,
    name: 'Soup of the day',
    index: 0,
  });
  expect(secondOrigin.id).toBeTruthy();
});

const device = (token = deviceToken, employeeSession: string | null = session) =>
  asDevice(context.app, token, employeeSession);

const today = () => dayInZone(new Date(), zone);

async function storeTasks(id = storeId) {
  return context.db.select().from(tasks).where(eq(tasks.store_id, id));
}

async function revisionsOf(taskId: string) {
  return context.db
    .select()
    .from(taskResultRevisions)
    .where(eq(taskResultRevisions.task_id, taskId))
    .orderBy(asc(taskResultRevisions.revision));
}

describe('GET /api/device/context', () => {
  it('answers 401 without a device token, and to a signed-in user', async () => {
    expect(
      (await device(null as unknown as string)({ url: '/api/device/context' })).statusCode,
    ).toBe(401);
    const response = await admin.inject({ method: 'GET', url: '/api/device/context' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it("gives the store, its database's screen saver and active roles, the device and the clock", async () => {
    await context.db.insert(employeeRoles).values([
      {
        database_id: databaseId,
        name: 'Cook',
        features_permissions: { temperatures: true, history: false, legacy_key: true },
      },
      { database_id: databaseId, name: 'Former role', active: false },
      { database_id: tenants.b.database.id, name: 'Other tenant role' },
    ]);
    const before = Date.now();
    const response = await device()({ url: '/api/device/context' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.store).toEqual({
      id: storeId,
      name: tenants.a.stores[0]!.name,
      timezone_name: zone,
      week_start: 1,
      hidden_modules: expect.arrayContaining(['oils', 'actions']),
      hidden_extensions: ['shop'],
    });
    expect(body.store.hidden_modules).toHaveLength(2);
    expect(body.screen_saver_url).toBe(`/api/files/databases/${databaseId}/screen_saver/saver.png`);
    expect(body.roles).toEqual([
      {
        id: expect.any(String),
        name: 'Cook',
        features_permissions: { temperatures: true, history: false },
      },
    ]);
    const me = await device()({ url: '/api/devices/me' });
    expect(body.device).toEqual(me.json().device);
    expect(body.device.id).toBe(deviceRowId);
    const serverTime = Date.parse(body.server_time);
    expect(serverTime).toBeGreaterThanOrEqual(before - 1000);
    expect(serverTime).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("gives another store's tablet its own store, never this one's roles or device", async () => {
    const body = (await device(otherToken, null)({ url: '/api/device/context' })).json();
    expect(body.store.id).toBe(otherStoreId);
    expect(body.device.store_id).toBe(otherStoreId);
    expect(body.roles.map((role: { name: string }) => role.name)).not.toContain('Cook');
    expect(JSON.stringify(body)).not.toContain(storeId);
    expect(JSON.stringify(body)).not.toContain(databaseId);
  });

  it('answers a store without a database with no screen saver and no roles', async () => {
    const lone = await buildStore(context.db, { distributor_id: tenants.a.distributor.id });
    const { token } = await buildDevice(context.db, lone.id);
    const body = (await device(token, null)({ url: '/api/device/context' })).json();
    expect(body.screen_saver_url).toBeNull();
    expect(body.roles).toEqual([]);
    expect(body.store.id).toBe(lone.id);
  });
});

describe('GET /api/device/elements', () => {
  it('answers 401 without a device token', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/device/elements' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it("gives the store's active elements with effective values, under the ids tasks use", async () => {
    const response = await device()({ url: '/api/device/elements' });
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().items as { id: string; name: string }[];
    const names = items.map((item) => item.name);
    expect(names).toContain('Kitchen fridge');
    expect(names).toContain('Chicken soup');
    expect(names).toContain('Bread');
    expect(names).not.toContain('Fridge'); // overridden by the store
    expect(names).not.toContain('Old fryer'); // inactive
    expect(names).not.toContain('Other tenant fridge');
    expect(items.map((item) => item.id)).not.toContain(otherElement.id);
    expect(items.map((item) => item.id)).not.toContain(inactive.id);
    expect(items.map((item) => item.id)).not.toContain(fridgeOverride.id);

    const kitchen = items.find((item) => item.name === 'Kitchen fridge')!;
    expect(kitchen).toMatchObject({
      // A store override is referenced by its database element's id.
      id: fridge.id,
      type_name: 'Fridges',
      minimum_temperature: 0, // locked at the database: the origin's value
      maximum_temperature: 5, // unlocked: the store's
      cooling_temperature: 10,
      cooling_duration: 90,
      reheating_duration: 45,
      allergens: ['milkOrLactose'],
      modules: {
        temperatures: true,
        labels: false,
        traceability: true,
        oils: false,
        temperature_control: true,
        encyclopedia: false,
        display_active: false,
      },
    });
    expect(kitchen).toHaveProperty('labels');
    const labels = (kitchen as unknown as { labels: Record<string, unknown>[] }).labels;
    // Active labels by index; the store's override of "Opened" keeps the origin's values.
    expect(labels.map((label) => label.name)).toEqual(['Defrosted', 'Opened (kitchen)']);
    expect(labels[1]).toMatchObject({ type: 'expiration', expiration_duration: 72, index: 1 });
    expect(labels[0]).toMatchObject({ type: 'defrosting', defrosting_duration: 24, index: 0 });

    const soup = items.find((item) => item.name === 'Chicken soup')!;
    expect(soup).toMatchObject({ id: ownElement.id, type_name: 'Soups' });
    expect((soup as unknown as { labels: { name: string }[] }).labels.map((l) => l.name)).toEqual([
      'Soup of the day',
    ]);
  });

  it("shows the origin's labels when the database locks them", async () => {
    const locked = await buildDatabaseElement(context.db, {
      database_id: databaseId,
      name: 'Locked labels',
      locks: { ...unlocked, labels: true },
    });
    const origin = await buildLabel(context.db, {
      database_id: databaseId,
      database_element_id: locked.id,
      name: 'Database label',
    });
    const override = await buildStoreElement(context.db, {
      store_id: storeId,
      origin_id: locked.id,
    });
    await context.db.insert(elementLabels).values({
      store_id: storeId,
      store_element_id: override.id,
      origin_id: origin.id,
      index: 0,
      name: 'Ignored store name',
    });
    const items = (await device()({ url: '/api/device/elements' })).json().items as {
      id: string;
      labels: { id: string; name: string }[];
    }[];
    const found = items.find((item) => item.id === locked.id)!;
    expect(found.labels).toEqual([
      expect.objectContaining({ id: origin.id, name: 'Database label' }),
    ]);
  });

  it('reads the same number of queries for 3 or 13 more elements (no query per element)', async () => {
    const lone = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: databaseId,
    });
    const { token } = await buildDevice(context.db, lone.id);
    const call = () => device(token, null)({ url: '/api/device/elements' });
    await call(); // the device's first call stamps its connection
    const before = await countQueries(context.database, call);
    for (let index = 0; index < 10; index += 1) {
      const element = await buildDatabaseElement(context.db, { database_id: databaseId });
      await buildLabel(context.db, { database_id: databaseId, database_element_id: element.id });
      await buildStoreElement(context.db, { store_id: lone.id, origin_id: element.id });
    }
    const after = await countQueries(context.database, call);
    expect(after).toBe(before);
  });

  it("gives attachments the tablet reads with its device token; another store's tablet cannot", async () => {
    const element = await buildDatabaseElement(context.db, {
      database_id: databaseId,
      name: 'With a guide',
      encyclopedia_extension_active: true,
    });
    const upload = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${element.id}/attachments?version=${element.version}`,
      ...pngUpload(),
    });
    expect(upload.statusCode).toBe(200);
    const items = (await device()({ url: '/api/device/elements' })).json().items as {
      id: string;
      attachments: { name: string; type: string; url: string }[];
    }[];
    const [attachment] = items.find((item) => item.id === element.id)!.attachments;
    expect(attachment).toMatchObject({
      type: 'image',
      url: expect.stringMatching(/^\/api\/files\/databases\//),
    });
    const read = await device()({ url: attachment!.url });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    const stranger = await device(otherToken, null)({ url: attachment!.url });
    expect(stranger.statusCode).toBe(404);
    const anonymous = await context.app.inject({ method: 'GET', url: attachment!.url });
    expect(anonymous.statusCode).toBe(401);
  });

  it("lets a tablet read its store's pictures and its employees' pictures, not another store's", async () => {
    const picture = await device()({ method: 'POST', url: '/api/device/pictures', ...pngUpload() });
    expect(picture.statusCode).toBe(200);
    const url = picture.json().url as string;
    expect((await device()({ url })).statusCode).toBe(200);
    expect((await device(otherToken, null)({ url })).statusCode).toBe(404);
    // An employee's picture (written where the local storage keeps files).
    const key = `employees/${employee.id}/picture.png`;
    mkdirSync(join(context.config.DATA_DIR, 'files', dirname(key)), { recursive: true });
    writeFileSync(join(context.config.DATA_DIR, 'files', key), png);
    expect((await device()({ url: `/api/files/${key}` })).statusCode).toBe(200);
    expect((await device(otherToken, null)({ url: `/api/files/${key}` })).statusCode).toBe(404);
    // Nothing outside the store, its database and its employees.
    const foreignDatabase = `/api/files/databases/${tenants.b.database.id}/screen_saver/x.png`;
    expect((await device()({ url: foreignDatabase })).statusCode).toBe(404);
    expect(
      (await device()({ url: `/api/files/accounts/${tenants.admin.id}/x.png` })).statusCode,
    ).toBe(404);
  });
});

describe('POST /api/device/tasks', () => {
  const traceability = (id: string, element: string, overrides: object = {}) => ({
    id,
    idempotency_key: newKey(),
    module: 'traceability',
    element,
    result: { entries: [{ element, pictures: [] }] },
    ...overrides,
  });
  const controlStart = (
    id: string,
    element: string,
    mode: 'cooling' | 'reheating' = 'cooling',
  ) => ({
    id,
    idempotency_key: newKey(),
    module: 'temperature_control',
    element,
    result: {
      entries: [
        {
          element,
          mode,
          target_temperature: 10,
          start_temperature: 70,
          start_timestamp: Math.floor(Date.now() / 1000) - 60,
          end_temperature: null,
          end_timestamp: null,
          comment: '',
        },
      ],
    },
  });
  const create = (payload: object, call = device()) =>
    call({ method: 'POST', url: '/api/device/tasks', payload });

  it('answers 401 without a device token or without an employee token, and writes nothing', async () => {
    const id = crypto.randomUUID();
    const anonymous = await create(traceability(id, fridge.id), asDevice(context.app, null));
    expect(anonymous.statusCode).toBe(401);
    const noEmployee = await create(traceability(id, fridge.id), device(deviceToken, null));
    expect(noEmployee.statusCode).toBe(401);
    expect(noEmployee.json().error.code).toBe('employee/unauthenticated');
    expect((await storeTasks()).map((task) => task.id)).not.toContain(id);
  });

  it('answers 400 with a code for invalid input, and writes nothing', async () => {
    const id = crypto.randomUUID();
    const before = (await storeTasks()).length;
    // A temperature control result under the traceability module.
    const mismatched = await create({ ...controlStart(id, fridge.id), module: 'traceability' });
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.json().error.code).toBe('validation/invalid-input');
    const unknownField = await create({ ...traceability(id, fridge.id), start: '2026-01-01' });
    expect(unknownField.statusCode).toBe(400);
    const notUuid = await create(traceability('tablet-1', fridge.id));
    expect(notUuid.json().error.code).toBe('validation/invalid-input');
    // The result names another element than the task's: the result rule, nothing written.
    const otherEntry = await create(
      traceability(id, fridge.id, {
        result: { entries: [{ element: ownElement.id, pictures: [] }] },
      }),
    );
    expect(otherEntry.statusCode).toBe(400);
    expect(otherEntry.json().error.code).toBe('task/invalid-result');
    const foreignPicture = await create(
      traceability(id, fridge.id, {
        result: {
          entries: [
            {
              element: fridge.id,
              pictures: [
                {
                  path: `stores/${otherStoreId}/tasks/2026-11/${'a'.repeat(32)}.png`,
                  timestamp: 1,
                },
              ],
            },
          ],
        },
      }),
    );
    expect(foreignPicture.json().error.code).toBe('task/invalid-result');
    expect((await storeTasks()).length).toBe(before);
    expect((await revisionsOf(id)).length).toBe(0);
  });

  it("answers 404 for another store's element or an inactive one, 409 for a module that is off", async () => {
    const id = crypto.randomUUID();
    const foreign = await create(traceability(id, otherElement.id));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('task/unknown-element');
    const off = await create(traceability(id, inactive.id));
    expect(off.json().error.code).toBe('task/unknown-element');
    // The store override's own row id is not the id tasks use.
    const overrideRow = await create(traceability(id, fridgeOverride.id));
    expect(overrideRow.json().error.code).toBe('task/unknown-element');
    const noModule = await create(traceability(id, noControl.id));
    expect(noModule.statusCode).toBe(409);
    expect(noModule.json().error.code).toBe('task/element-module-inactive');
    const noControlModule = await create(controlStart(id, noControl.id));
    expect(noControlModule.json().error.code).toBe('task/element-module-inactive');
    expect((await storeTasks()).map((task) => task.id)).not.toContain(id);
  });

  it('creates a traceability task with its result, listed today and in the history', async () => {
    const id = crypto.randomUUID();
    const picture = await device()({ method: 'POST', url: '/api/device/pictures', ...pngUpload() });
    const path = picture.json().path as string;
    const response = await create(
      traceability(id, fridge.id, {
        result: { entries: [{ element: fridge.id, pictures: [{ path, timestamp: 1 }] }] },
      }),
    );
    expect(response.statusCode).toBe(200);
    const task = response.json().task;
    expect(task).toMatchObject({
      id,
      store_id: storeId,
      module: 'traceability',
      name: 'Kitchen fridge',
      day: today(),
      duration: 15,
      status: 'done',
      window: 'open',
      completed_employee: employee.id,
      elements: [
        expect.objectContaining({ id: fridge.id, name: 'Kitchen fridge', maximum_temperature: 5 }),
      ],
      configuration_id: null,
    });
    const revisions = await revisionsOf(id);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ kind: 'result', employee_id: employee.id });

    const list = await device()({ url: '/api/device/tasks' });
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(id);
    const history = await admin.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/history?start=${today()}&end=${today()}&module=traceability`,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().items.map((item: { id: string }) => item.id)).toContain(id);
  });

  it('dates a task made offline at the time it was made, the tablet clock offset removed', async () => {
    const id = crypto.randomUUID();
    // The tablet's clock runs 4 minutes fast; the photo was taken 2 hours before it was sent.
    const tabletNow = Date.now() + 4 * 60_000;
    const response = await device()({
      method: 'POST',
      url: '/api/device/tasks',
      headers: { 'x-sent-at': new Date(tabletNow).toISOString() },
      payload: traceability(id, fridge.id, {
        completed_timestamp: new Date(tabletNow - 120 * 60_000).toISOString(),
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const minutesAgo = (iso: string) => (Date.now() - Date.parse(iso)) / 60_000;
    const task = response.json().task;
    for (const instant of [task.start, task.completed_timestamp]) {
      expect(minutesAgo(instant)).toBeGreaterThan(119.9);
      expect(minutesAgo(instant)).toBeLessThan(120.2);
    }
    expect(task.status).toBe('done');
  });

  it('answers a retry with the same task, written once; another body or store is a conflict', async () => {
    const id = crypto.randomUUID();
    const payload = traceability(id, ownElement.id);
    const first = await create(payload);
    expect(first.statusCode).toBe(200);
    const again = await create(payload);
    expect(again.statusCode).toBe(200);
    expect(again.json().task.id).toBe(id);
    expect(again.json().task.completed_timestamp).toBe(first.json().task.completed_timestamp);
    // Two at once: still one task, one revision.
    const racing = traceability(crypto.randomUUID(), ownElement.id);
    const [left, right] = await Promise.all([create(racing), create(racing)]);
    expect([left.statusCode, right.statusCode]).toEqual([200, 200]);
    expect(await revisionsOf(racing.id)).toHaveLength(1);
    expect(await revisionsOf(id)).toHaveLength(1);
    expect((await storeTasks()).filter((task) => task.id === id)).toHaveLength(1);

    const otherBody = await create({
      ...payload,
      idempotency_key: newKey(),
      element: fridge.id,
      result: { entries: [{ element: fridge.id, pictures: [] }] },
    });
    expect(otherBody.statusCode).toBe(409);
    expect(otherBody.json().error.code).toBe('task/id-conflict');
    const sameKeyOtherBody = await create({
      ...payload,
      completed_timestamp: new Date().toISOString(),
    });
    expect(sameKeyOtherBody.statusCode).toBe(409);
    expect(sameKeyOtherBody.json().error.code).toBe('idempotency/conflict');
    const otherStore = await create(
      {
        ...payload,
        element: otherElement.id,
        result: { entries: [{ element: otherElement.id, pictures: [] }] },
      },
      device(otherToken, otherSession),
    );
    expect(otherStore.statusCode).toBe(409);
    expect(otherStore.json().error.code).toBe('task/id-conflict');
    expect(await storeTasks(otherStoreId)).toHaveLength(0);
    expect(await revisionsOf(id)).toHaveLength(1);
  });

  it('records a temperature control in two steps: started on creation, ended on its result', async () => {
    const id = crypto.randomUUID();
    const started = await create(controlStart(id, fridge.id));
    expect(started.statusCode).toBe(200);
    expect(started.json().task).toMatchObject({
      id,
      module: 'temperature_control',
      name: 'Kitchen fridge',
      duration: 90, // the element's cooling duration
      completed_timestamp: null,
    });
    const [row] = await context.db.select().from(tasks).where(eq(tasks.id, id));
    const startEntry = (row!.result as { entries: Record<string, unknown>[] }).entries[0]!;
    expect(startEntry.start_employee).toEqual({
      id: employee.id,
      name: employee.name,
      surname: employee.surname,
    });
    expect(startEntry.end_employee).toBeNull();

    const colleague = await buildEmployee(context.db, { storeIds: [storeId], name: 'Paul' });
    const colleagueSession = await employeeToken(context.app, deviceToken, colleague.id);
    const { start_employee: _start, end_employee: _end, ...sent } = startEntry;
    const ended = await device(
      deviceToken,
      colleagueSession,
    )({
      method: 'POST',
      url: `/api/device/tasks/${id}/result`,
      payload: {
        idempotency_key: newKey(),
        result: {
          entries: [{ ...sent, end_temperature: 8, end_timestamp: Math.floor(Date.now() / 1000) }],
        },
      },
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().task.completed_timestamp).not.toBeNull();
    expect(ended.json().task.completed_employee).toBe(colleague.id);
    const endEntry = ended.json().task.result.entries[0];
    expect(endEntry.start_employee.id).toBe(employee.id);
    expect(endEntry.end_employee.id).toBe(colleague.id);
    expect(await revisionsOf(id)).toHaveLength(2);
  });

  it('takes the reheating duration for a reheating, a default when the element has none', async () => {
    const reheating = await create(controlStart(crypto.randomUUID(), ownElement.id, 'reheating'));
    expect(reheating.json().task.duration).toBe(30);
    const cooling = await create(controlStart(crypto.randomUUID(), ownElement.id, 'cooling'));
    // The store element has no cooling duration of its own: the element default (120).
    expect(cooling.json().task.duration).toBe(120);
  });

  it('refuses a module hidden on the store or its database', async () => {
    await context.db
      .update(stores)
      .set({ hidden_modules: ['oils', 'traceability'] })
      .where(eq(stores.id, storeId));
    const hidden = await create(traceability(crypto.randomUUID(), fridge.id));
    await context.db
      .update(stores)
      .set({ hidden_modules: ['oils'] })
      .where(eq(stores.id, storeId));
    expect(hidden.statusCode).toBe(409);
    expect(hidden.json().error.code).toBe('task/element-module-inactive');
  });
});

describe('POST /api/device/back-office-link and the linked user', () => {
  const link = (page: string, token = deviceToken) =>
    asDevice(
      context.app,
      token,
    )({ method: 'POST', url: '/api/device/back-office-link', payload: { page } });

  it('answers 401 without a device token and 400 for an unknown page', async () => {
    const anonymous = await context.app.inject({
      method: 'POST',
      url: '/api/device/back-office-link',
      payload: { page: 'history' },
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await link('billing');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('validation/invalid-input');
  });

  it("answers 409 'device/no-linked-user' when the device has none", async () => {
    const response = await link('history');
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('device/no-linked-user');
  });

  it("links a newly paired tablet to the store's first owner; its link signs in once", async () => {
    const store = tenants.a.stores[1]!;
    const first = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
    await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
    const key = (
      await admin.inject({ method: 'POST', url: `/api/stores/${store.id}/pairing-key` })
    ).json().pairing_key as string;
    await context.db
      .update(stores)
      .set({ mise_licence: true, maximum_devices: 5 })
      .where(eq(stores.id, store.id));
    const registered = await context.app.inject({
      method: 'POST',
      url: '/api/devices/register',
      payload: { pairing_key: key, device_id: 'tablet-link-1', device_model: 'Tab' },
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json().device.linked_user).toBe(first.id);
    const token = registered.json().token as string;

    const response = await link('settings', token);
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().url, 'http://mise.test');
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('page')).toBe('store');
    expect(url.searchParams.get('store_id')).toBe(store.id);
    const loginToken = url.searchParams.get('token')!;
    const [stored] = await context.db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.user_id, first.id), eq(authTokens.purpose, 'login')));
    const lifetime = stored!.expires_at.getTime() - stored!.created_at.getTime();
    expect(lifetime).toBeGreaterThan(110_000);
    expect(lifetime).toBeLessThanOrEqual(121_000);
    const history = new URL((await link('history', token)).json().url, 'http://mise.test');
    expect(history.searchParams.get('page')).toBe('history');

    const signedIn = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token: loginToken },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.id).toBe(first.id);
    const reused = await context.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token: loginToken },
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error.code).toBe('auth/invalid-token');

    // Paired again: keeps its linked user.
    const again = await context.app.inject({
      method: 'POST',
      url: '/api/devices/register',
      payload: { pairing_key: key, device_id: 'tablet-link-1', device_model: 'Tab' },
    });
    expect(again.json().device.linked_user).toBe(first.id);
  });

  it("lets the back-office choose the linked user among the store's owners only", async () => {
    const owner = tenants.a.users.customer;
    const [row] = await context.db.select().from(devices).where(eq(devices.id, deviceRowId));
    const stranger = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    const refused = await admin.inject({
      method: 'PATCH',
      url: `/api/devices/${deviceRowId}`,
      payload: { version: row!.version, linked_user: stranger.id },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('device/unknown-owner');
    const [unchanged] = await context.db.select().from(devices).where(eq(devices.id, deviceRowId));
    expect(unchanged!.linked_user).toBeNull();
    expect(unchanged!.version).toBe(row!.version);

    const chosen = await admin.inject({
      method: 'PATCH',
      url: `/api/devices/${deviceRowId}`,
      payload: { version: row!.version, linked_user: owner.id },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().device.linked_user).toBe(owner.id);
    const response = await link('documents');
    expect(response.statusCode).toBe(200);
    expect(new URL(response.json().url, 'http://mise.test').searchParams.get('page')).toBe(
      'documents',
    );
    // Another tenant's account cannot see or change this device.
    const other = await signIn(context.app, tenants.b.users.customer.email, testPassword);
    const foreign = await other.inject({
      method: 'PATCH',
      url: `/api/devices/${deviceRowId}`,
      payload: { version: row!.version + 1, linked_user: null },
    });
    expect(foreign.statusCode).toBe(404);
  });
});

import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { dayInZone } from '@mise/shared/tasks/rules';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeTaskConfigurations, taskConfigurations, taskTypes } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildStore,
  buildStoreElement,
  buildStoreTaskConfiguration,
  buildTaskConfiguration,
  buildTaskType,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let manager: Agent;
let customer: Agent;

const databaseA = () => tenants.a.database.id;
const storeA1 = () => tenants.a.stores[0]!.id;
const storeA2 = () => tenants.a.stores[1]!.id;
/** Today where the tenant stores are (Europe/Paris, the database's first store zone). */
const today = () => dayInZone(new Date(), 'Europe/Paris');
const action = (name: string) => ({ name, requires_picture: false, attachments: [] });

async function databaseRow(id: string) {
  const [row] = await context.db
    .select()
    .from(taskConfigurations)
    .where(eq(taskConfigurations.id, id));
  return row!;
}
async function storeRow(id: string) {
  const [row] = await context.db
    .select()
    .from(storeTaskConfigurations)
    .where(eq(storeTaskConfigurations.id, id));
  return row!;
}
async function rowCounts() {
  const [database] = await context.db.select({ total: count() }).from(taskConfigurations);
  const [store] = await context.db.select({ total: count() }).from(storeTaskConfigurations);
  const [types] = await context.db.select({ total: count() }).from(taskTypes);
  return { database: database!.total, store: store!.total, types: types!.total };
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

describe('task types', () => {
  it('creates, lists and edits database and store-side types', async () => {
    const created = await manager.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/taskTypes`,
      payload: { name: '  Hygiène  ' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().type).toMatchObject({
      name: 'Hygiène',
      color: '#454eff',
      store_side: false,
      database_id: databaseA(),
      store_id: null,
    });
    const local = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskTypes`,
      payload: { name: 'Accueil', color: '#00aa11' },
    });
    expect(local.statusCode, local.body).toBe(200);
    expect(local.json().type).toMatchObject({ store_side: true, store_id: storeA1() });

    const storeList = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA1()}/taskTypes`,
    });
    expect(storeList.json().items.map((type: { name: string }) => type.name)).toEqual([
      'Accueil',
      'Hygiène',
    ]);
    const otherStore = await distributor.inject({
      method: 'GET',
      url: `/api/stores/${storeA2()}/taskTypes`,
    });
    expect(otherStore.json().items.map((type: { name: string }) => type.name)).toEqual(['Hygiène']);

    const recolored = await customer.inject({
      method: 'PATCH',
      url: `/api/taskTypes/${local.json().type.id}`,
      payload: { color: '#123456' },
    });
    expect(recolored.json().type).toMatchObject({ name: 'Accueil', color: '#123456' });
    // At store level only store-side types are editable.
    const refused = await customer.inject({
      method: 'PATCH',
      url: `/api/taskTypes/${created.json().type.id}`,
      payload: { name: 'Renamed' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
  });

  it('refuses a blank name and writes nothing', async () => {
    const before = await rowCounts();
    const blank = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/taskTypes`,
      payload: { name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.code).toBe('task-type/invalid-name');
    const type = await buildTaskType(context.db, { database_id: databaseA(), name: 'Keep' });
    const rename = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskTypes/${type.id}`,
      payload: { name: '' },
    });
    expect(rename.json().error.code).toBe('task-type/invalid-name');
    const [row] = await context.db.select().from(taskTypes).where(eq(taskTypes.id, type.id));
    expect(row!.name).toBe('Keep');
    expect((await rowCounts()).types).toBe(before.types + 1);
  });
});

describe('inheritance database -> store', () => {
  it('locks, overrides and follows the database end to end', async () => {
    const type = await buildTaskType(context.db, {
      database_id: databaseA(),
      name: 'Froid',
      color: '#0000ff',
    });
    const fridge = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Frigo 1',
    });
    const created = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${databaseA()}/taskConfigurations`,
      payload: {
        name: 'Relevé matin',
        module: 'temperatures',
        type_id: type.id,
        schedules: [
          { start: 600, end: 660 },
          { start: 420, end: 450 },
        ],
        configuration: { temperature_elements: [fridge.id], is_delivery: false, automatic: true },
        locks: { name: false, recurrence: false, description: false },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const configuration = created.json().configuration;
    expect(configuration).toMatchObject({
      level: 'database',
      name: 'Relevé matin',
      module: 'temperatures',
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      starts: [420, 600],
      durations: [30, 60],
      type_name: 'Froid',
      type_color: '#0000ff',
      element_names: { [fridge.id]: 'Frigo 1' },
      editable: true,
      version: 0,
      active: true,
    });
    expect(configuration.locks).toEqual({
      ...defaultTaskConfigurationLocks,
      name: false,
      recurrence: false,
      description: false,
    });
    expect((await databaseRow(configuration.id)).recurrence_anchor).toBe(today());

    // The store sees the database configuration before overriding it.
    const before = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA1()}/taskConfigurations/origin/${configuration.id}`,
    });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().configuration).toMatchObject({
      id: null,
      is_remote: false,
      level: 'store',
      origin_id: configuration.id,
      starts: [420, 600],
      editable: true,
    });
    expect(before.json().configuration.field_states).toMatchObject({
      schedule: 'locked',
      name: 'inherited',
      configuration: 'locked',
    });

    // A locked field cannot be written by the store.
    const locked = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskConfigurations`,
      payload: { origin_id: configuration.id, name: 'Mine', schedules: [{ start: 0, end: 10 }] },
    });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.code).toBe('task-configuration/field-locked');
    expect(
      await context.db
        .select()
        .from(storeTaskConfigurations)
        .where(eq(storeTaskConfigurations.origin_id, configuration.id)),
    ).toEqual([]);

    // The store overrides the name and the recurrence.
    const override = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskConfigurations`,
      payload: {
        origin_id: configuration.id,
        name: 'Relevé du matin (Paris)',
        recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      },
    });
    expect(override.statusCode, override.body).toBe(200);
    const storeConfiguration = override.json().configuration;
    expect(storeConfiguration).toMatchObject({
      level: 'store',
      is_remote: true,
      origin_id: configuration.id,
      module: 'temperatures',
      name: 'Relevé du matin (Paris)',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      starts: [420, 600],
      type_name: 'Froid',
      element_names: { [fridge.id]: 'Frigo 1' },
    });
    expect(storeConfiguration.field_states).toMatchObject({
      name: 'overridden',
      recurrence: 'overridden',
      schedule: 'locked',
      description: 'inherited',
    });
    const stored = await storeRow(storeConfiguration.id);
    expect(stored).toMatchObject({
      module: 'temperatures',
      name: 'Relevé du matin (Paris)',
      starts: null,
      durations: null,
      configuration: null,
      recurrence_anchor: today(),
    });

    // A second override of the same origin.
    const second = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskConfigurations`,
      payload: { origin_id: configuration.id, description: 'x' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('task-configuration/already-overridden');

    // The database changes its schedule, description and name later.
    const changed = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskConfigurations/${configuration.id}`,
      payload: {
        version: 0,
        name: 'Relevé 7h',
        description: 'Sonde',
        schedules: [{ start: 360, end: 400 }],
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await customer.inject({
      method: 'GET',
      url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
    });
    expect(after.json().configuration).toMatchObject({
      name: 'Relevé du matin (Paris)',
      description: 'Sonde',
      starts: [360],
      durations: [40],
    });
    // The store element overriding the fridge's name shows its name where unlocked.
    const renamable = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Frigo 2',
      locks: { ...defaultElementLocks, name: false },
    });
    await buildStoreElement(context.db, {
      store_id: storeA1(),
      origin_id: renamable.id,
      name: 'Frigo cuisine',
    });
    const withElements = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskConfigurations/${configuration.id}`,
      payload: {
        version: 1,
        configuration: {
          temperature_elements: [fridge.id, renamable.id],
          is_delivery: false,
          automatic: false,
        },
      },
    });
    expect(withElements.statusCode, withElements.body).toBe(200);
    expect(withElements.json().configuration.element_names).toEqual({
      [fridge.id]: 'Frigo 1',
      [renamable.id]: 'Frigo 2',
    });
    const storeView = await customer.inject({
      method: 'GET',
      url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
    });
    expect(storeView.json().configuration.element_names).toEqual({
      [fridge.id]: 'Frigo 1',
      [renamable.id]: 'Frigo cuisine',
    });

    // A locked field refused on PATCH too, nothing written; unlocking it lets the store write it.
    const lockedPatch = await customer.inject({
      method: 'PATCH',
      url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
      payload: { version: 0, name: 'Autre', schedules: [{ start: 0, end: 30 }] },
    });
    expect(lockedPatch.statusCode).toBe(403);
    expect(lockedPatch.json().error.code).toBe('task-configuration/field-locked');
    expect(await storeRow(storeConfiguration.id)).toMatchObject({
      version: 0,
      name: 'Relevé du matin (Paris)',
    });
    const unlock = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskConfigurations/${configuration.id}`,
      payload: { version: 2, locks: { schedule: false } },
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    expect(unlock.json().configuration.locks).toMatchObject({ schedule: false, type_id: true });
    const ownSchedule = await customer.inject({
      method: 'PATCH',
      url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
      payload: { version: 0, schedules: [{ start: 720, end: 750 }] },
    });
    expect(ownSchedule.statusCode, ownSchedule.body).toBe(200);
    expect(ownSchedule.json().configuration).toMatchObject({ starts: [720], durations: [30] });
    expect(ownSchedule.json().configuration.field_states.schedule).toBe('overridden');

    // Returning the name to the database's value: the store cannot, name is required; the
    // recurrence can follow again (null), and then its anchor is the origin's.
    const follow = await customer.inject({
      method: 'PATCH',
      url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
      payload: { version: 1, recurrence: null },
    });
    expect(follow.statusCode, follow.body).toBe(200);
    expect(follow.json().configuration).toMatchObject({
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      version: 2,
    });
    expect(follow.json().configuration.field_states.recurrence).toBe('inherited');
    expect((await storeRow(storeConfiguration.id)).recurrence_anchor).toBeNull();
  });

  it('lists the store: database configurations not overridden and its own rows, sorted, searched', async () => {
    const database = tenants.b.database.id;
    const store = await buildStore(context.db, {
      distributor_id: tenants.b.distributor.id,
      database_id: database,
    });
    const type = await buildTaskType(context.db, { database_id: database, name: 'Ménage' });
    const ownType = await buildTaskType(context.db, { store_id: store.id, name: 'Local' });
    const zeta = await buildTaskConfiguration(context.db, {
      database_id: database,
      name: 'Zeta',
      type_id: type.id,
    });
    const overridden = await buildTaskConfiguration(context.db, {
      database_id: database,
      name: 'Beta',
      locks: { ...defaultTaskConfigurationLocks, name: false, type_id: false },
    });
    await buildTaskConfiguration(context.db, {
      database_id: database,
      name: 'Inactive',
      active: false,
    });
    const override = await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      origin_id: overridden.id,
      module: 'actions',
      name: 'Élevé',
      type_id: ownType.id,
    });
    const own = await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      module: 'oils',
      name: 'alpha',
      configuration: { oil_elements: [] },
      active: true,
    });
    const admin = await signIn(context.app, tenants.admin.email, testPassword);
    const list = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/taskConfigurations`,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toMatchObject([
      { key: own.id, id: own.id, origin_id: null, is_remote: true, name: 'alpha', module: 'oils' },
      {
        key: override.id,
        id: override.id,
        origin_id: overridden.id,
        is_remote: true,
        name: 'Élevé',
        module: 'actions',
        type_name: 'Local',
        item_count: 1,
      },
      {
        key: `origin:${zeta.id}`,
        id: null,
        origin_id: zeta.id,
        is_remote: false,
        name: 'Zeta',
        type_name: 'Ménage',
        type_color: '#454eff',
        starts: [480],
        durations: [60],
      },
    ]);
    const searched = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/taskConfigurations?search=ELEVE`,
    });
    expect(searched.json().items.map((item: { name: string }) => item.name)).toEqual(['Élevé']);
    const all = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/taskConfigurations?includeInactive=true`,
    });
    expect(all.json().items.map((item: { name: string }) => item.name)).toEqual([
      'alpha',
      'Élevé',
      'Inactive',
      'Zeta',
    ]);
    const databaseList = await admin.inject({
      method: 'GET',
      url: `/api/databases/${database}/taskConfigurations?includeInactive=true&search=ta`,
    });
    expect(databaseList.json().items.map((item: { name: string }) => item.name)).toEqual([
      'Beta',
      'Zeta',
    ]);
  });
});

describe('validation', () => {
  const url = () => `/api/databases/${databaseA()}/taskConfigurations`;
  const valid = () => ({
    name: 'Nettoyage',
    module: 'actions',
    configuration: { actions: [action('Sol')] },
  });

  it('answers each code with a 4xx and writes nothing', async () => {
    const otherDatabaseElement = await buildDatabaseElement(context.db, {
      database_id: tenants.b.database.id,
    });
    const otherType = await buildTaskType(context.db, { database_id: tenants.b.database.id });
    const storeType = await buildTaskType(context.db, { store_id: storeA1() });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...valid(), name: '  ' }, 400, 'task-configuration/invalid-name'],
      [{ ...valid(), module: undefined }, 400, 'task-configuration.select-module'],
      [
        { ...valid(), configuration: { oil_elements: [] } },
        400,
        'task-configuration/module-mismatch',
      ],
      [
        { ...valid(), module: 'temperatures', configuration: { actions: [action('x')] } },
        400,
        'task-configuration/module-mismatch',
      ],
      [{ ...valid(), configuration: { actions: [] } }, 400, 'task-action-required'],
      [{ ...valid(), configuration: undefined }, 400, 'task-action-required'],
      [{ ...valid(), schedules: [{ start: 600, end: 500 }] }, 400, 'schedule-incoherent'],
      [
        {
          ...valid(),
          schedules: [
            { start: 480, end: 540 },
            { start: 480, end: 600 },
          ],
        },
        400,
        'schedule-incoherent',
      ],
      [{ ...valid(), schedules: [{ start: 1440, end: 1440 }] }, 400, 'schedule-incoherent'],
      [
        { ...valid(), recurrence: 'FREQ=DAILY;INTERVAL=1000' },
        400,
        'task-configuration/invalid-recurrence',
      ],
      [
        { ...valid(), recurrence: 'FREQ=HOURLY;INTERVAL=1' },
        400,
        'task-configuration/invalid-recurrence',
      ],
      [{ ...valid(), recurrence: 'not a rule' }, 400, 'task-configuration/invalid-recurrence'],
      [
        {
          ...valid(),
          module: 'oils',
          configuration: { oil_elements: [otherDatabaseElement.id] },
        },
        400,
        'task-configuration/unknown-element',
      ],
      [{ ...valid(), type_id: otherType.id }, 400, 'task-configuration/unknown-type'],
      [{ ...valid(), type_id: storeType.id }, 400, 'task-configuration/unknown-type'],
      [{ ...valid(), configuration: { actions: [action('  ')] } }, 400, 'validation/invalid-input'],
      [
        {
          ...valid(),
          configuration: {
            actions: [
              {
                name: 'Photo',
                requires_picture: true,
                attachments: [{ name: 'x', path: 'accounts/someone/secret.png' }],
              },
            ],
          },
        },
        400,
        'validation/invalid-input',
      ],
      [{ ...valid(), active: null }, 400, 'validation/invalid-input'],
      [{ ...valid(), unknown: 1 }, 400, 'validation/invalid-input'],
    ];
    const before = await rowCounts();
    const failures: string[] = [];
    for (const [payload, status, code] of cases) {
      const response = await distributor.inject({ method: 'POST', url: url(), payload });
      if (response.statusCode !== status || response.json().error?.code !== code)
        failures.push(`${JSON.stringify(payload)}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
    expect(await rowCounts()).toEqual(before);

    const ok = await distributor.inject({ method: 'POST', url: url(), payload: valid() });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('checks in the contract order', async () => {
    const response = await distributor.inject({
      method: 'POST',
      url: url(),
      payload: {
        name: '',
        configuration: { oil_elements: [] },
        schedules: [{ start: 10, end: 0 }],
      },
    });
    expect(response.json().error.code).toBe('task-configuration/invalid-name');
    const second = await distributor.inject({
      method: 'POST',
      url: url(),
      payload: { name: 'x', schedules: [{ start: 10, end: 0 }], recurrence: 'bad' },
    });
    expect(second.json().error.code).toBe('task-configuration.select-module');
    const third = await distributor.inject({
      method: 'POST',
      url: url(),
      payload: { ...valid(), schedules: [{ start: 10, end: 0 }], recurrence: 'bad' },
    });
    expect(third.json().error.code).toBe('schedule-incoherent');
  });

  it('keeps the module read-only and checks patches the same way', async () => {
    const configuration = await buildTaskConfiguration(context.db, { database_id: databaseA() });
    const patch = (payload: Record<string, unknown>) =>
      distributor.inject({
        method: 'PATCH',
        url: `/api/taskConfigurations/${configuration.id}`,
        payload: { version: 0, ...payload },
      });
    const moduleChange = await patch({ module: 'oils' });
    expect(moduleChange.statusCode).toBe(400);
    expect(moduleChange.json().error.code).toBe('validation/invalid-input');
    const mismatch = await patch({ configuration: { oil_elements: [] } });
    expect(mismatch.json().error.code).toBe('task-configuration/module-mismatch');
    const empty = await patch({ configuration: { actions: [] } });
    expect(empty.json().error.code).toBe('task-action-required');
    const blank = await patch({ name: ' ' });
    expect(blank.json().error.code).toBe('task-configuration/invalid-name');
    const schedule = await patch({ schedules: [{ start: 100, end: 99 }] });
    expect(schedule.json().error.code).toBe('schedule-incoherent');
    const row = await databaseRow(configuration.id);
    expect(row).toMatchObject({ module: 'actions', version: 0, name: configuration.name });

    // A zero-length window is coherent (start is not after end).
    const zero = await patch({ schedules: [{ start: 100, end: 100 }] });
    expect(zero.statusCode, zero.body).toBe(200);
    expect(zero.json().configuration).toMatchObject({
      module: 'actions',
      starts: [100],
      durations: [0],
    });
  });

  it('accepts at store level the database elements of its database and its own elements only', async () => {
    const databaseElement = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Friteuse',
      oils_module_active: true,
    });
    const ownElement = await buildStoreElement(context.db, {
      store_id: storeA1(),
      name: 'Friteuse 2',
      oils_module_active: true,
    });
    // Not an Oils element: refused in an Oils configuration.
    const fridge = await buildDatabaseElement(context.db, {
      database_id: databaseA(),
      name: 'Frigo',
      oils_module_active: false,
    });
    const otherStoreElement = await buildStoreElement(context.db, {
      store_id: storeA2(),
      name: 'Ailleurs',
    });
    const otherStoreType = await buildTaskType(context.db, { store_id: storeA2() });
    const databaseType = await buildTaskType(context.db, { database_id: databaseA() });
    const otherOrigin = await buildTaskConfiguration(context.db, {
      database_id: tenants.b.database.id,
    });
    const otherTenantElement = await buildDatabaseElement(context.db, {
      database_id: tenants.b.database.id,
    });
    const url = `/api/stores/${storeA1()}/taskConfigurations`;
    const before = await rowCounts();
    const noModule = await customer.inject({ method: 'POST', url, payload: { name: 'Huile' } });
    expect(noModule.json().error.code).toBe('task-configuration.select-module');
    const foreign = await customer.inject({
      method: 'POST',
      url,
      payload: {
        name: 'Huile',
        module: 'oils',
        configuration: { oil_elements: [databaseElement.id, otherStoreElement.id] },
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.code).toBe('task-configuration/unknown-element');
    const otherDatabaseElement = await customer.inject({
      method: 'POST',
      url,
      payload: {
        name: 'Huile',
        module: 'oils',
        configuration: { oil_elements: [otherTenantElement.id] },
      },
    });
    expect(otherDatabaseElement.json().error.code).toBe('task-configuration/unknown-element');
    const notOils = await customer.inject({
      method: 'POST',
      url,
      payload: { name: 'Huile', module: 'oils', configuration: { oil_elements: [fridge.id] } },
    });
    expect(notOils.statusCode).toBe(400);
    expect(notOils.json().error.code).toBe('task-configuration/unknown-element');
    const foreignType = await customer.inject({
      method: 'POST',
      url,
      payload: { name: 'Huile', module: 'oils', type_id: otherStoreType.id },
    });
    expect(foreignType.json().error.code).toBe('task-configuration/unknown-type');
    const unknownOrigin = await customer.inject({
      method: 'POST',
      url,
      payload: { origin_id: otherOrigin.id },
    });
    expect(unknownOrigin.statusCode).toBe(400);
    expect(unknownOrigin.json().error.code).toBe('task-configuration/unknown-origin');
    expect(await rowCounts()).toEqual(before);

    const created = await customer.inject({
      method: 'POST',
      url,
      payload: {
        name: 'Huile',
        module: 'oils',
        type_id: databaseType.id,
        configuration: { oil_elements: [ownElement.id, databaseElement.id] },
        schedules: [{ start: 900, end: 960 }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().configuration).toMatchObject({
      origin_id: null,
      module: 'oils',
      is_remote: true,
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      element_names: { [ownElement.id]: 'Friteuse 2', [databaseElement.id]: 'Friteuse' },
    });
    expect(Object.values(created.json().configuration.field_states)).toEqual(Array(9).fill('own'));
    expect((await storeRow(created.json().configuration.id)).recurrence_anchor).toBe(today());

    // A store override of an element is referenced by its origin's id: one id per element.
    const override = await buildStoreElement(context.db, {
      store_id: storeA1(),
      origin_id: databaseElement.id,
    });
    const normalised = await customer.inject({
      method: 'POST',
      url,
      payload: {
        name: 'Huile bis',
        module: 'oils',
        configuration: { oil_elements: [override.id, databaseElement.id, ownElement.id] },
      },
    });
    expect(normalised.statusCode, normalised.body).toBe(200);
    expect(
      (
        (await storeRow(normalised.json().configuration.id)).configuration as {
          oil_elements: string[];
        }
      ).oil_elements,
    ).toEqual([databaseElement.id, ownElement.id]);
  });

  it('gives exactly one 409 to two saves of the same version, and nothing of the loser', async () => {
    const configuration = await buildTaskConfiguration(context.db, { database_id: databaseA() });
    const [first, second] = await Promise.all(
      ['First', 'Second'].map((name) =>
        distributor.inject({
          method: 'PATCH',
          url: `/api/taskConfigurations/${configuration.id}`,
          payload: { version: 0, name },
        }),
      ),
    );
    const statuses = [first!.statusCode, second!.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first!.statusCode === 409 ? first! : second!;
    expect(loser.json().error.code).toBe('conflict/stale-version');
    const winner = first!.statusCode === 200 ? 'First' : 'Second';
    expect(await databaseRow(configuration.id)).toMatchObject({ name: winner, version: 1 });

    const storeConfiguration = await buildStoreTaskConfiguration(context.db, {
      store_id: storeA1(),
      module: 'actions',
      name: 'Own',
      configuration: { actions: [action('a')] },
    });
    const results = await Promise.all(
      ['One', 'Two'].map((name) =>
        customer.inject({
          method: 'PATCH',
          url: `/api/storeTaskConfigurations/${storeConfiguration.id}`,
          payload: { version: 0, name },
        }),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 409]);
    expect((await storeRow(storeConfiguration.id)).version).toBe(1);
  });
});

describe('duplicate', () => {
  it('copies a database configuration and a store one with the suffix', async () => {
    const source = await buildTaskConfiguration(context.db, {
      database_id: databaseA(),
      name: 'Plonge',
      locks: { ...defaultTaskConfigurationLocks, name: false },
      recurrence_anchor: '2026-01-05',
    });
    const copy = await manager.inject({
      method: 'POST',
      url: `/api/taskConfigurations/${source.id}/duplicate`,
    });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().configuration).toMatchObject({
      name: 'Plonge (Copy)',
      module: 'actions',
      starts: [480],
      version: 0,
    });
    expect(copy.json().configuration.id).not.toBe(source.id);
    expect(copy.json().configuration.locks.name).toBe(false);

    const override = await buildStoreTaskConfiguration(context.db, {
      store_id: storeA1(),
      origin_id: source.id,
      module: 'actions',
      name: 'Plonge Paris',
    });
    const storeCopy = await customer.inject({
      method: 'POST',
      url: `/api/storeTaskConfigurations/${override.id}/duplicate`,
    });
    expect(storeCopy.statusCode, storeCopy.body).toBe(200);
    expect(storeCopy.json().configuration).toMatchObject({
      name: 'Plonge Paris (Copy)',
      origin_id: null,
      module: 'actions',
      starts: [480],
      configuration: { actions: [action('Clean')] },
    });
  });
});

describe('element choices', () => {
  it('offers the active elements with the module active, one per element under its database id', async () => {
    const database = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: database.id,
    });
    const fryer = await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Friteuse',
      oils_module_active: true,
    });
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Frigo',
      oils_module_active: false,
    });
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      name: 'Friteuse éteinte',
      oils_module_active: true,
      active: false,
    });
    await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: fryer.id,
      name: 'Ma friteuse',
    });
    const own = await buildStoreElement(context.db, {
      store_id: store.id,
      name: 'Friteuse 2',
      oils_module_active: true,
    });
    const atStore = await distributor.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/taskConfigurations/elements?module=oils`,
    });
    expect(atStore.statusCode, atStore.body).toBe(200);
    // The override is offered once, under the database element's id (its name is locked there).
    expect(atStore.json().items).toEqual([
      { id: fryer.id, name: 'Friteuse', is_delivery_item: false },
      { id: own.id, name: 'Friteuse 2', is_delivery_item: false },
    ]);
    const atDatabase = await distributor.inject({
      method: 'GET',
      url: `/api/databases/${database.id}/taskConfigurations/elements?module=temperatures`,
    });
    expect(atDatabase.json().items.map((item: { name: string }) => item.name)).toEqual([
      'Frigo',
      'Friteuse',
    ]);
    const outside = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
    const refused = await outside.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/taskConfigurations/elements?module=oils`,
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe('recurrence anchors', () => {
  it("counts from the store's local day, or the database's first store zone (Europe/Paris without stores)", async () => {
    // A zone whose today differs from UTC's and Paris's right now; in the hour when Paris is
    // already a day ahead of UTC no zone differs from both, so one that differs from Paris.
    const now = new Date();
    const candidates = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'];
    const differsFromParis = (candidate: string) =>
      dayInZone(now, candidate) !== dayInZone(now, 'Europe/Paris');
    const zone = (candidates.find(
      (candidate) =>
        dayInZone(now, candidate) !== now.toISOString().slice(0, 10) && differsFromParis(candidate),
    ) ?? candidates.find(differsFromParis))!;
    const faraway = await buildDatabase(context.db, {
      name: `Faraway ${zone}`,
      distributor_id: tenants.a.distributor.id,
    });
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: faraway.id,
      timezone_name: zone,
    });
    const empty = await buildDatabase(context.db, {
      name: 'Empty',
      distributor_id: tenants.a.distributor.id,
    });
    const payload = {
      name: 'Ouverture',
      module: 'actions',
      configuration: { actions: [action('A')] },
    };
    const atDatabase = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${faraway.id}/taskConfigurations`,
      payload,
    });
    expect(atDatabase.statusCode, atDatabase.body).toBe(200);
    expect((await databaseRow(atDatabase.json().configuration.id)).recurrence_anchor).toBe(
      dayInZone(new Date(), zone),
    );
    const noStore = await distributor.inject({
      method: 'POST',
      url: `/api/databases/${empty.id}/taskConfigurations`,
      payload,
    });
    expect(noStore.statusCode, noStore.body).toBe(200);
    expect((await databaseRow(noStore.json().configuration.id)).recurrence_anchor).toBe(
      dayInZone(new Date(), 'Europe/Paris'),
    );
    const atStore = await distributor.inject({
      method: 'POST',
      url: `/api/stores/${store.id}/taskConfigurations`,
      payload,
    });
    expect(atStore.statusCode, atStore.body).toBe(200);
    expect((await storeRow(atStore.json().configuration.id)).recurrence_anchor).toBe(
      dayInZone(new Date(), zone),
    );
  });
});

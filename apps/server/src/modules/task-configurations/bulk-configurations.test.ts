import {
  type BulkTaskConfigurationRow,
  bulkTaskConfigurationRowSchema,
  bulkTaskConfigurationsResponseSchema,
} from '@mise/shared/catalogue/bulk';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeTaskConfigurations, taskConfigurations } from '../../db/schema';
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
import { countQueries } from '../../test/query-counter';

/**
 * Expert mode, task configurations (spec 001 §2.9, §4; issue 19): GET/POST
 * /api/databases/:id/taskConfigurations/bulk and /api/stores/:id/taskConfigurations/bulk, on
 * both drivers. Store A1 is owned by customer A and not manager-owned.
 */

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let manager: Agent;
let customer: Agent;
let otherDistributor: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  otherDistributor = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
});

const action = (name: string) => ({ name, requires_picture: false, attachments: [] });
const databaseUrl = (id: string) => `/api/databases/${id}/taskConfigurations/bulk`;
const storeUrl = (id: string) => `/api/stores/${id}/taskConfigurations/bulk`;

async function read(agent: Agent, url: string) {
  const response = await agent.inject({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return bulkTaskConfigurationsResponseSchema.parse(response.json());
}
const save = (agent: Agent, url: string, rows: unknown[]) =>
  agent.inject({ method: 'POST', url, payload: { rows } });

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

/** A row as the task screen shows it, without what a grid row leaves out. */
function gridView(configuration: Record<string, unknown>) {
  const { hidden_modules: _hidden, editable: _editable, ...rest } = configuration;
  return rest;
}

/** A database of tenant A of its own, a store on it, two fridges and a task type. */
async function catalogue() {
  const database = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
  const store = await buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: database.id,
  });
  const fridges = [
    await buildDatabaseElement(context.db, { database_id: database.id, name: 'Frigo 1' }),
    await buildDatabaseElement(context.db, { database_id: database.id, name: 'Frigo 2' }),
  ];
  const type = await buildTaskType(context.db, {
    database_id: database.id,
    name: 'Hygiène',
    color: '#112233',
  });
  return { database, store, fridges, type };
}

describe('database level', () => {
  it('reads every configuration with its locks and item count, in a fixed number of queries', async () => {
    const { database, fridges, type } = await catalogue();
    const temperatures = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Relevé des frigos',
      module: 'temperatures',
      type_id: type.id,
      configuration: {
        temperature_elements: fridges.map((fridge) => fridge.id),
        is_delivery: false,
        automatic: false,
      },
      locks: { ...defaultTaskConfigurationLocks, name: false, schedule: false },
    });
    const cleaning = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Nettoyage',
      active: false,
      configuration: { actions: [action('Sols'), action('Plans'), action('Poubelles')] },
    });
    const body = await read(distributor, databaseUrl(database.id));
    expect(body.editable).toBe(true);
    expect(body.rows.map((row) => row.name)).toEqual(['Nettoyage', 'Relevé des frigos']);
    const [first, second] = body.rows;
    expect(first).toMatchObject({
      id: cleaning.id,
      active: false,
      item_count: 3,
      module: 'actions',
    });
    expect(second).toMatchObject({
      key: temperatures.id,
      module: 'temperatures',
      type_name: 'Hygiène',
      type_color: '#112233',
      item_count: 2,
      element_names: { [fridges[0]!.id]: 'Frigo 1', [fridges[1]!.id]: 'Frigo 2' },
      starts: [480],
      durations: [60],
    });
    expect(second!.locks).toMatchObject({ name: false, schedule: false, recurrence: true });
    const raw = (
      await distributor.inject({ method: 'GET', url: databaseUrl(database.id) })
    ).json() as { rows: Record<string, unknown>[] };
    expect(Object.keys(raw.rows[0]!)).toEqual(Object.keys(bulkTaskConfigurationRowSchema.shape));
    for (const row of body.rows) {
      const single = await distributor.inject({
        method: 'GET',
        url: `/api/taskConfigurations/${row.id}`,
      });
      expect({ ...row, key: undefined, item_count: undefined }).toEqual({
        ...gridView(single.json().configuration),
        key: undefined,
        item_count: undefined,
      });
    }

    const measure = () =>
      countQueries(context.database, () =>
        distributor.inject({ method: 'GET', url: databaseUrl(database.id) }),
      );
    const few = await measure();
    for (let index = 0; index < 20; index += 1) {
      await buildTaskConfiguration(context.db, {
        database_id: database.id,
        module: 'oils',
        configuration: { oil_elements: [fridges[index % 2]!.id] },
      });
    }
    expect(await measure()).toBe(few);
  });

  it('saves 3 changed rows and 1 new one, and writes nothing else', async () => {
    const { database, fridges, type } = await catalogue();
    const configurations = [];
    for (let index = 0; index < 6; index += 1) {
      configurations.push(
        await buildTaskConfiguration(context.db, {
          database_id: database.id,
          name: `Tâche ${index}`,
        }),
      );
    }
    const rows = (await read(distributor, databaseUrl(database.id))).rows;
    const [first, second, third] = configurations.map(
      (configuration) => rows.find((row) => row.id === configuration.id)!,
    );
    const response = await save(distributor, databaseUrl(database.id), [
      {
        key: first!.key,
        id: first!.id,
        version: 0,
        values: { name: 'Ouverture', requires_manager: true },
      },
      {
        key: second!.key,
        id: second!.id,
        version: 0,
        values: {
          schedules: [
            { start: 900, end: 960 },
            { start: 420, end: 480 },
          ],
          type_id: type.id,
        },
        locks: { schedule: false },
      },
      {
        key: third!.key,
        id: third!.id,
        version: 0,
        values: { recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO', active: false },
      },
      {
        key: 'new-1',
        id: null,
        values: {
          name: 'Relevé',
          module: 'temperatures',
          configuration: {
            temperature_elements: [fridges[0]!.id],
            is_delivery: false,
            automatic: false,
          },
          schedules: [{ start: 600, end: 630 }],
        },
        locks: { name: false },
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().rows as BulkTaskConfigurationRow[];
    expect(saved.map((row) => row.key)).toEqual([first!.key, second!.key, third!.key, 'new-1']);
    expect(saved[0]).toMatchObject({ name: 'Ouverture', requires_manager: true, version: 1 });
    expect(saved[1]).toMatchObject({
      starts: [420, 900],
      durations: [60, 60],
      type_name: 'Hygiène',
    });
    expect(saved[1]!.locks.schedule).toBe(false);
    expect(saved[2]).toMatchObject({
      active: false,
      recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO',
    });
    expect(saved[3]).toMatchObject({
      name: 'Relevé',
      module: 'temperatures',
      item_count: 1,
      element_names: { [fridges[0]!.id]: 'Frigo 1' },
      version: 0,
    });
    expect(saved[3]!.locks).toMatchObject({ name: false, schedule: true });
    expect(await databaseRow(second!.id!)).toMatchObject({
      starts: [420, 900],
      durations: [60, 60],
      version: 1,
      name: 'Tâche 1',
    });
    expect(await databaseRow(saved[3]!.id!)).toMatchObject({
      database_id: database.id,
      module: 'temperatures',
    });
    for (const configuration of configurations.slice(3)) {
      const row = await databaseRow(configuration.id);
      expect(row.version).toBe(0);
      expect(row.updated_at.getTime()).toBe(configuration.updated_at.getTime());
    }
  });

  it('answers 409 naming a stale row, and writes nothing', async () => {
    const { database } = await catalogue();
    const stale = await buildTaskConfiguration(context.db, { database_id: database.id });
    const other = await buildTaskConfiguration(context.db, { database_id: database.id });
    const patched = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskConfigurations/${stale.id}`,
      payload: { version: 0, name: 'Changée ailleurs' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const response = await save(distributor, databaseUrl(database.id), [
      { key: other.id, id: other.id, version: 0, values: { name: 'La mienne' } },
      { key: stale.id, id: stale.id, version: 0, values: { name: 'La mienne aussi' } },
    ]);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'conflict/stale-rows',
      issues: [{ path: stale.id }],
    });
    expect(await databaseRow(other.id)).toMatchObject({ name: other.name, version: 0 });
  });

  it("refuses a row as the task screen would, with the rule's code under the row key", async () => {
    const { database } = await catalogue();
    const task = await buildTaskConfiguration(context.db, { database_id: database.id });
    const incoherent = await save(distributor, databaseUrl(database.id), [
      { key: task.id, id: task.id, version: 0, values: { schedules: [{ start: 600, end: 540 }] } },
    ]);
    expect(incoherent.statusCode).toBe(400);
    expect(incoherent.json().error).toMatchObject({
      code: 'schedule-incoherent',
      issues: [{ path: `${task.id}.schedules` }],
    });
    const moduleless = await save(distributor, databaseUrl(database.id), [
      { key: 'new-1', id: null, values: { name: 'Sans module' } },
    ]);
    expect(moduleless.json().error).toMatchObject({
      code: 'task-configuration.select-module',
      issues: [{ path: 'new-1.module' }],
    });
    const empty = await save(distributor, databaseUrl(database.id), [
      { key: 'new-1', id: null, values: { name: 'Vide', module: 'actions' } },
      { key: 'new-2', id: null, values: { name: 'Vide aussi', module: 'actions' } },
    ]);
    expect(empty.json().error).toMatchObject({
      code: 'task-action-required',
      issues: [{ path: 'new-1.configuration' }, { path: 'new-2.configuration' }],
    });
    const foreign = await buildDatabaseElement(context.db, { database_id: tenants.b.database.id });
    const unknown = await save(distributor, databaseUrl(database.id), [
      {
        key: 'new-1',
        id: null,
        values: { name: 'Huiles', module: 'oils', configuration: { oil_elements: [foreign.id] } },
      },
    ]);
    expect(unknown.json().error).toMatchObject({
      code: 'task-configuration/unknown-element',
      issues: [{ path: 'new-1.configuration', message: foreign.id }],
    });
    const moved = await save(distributor, databaseUrl(database.id), [
      { key: task.id, id: task.id, version: 0, values: { module: 'oils' } },
    ]);
    expect(moved.json().error).toMatchObject({
      code: 'validation/invalid-input',
      issues: [{ path: `${task.id}.module` }],
    });
    expect(await databaseRow(task.id)).toMatchObject({ version: 0, module: 'actions' });
    expect((await read(distributor, databaseUrl(database.id))).rows).toHaveLength(1);
  });

  it('refuses other tenants and customers as the single calls do', async () => {
    const mine = await buildTaskConfiguration(context.db, { database_id: tenants.a.database.id });
    const theirs = await buildTaskConfiguration(context.db, {
      database_id: tenants.b.database.id,
    });
    expect(
      (await otherDistributor.inject({ method: 'GET', url: databaseUrl(tenants.a.database.id) }))
        .statusCode,
    ).toBe(404);
    const foreign = await save(otherDistributor, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, version: 0, values: { name: 'Prise' } },
    ]);
    expect(foreign.statusCode).toBe(404);
    const smuggled = await save(distributor, databaseUrl(tenants.a.database.id), [
      { key: theirs.id, id: theirs.id, version: 0, values: { name: 'Prise' } },
    ]);
    expect(smuggled.statusCode).toBe(404);
    expect(await databaseRow(theirs.id)).toMatchObject({ name: theirs.name, version: 0 });
    const refused = await save(customer, databaseUrl(tenants.a.database.id), [
      { key: mine.id, id: mine.id, version: 0, values: { name: 'Client' } },
    ]);
    expect(refused.statusCode).toBe(403);
    expect(await databaseRow(mine.id)).toMatchObject({ name: mine.name, version: 0 });
  });
});

describe('store level', () => {
  async function storeCatalogue() {
    const fixture = await catalogue();
    const { database, store, fridges } = fixture;
    const locked = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Fermeture',
    });
    const open = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Ouverture',
      module: 'temperatures',
      configuration: {
        temperature_elements: [fridges[0]!.id],
        is_delivery: false,
        automatic: false,
      },
      locks: {
        ...defaultTaskConfigurationLocks,
        configuration: false,
        schedule: false,
        active: false,
      },
    });
    const overridden = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Relevé',
      locks: { ...defaultTaskConfigurationLocks, schedule: false },
    });
    const override = await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      origin_id: overridden.id,
      starts: [600],
      durations: [30],
    });
    const storeType = await buildTaskType(context.db, { store_id: store.id, name: 'Magasin' });
    const own = await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      module: 'actions',
      name: 'Vitrine',
      type_id: storeType.id,
      configuration: { actions: [action('Vitres')] },
    });
    // A store element overriding the first fridge.
    const fridgeOverride = await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: fridges[0]!.id,
    });
    return { ...fixture, locked, open, overridden, override, own, storeType, fridgeOverride };
  }

  it('shows inherited values and locked fields, merged with the store rows, as the single screens', async () => {
    const fixture = await storeCatalogue();
    const body = await read(distributor, storeUrl(fixture.store.id));
    expect(body.rows.map((row) => row.key)).toEqual([
      `origin:${fixture.locked.id}`,
      `origin:${fixture.open.id}`,
      fixture.override.id,
      fixture.own.id,
    ]);
    const [locked, open, override, own] = body.rows;
    expect(locked).toMatchObject({ id: null, is_remote: false, origin_id: fixture.locked.id });
    expect(locked!.field_states.name).toBe('locked');
    expect(open!.field_states).toMatchObject({ configuration: 'inherited', name: 'locked' });
    expect(override).toMatchObject({ starts: [600], durations: [30], name: 'Relevé' });
    expect(override!.field_states).toMatchObject({ schedule: 'overridden', name: 'locked' });
    expect(own).toMatchObject({ type_name: 'Magasin', origin_id: null, item_count: 1 });
    const singles = await Promise.all([
      distributor.inject({
        method: 'GET',
        url: `/api/stores/${fixture.store.id}/taskConfigurations/origin/${fixture.locked.id}`,
      }),
      distributor.inject({
        method: 'GET',
        url: `/api/stores/${fixture.store.id}/taskConfigurations/origin/${fixture.open.id}`,
      }),
      distributor.inject({
        method: 'GET',
        url: `/api/storeTaskConfigurations/${fixture.override.id}`,
      }),
      distributor.inject({ method: 'GET', url: `/api/storeTaskConfigurations/${fixture.own.id}` }),
    ]);
    singles.forEach((single, index) => {
      expect(single.statusCode, single.body).toBe(200);
      expect({ ...body.rows[index], key: undefined, item_count: undefined }).toEqual({
        ...gridView(single.json().configuration),
        key: undefined,
        item_count: undefined,
      });
    });
    const measure = () =>
      countQueries(context.database, () =>
        distributor.inject({ method: 'GET', url: storeUrl(fixture.store.id) }),
      );
    const few = await measure();
    for (let index = 0; index < 10; index += 1) {
      const origin = await buildTaskConfiguration(context.db, {
        database_id: fixture.database.id,
        locks: { ...defaultTaskConfigurationLocks, schedule: false },
      });
      await buildStoreTaskConfiguration(context.db, {
        store_id: fixture.store.id,
        origin_id: origin.id,
        starts: [60],
        durations: [10],
      });
    }
    expect(await measure()).toBe(few);
  });

  it('saves an override (element references made canonical), a changed override and a new task', async () => {
    const fixture = await storeCatalogue();
    const response = await save(distributor, storeUrl(fixture.store.id), [
      {
        key: `origin:${fixture.open.id}`,
        id: null,
        origin_id: fixture.open.id,
        // The store's override of the fridge is referenced by the database element's id.
        values: {
          configuration: {
            temperature_elements: [fixture.fridgeOverride.id, fixture.fridges[1]!.id],
            is_delivery: false,
            automatic: false,
          },
          active: false,
        },
      },
      {
        key: fixture.override.id,
        id: fixture.override.id,
        version: 0,
        values: { schedules: [{ start: 700, end: 760 }] },
      },
      {
        key: 'new-1',
        id: null,
        values: {
          name: 'Réserve',
          module: 'actions',
          type_id: fixture.storeType.id,
          configuration: { actions: [action('Ranger')] },
        },
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().rows as BulkTaskConfigurationRow[];
    expect(rows.map((row) => row.key)).toEqual([
      `origin:${fixture.open.id}`,
      fixture.override.id,
      'new-1',
    ]);
    expect(rows[0]).toMatchObject({
      origin_id: fixture.open.id,
      is_remote: true,
      active: false,
      configuration: {
        temperature_elements: [fixture.fridges[0]!.id, fixture.fridges[1]!.id],
      },
      item_count: 2,
    });
    expect(rows[1]).toMatchObject({ starts: [700], durations: [60], version: 1 });
    expect(rows[2]).toMatchObject({ name: 'Réserve', type_name: 'Magasin', module: 'actions' });
    const created = await storeRow(rows[0]!.id!);
    expect(created).toMatchObject({ origin_id: fixture.open.id, name: null, active: false });
    expect(await storeRow(fixture.own.id)).toMatchObject({ version: 0 });
  });

  it('refuses a field locked at the origin, a stale row, a manager and other tenants', async () => {
    const fixture = await storeCatalogue();
    const lockedResponse = await save(distributor, storeUrl(fixture.store.id), [
      {
        key: fixture.override.id,
        id: fixture.override.id,
        version: 0,
        values: { schedules: [{ start: 100, end: 120 }] },
      },
      {
        key: `origin:${fixture.locked.id}`,
        id: null,
        origin_id: fixture.locked.id,
        values: { name: 'Renommée' },
      },
    ]);
    expect(lockedResponse.statusCode).toBe(403);
    expect(lockedResponse.json().error).toMatchObject({
      code: 'task-configuration/field-locked',
      issues: [{ path: `origin:${fixture.locked.id}.name` }],
    });
    expect(await storeRow(fixture.override.id)).toMatchObject({ starts: [600], version: 0 });

    // Someone else overrides the open task meanwhile.
    const elsewhere = await distributor.inject({
      method: 'POST',
      url: `/api/stores/${fixture.store.id}/taskConfigurations`,
      payload: { origin_id: fixture.open.id, active: false },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const stale = await save(distributor, storeUrl(fixture.store.id), [
      { key: fixture.own.id, id: fixture.own.id, version: 0, values: { name: 'Vitrine 2' } },
      {
        key: `origin:${fixture.open.id}`,
        id: null,
        origin_id: fixture.open.id,
        values: { active: true },
      },
    ]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({
      code: 'conflict/stale-rows',
      issues: [{ path: `origin:${fixture.open.id}` }],
    });
    expect(await storeRow(fixture.own.id)).toMatchObject({ name: 'Vitrine', version: 0 });

    const storeA1 = tenants.a.stores[0]!;
    const task = await buildStoreTaskConfiguration(context.db, {
      store_id: storeA1.id,
      module: 'actions',
      name: 'Comptoir',
      configuration: { actions: [action('Essuyer')] },
    });
    const rows = [{ key: task.id, id: task.id, version: 0, values: { name: 'Pris' } }];
    expect((await save(manager, storeUrl(storeA1.id), rows)).statusCode).toBe(403);
    expect((await save(otherDistributor, storeUrl(storeA1.id), rows)).statusCode).toBe(404);
    expect(
      (await otherDistributor.inject({ method: 'GET', url: storeUrl(storeA1.id) })).statusCode,
    ).toBe(404);
    const smuggled = await save(distributor, storeUrl(storeA1.id), [
      { key: fixture.own.id, id: fixture.own.id, version: 0, values: { name: 'Pris' } },
    ]);
    expect(smuggled.statusCode).toBe(404);
    expect(await storeRow(task.id)).toMatchObject({ name: 'Comptoir', version: 0 });
    // The store's owner (a customer): expert mode is not theirs (spec 001 §2.1). Its grid reads
    // not editable and its save answers 403, nothing written (the copy calls: elements test).
    const grid = await customer.inject({ method: 'GET', url: storeUrl(storeA1.id) });
    expect(grid.statusCode).toBe(200);
    expect(grid.json().editable).toBe(false);
    const refused = await save(customer, storeUrl(storeA1.id), rows);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    expect(await storeRow(task.id)).toMatchObject({ name: 'Comptoir', version: 0 });
    // The store's distributor saves it.
    const saved = await save(distributor, storeUrl(storeA1.id), rows);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await storeRow(task.id)).toMatchObject({ name: 'Pris', version: 1 });
  });
});

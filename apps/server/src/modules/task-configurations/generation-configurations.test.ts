import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import * as schema from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildStore,
  buildStoreElement,
  buildStoreTaskConfiguration,
  buildTaskConfiguration,
  buildTaskType,
} from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { loadElementSnapshots } from '../elements/element-snapshots';
import { detachStoreTaskConfigurationOverrides } from './detach-overrides';
import {
  type GenerationConfiguration,
  loadGenerationConfigurations,
} from './generation-configurations';

const context = useTestApp();

/** The same database through a drizzle instance that counts the queries it sends. */
function countingDatabase(): { db: Database; queries: () => number; reset: () => void } {
  const counter = { total: 0 };
  const logger = {
    logQuery: () => {
      counter.total++;
    },
  };
  const handle = context.database;
  const db = (handle.driver === 'pg'
    ? drizzlePg(handle.pool!, { schema, logger })
    : drizzlePglite(handle.pglite!, { schema, logger })) as unknown as Database;
  return {
    db,
    queries: () => counter.total,
    reset: () => {
      counter.total = 0;
    },
  };
}

const unlocked = (...keys: (keyof typeof defaultTaskConfigurationLocks)[]) => ({
  ...defaultTaskConfigurationLocks,
  ...Object.fromEntries(keys.map((key) => [key, false])),
});
const names = (items: GenerationConfiguration[] | undefined) =>
  (items ?? []).map((item) => item.name);

let fixture: Awaited<ReturnType<typeof buildFixture>>;

async function buildFixture() {
  const db = context.db;
  const database = await buildDatabase(db, { name: 'Generation' });
  const otherDatabase = await buildDatabase(db, { name: 'Other' });
  const paris = await buildStore(db, { database_id: database.id, name: 'Paris' });
  const lyon = await buildStore(db, { database_id: database.id, name: 'Lyon' });
  const elsewhere = await buildStore(db, { database_id: otherDatabase.id, name: 'Oslo' });
  const type = await buildTaskType(db, {
    database_id: database.id,
    name: 'Froid',
    color: '#0000ff',
  });
  const parisType = await buildTaskType(db, {
    store_id: paris.id,
    name: 'Paris',
    color: '#ff0000',
  });

  const fridge = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Frigo',
    minimum_temperature: 0,
    maximum_temperature: 4,
    locks: { ...defaultElementLocks, active: false, maximum_temperature: false },
  });
  const retired = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Ancien frigo',
    active: false,
  });
  const freezer = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Congélateur',
    minimum_temperature: -25,
    maximum_temperature: -18,
    locks: { ...defaultElementLocks, maximum_temperature: false, name: false },
  });
  // Paris overrides the freezer's maximum and name; Lyon switches the fridge off.
  await buildStoreElement(db, {
    store_id: paris.id,
    origin_id: freezer.id,
    maximum_temperature: -15,
    name: 'Congélateur Paris',
    // Locked at database level: ignored.
    minimum_temperature: -40,
  });
  await buildStoreElement(db, { store_id: lyon.id, origin_id: fridge.id, active: false });
  const fryer = await buildStoreElement(db, {
    store_id: paris.id,
    name: 'Friteuse',
    maximum_polarity: 22,
    active: true,
  });

  const readings = await buildTaskConfiguration(db, {
    database_id: database.id,
    name: 'Relevés',
    module: 'temperatures',
    type_id: type.id,
    configuration: {
      temperature_elements: [freezer.id, retired.id, fridge.id],
      is_delivery: false,
      automatic: false,
    },
    starts: [420, 900],
    durations: [30, 60],
    recurrence_anchor: '2026-01-01',
  });
  const cleaning = await buildTaskConfiguration(db, {
    database_id: database.id,
    name: 'Nettoyage',
    locks: unlocked('name', 'recurrence', 'type_id'),
    configuration: {
      actions: [
        { name: 'Sol', requires_picture: true, attachments: [] },
        { name: 'Plans', requires_picture: false, attachments: [] },
      ],
    },
    starts: [600],
    durations: [45],
    requires_manager: true,
    notify_late: true,
    recurrence_anchor: '2026-01-01',
  });
  const seasonal = await buildTaskConfiguration(db, {
    database_id: database.id,
    name: 'Saisonnier',
    active: false,
    locks: unlocked('active'),
  });
  const evening = await buildTaskConfiguration(db, {
    database_id: database.id,
    name: 'Soir',
    locks: unlocked('active'),
  });
  await buildTaskConfiguration(db, { database_id: otherDatabase.id, name: 'Oslo task' });

  // Paris: renames cleaning, its own recurrence and type; tries a locked schedule (ignored);
  // switches the evening off; has an oils configuration of its own.
  await buildStoreTaskConfiguration(db, {
    store_id: paris.id,
    origin_id: cleaning.id,
    module: 'actions',
    name: 'Nettoyage Paris',
    recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO',
    recurrence_anchor: '2026-03-02',
    type_id: parisType.id,
    starts: [0],
    durations: [10],
  });
  await buildStoreTaskConfiguration(db, {
    store_id: paris.id,
    origin_id: evening.id,
    module: 'actions',
    active: false,
  });
  const oils = await buildStoreTaskConfiguration(db, {
    store_id: paris.id,
    module: 'oils',
    name: 'Huiles',
    active: true,
    recurrence: 'FREQ=DAILY;INTERVAL=1',
    recurrence_anchor: '2026-02-01',
    starts: [660],
    durations: [15],
    requires_manager: false,
    notify_late: false,
    configuration: { oil_elements: [fryer.id, freezer.id] },
  });
  await buildStoreTaskConfiguration(db, {
    store_id: paris.id,
    module: 'actions',
    name: 'Inactive own',
    active: false,
    configuration: { actions: [{ name: 'x', requires_picture: false, attachments: [] }] },
  });
  // Lyon switches the seasonal configuration on.
  const lyonSeasonal = await buildStoreTaskConfiguration(db, {
    store_id: lyon.id,
    origin_id: seasonal.id,
    module: 'actions',
    active: true,
  });
  return {
    database,
    paris,
    lyon,
    elsewhere,
    fridge,
    freezer,
    fryer,
    readings,
    cleaning,
    seasonal,
    oils,
    lyonSeasonal,
  };
}

beforeAll(async () => {
  fixture = await buildFixture();
});

describe('loadGenerationConfigurations', () => {
  it('gives each store its effective active configurations', async () => {
    const { paris, lyon, elsewhere } = fixture;
    const result = await loadGenerationConfigurations(context.db, [
      paris.id,
      lyon.id,
      elsewhere.id,
    ]);
    expect(names(result.get(paris.id))).toEqual(['Huiles', 'Nettoyage Paris', 'Relevés']);
    expect(names(result.get(lyon.id))).toEqual(['Nettoyage', 'Relevés', 'Saisonnier', 'Soir']);
    expect(names(result.get(elsewhere.id))).toEqual(['Oslo task']);

    const parisConfigurations = result.get(paris.id)!;
    const cleaning = parisConfigurations.find((item) => item.name === 'Nettoyage Paris')!;
    expect(cleaning).toMatchObject({
      key: fixture.cleaning.id,
      configuration_id: fixture.cleaning.id,
      database_id: fixture.database.id,
      module: 'actions',
      type_name: 'Paris',
      type_color: '#ff0000',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO',
      recurrence_anchor: '2026-03-02',
      // The schedule is locked: the database's, not the store's [0].
      starts: [600],
      durations: [45],
      requires_manager: true,
      notify_late: true,
      elements: [],
      actions: [
        { name: 'Sol', requires_picture: true },
        { name: 'Plans', requires_picture: false },
      ],
    });
    expect(cleaning.store_configuration_id).toBeTruthy();

    const readings = parisConfigurations.find((item) => item.name === 'Relevés')!;
    expect(readings).toMatchObject({
      key: fixture.readings.id,
      configuration_id: fixture.readings.id,
      store_configuration_id: null,
      module: 'temperatures',
      type_name: 'Froid',
      type_color: '#0000ff',
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      recurrence_anchor: '2026-01-01',
      starts: [420, 900],
      durations: [30, 60],
      actions: [],
    });
    // Configuration order kept, inactive element left out, the store's effective values.
    expect(readings.elements).toEqual([
      {
        id: fixture.freezer.id,
        name: 'Congélateur Paris',
        minimum_temperature: -25,
        maximum_temperature: -15,
        maximum_polarity: 25,
        reheating_temperature: 63,
        cooling_temperature: 10,
      },
      {
        id: fixture.fridge.id,
        name: 'Frigo',
        minimum_temperature: 0,
        maximum_temperature: 4,
        maximum_polarity: 25,
        reheating_temperature: 63,
        cooling_temperature: 10,
      },
    ]);
    // Lyon switched the fridge off; it sees the freezer as the database has it.
    const lyonReadings = result.get(lyon.id)!.find((item) => item.name === 'Relevés')!;
    expect(
      lyonReadings.elements.map((element) => [element.name, element.maximum_temperature]),
    ).toEqual([['Congélateur', -18]]);

    const oils = parisConfigurations.find((item) => item.name === 'Huiles')!;
    expect(oils).toMatchObject({
      key: fixture.oils.id,
      configuration_id: null,
      store_configuration_id: fixture.oils.id,
      database_id: null,
      module: 'oils',
      recurrence_anchor: '2026-02-01',
      type_name: null,
    });
    expect(oils.elements.map((element) => [element.id, element.name])).toEqual([
      [fixture.fryer.id, 'Friteuse'],
      [fixture.freezer.id, 'Congélateur Paris'],
    ]);
    expect(oils.elements[0]!.maximum_polarity).toBe(22);

    const seasonal = result.get(lyon.id)!.find((item) => item.name === 'Saisonnier')!;
    expect(seasonal).toMatchObject({
      key: fixture.seasonal.id,
      store_configuration_id: fixture.lyonSeasonal.id,
    });
  });

  it('one element per origin (an override id and its origin id), and only referenced elements read', async () => {
    const store = await buildStore(context.db, { database_id: fixture.database.id });
    const override = await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: fixture.fridge.id,
    });
    await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      module: 'temperatures',
      name: 'Both ids',
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      recurrence_anchor: '2026-01-01',
      active: true,
      starts: [480],
      durations: [60],
      configuration: {
        temperature_elements: [override.id, fixture.fridge.id],
        is_delivery: false,
        automatic: false,
      },
    });
    const loaded = (await loadGenerationConfigurations(context.db, [store.id])).get(store.id)!;
    const both = loaded.find((item) => item.name === 'Both ids')!;
    expect(both.elements.map((element) => element.id)).toEqual([fixture.fridge.id]);
    expect(Object.keys(both.elements[0]!).sort()).toEqual([
      'cooling_temperature',
      'id',
      'maximum_polarity',
      'maximum_temperature',
      'minimum_temperature',
      'name',
      'reheating_temperature',
    ]);
    const snapshots = await loadElementSnapshots(context.db, [store], [override.id]);
    expect([...snapshots.get(store.id)!.keys()].sort()).toEqual(
      [override.id, fixture.fridge.id].sort(),
    );
    expect(snapshots.get(store.id)!.has(fixture.freezer.id)).toBe(false);
  });

  it('answers an entry for every store asked, even unknown or empty', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const bare = await buildStore(context.db, { name: 'No database' });
    const result = await loadGenerationConfigurations(context.db, [unknown, bare.id]);
    expect(result.get(unknown)).toEqual([]);
    expect(result.get(bare.id)).toEqual([]);
    expect((await loadGenerationConfigurations(context.db, [])).size).toBe(0);
  });

  it('sends the same small number of queries for 1 store and for 25 stores', async () => {
    const counting = countingDatabase();
    const stores = [fixture.paris];
    for (let index = 0; index < 24; index++) {
      const store = await buildStore(context.db, {
        database_id: index % 2 ? fixture.database.id : fixture.elsewhere.database_id,
      });
      await buildStoreElement(context.db, { store_id: store.id, origin_id: fixture.fridge.id });
      await buildStoreTaskConfiguration(context.db, {
        store_id: store.id,
        origin_id: fixture.cleaning.id,
        module: 'actions',
        name: `Nettoyage ${index}`,
      });
      stores.push(store);
    }
    counting.reset();
    const one = await loadGenerationConfigurations(counting.db, [fixture.paris.id]);
    const forOne = counting.queries();
    counting.reset();
    const many = await loadGenerationConfigurations(
      counting.db,
      stores.map((store) => store.id),
    );
    const forMany = counting.queries();
    expect(forOne).toBeGreaterThan(0);
    expect(forOne).toBeLessThanOrEqual(6);
    expect(forMany).toBe(forOne);
    expect(many.size).toBe(25);
    expect(many.get(fixture.paris.id)).toEqual(one.get(fixture.paris.id));
    const sample = many.get(stores[1]!.id)!;
    expect(names(sample)).toContain('Nettoyage 0');
  });
});

describe('detachStoreTaskConfigurationOverrides', () => {
  it("turns a store's overrides into its own configurations with the effective values", async () => {
    const database = await buildDatabase(context.db);
    const store = await buildStore(context.db, { database_id: database.id });
    const origin = await buildTaskConfiguration(context.db, {
      database_id: database.id,
      name: 'Origine',
      starts: [300],
      durations: [20],
      recurrence_anchor: '2026-01-01',
      locks: unlocked('name'),
    });
    const override = await buildStoreTaskConfiguration(context.db, {
      store_id: store.id,
      origin_id: origin.id,
      module: 'actions',
      name: 'Copie locale',
    });
    const before = await loadGenerationConfigurations(context.db, [store.id]);
    expect(await detachStoreTaskConfigurationOverrides(context.db, store)).toBe(1);
    const after = await loadGenerationConfigurations(context.db, [store.id]);
    const detached = after.get(store.id)!.find((item) => item.name === 'Copie locale')!;
    expect(detached).toMatchObject({
      key: override.id,
      configuration_id: null,
      store_configuration_id: override.id,
      starts: [300],
      durations: [20],
      recurrence_anchor: '2026-01-01',
      actions: before.get(store.id)![0]!.actions,
    });
  });
});

import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { compareNames, mergeStoreRows } from '@mise/shared/catalogue/rules';
import {
  allergenTableSchema,
  type ElementListItem,
  listElementsResponseSchema,
} from '@mise/shared/catalogue/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseElements, elementTypes, probes, storeElements } from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildElementType,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { allergenGroups } from '../allergens/allergens.service';
import { effectiveDatabaseValues, effectiveStoreValues } from './element-values';
import { buildProbe } from './test-support';

/**
 * The lists read only their columns and resolve only their fields (docs/scaling.md
 * "Catalogue"): their answers must stay those of the whole-row computation — every column
 * read, the 24 fields resolved, the merge, then the filters, then zod's serialisation —
 * written here as the reference, over locks missing from the jsonb, explicit false locks,
 * overridden and inherited names and types, orphans, inactive rows and accented searches.
 */
const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;

const databaseId = () => tenants.a.database.id;
const store = () => tenants.a.stores[0]!;

const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase();

type Query = { search?: string; includeInactive?: boolean; tab?: string };

function referenceMatches(item: ElementListItem, query: Query): boolean {
  if (!query.includeInactive && !item.active) return false;
  if (query.search && !folded(item.name).includes(folded(query.search))) return false;
  if (query.tab === 'temperature' && item.temperature_delivery_item) return false;
  if (query.tab === 'delivery' && !item.temperature_delivery_item) return false;
  if (query.tab === 'probes' && !item.probe_id) return false;
  return true;
}

function referenceItem(
  key: string,
  values: ReturnType<typeof effectiveStoreValues>['values'],
  extra: Pick<ElementListItem, 'id' | 'origin_id' | 'is_remote' | 'type_name' | 'probe_id'>,
  storeProbeUids: ReadonlySet<string> = new Set(),
): ElementListItem {
  return {
    key,
    ...extra,
    probe_missing: extra.probe_id !== null && !storeProbeUids.has(extra.probe_id),
    name: values.name,
    type_id: values.type_id,
    active: values.active,
    illustration_url: values.illustration_url,
    allergens: values.allergens,
    minimum_temperature: values.minimum_temperature,
    maximum_temperature: values.maximum_temperature,
    temperature_delivery_item: values.temperature_delivery_item,
  };
}

async function referenceStoreItems(): Promise<ElementListItem[]> {
  const databaseRows = await context.db
    .select({ element: databaseElements, type_name: elementTypes.name })
    .from(databaseElements)
    .leftJoin(elementTypes, eq(elementTypes.id, databaseElements.type_id))
    .where(eq(databaseElements.database_id, databaseId()));
  const storeRows = await context.db
    .select({ element: storeElements, type_name: elementTypes.name })
    .from(storeElements)
    .leftJoin(elementTypes, eq(elementTypes.id, storeElements.type_id))
    .where(eq(storeElements.store_id, store().id));
  const storeProbeUids = new Set(
    (
      await context.db
        .select({ uid: probes.probe_uid })
        .from(probes)
        .where(eq(probes.store_id, store().id))
    ).map((row) => row.uid),
  );
  const originById = new Map(databaseRows.map((item) => [item.element.id, item]));
  const databaseItems = databaseRows.map(({ element, type_name }) => {
    const values = effectiveStoreValues(null, element).values;
    return {
      id: element.id,
      name: values.name,
      item: referenceItem(`origin:${element.id}`, values, {
        id: null,
        origin_id: element.id,
        is_remote: false,
        type_name,
        probe_id: null,
      }),
    };
  });
  const storeItems = storeRows.map(({ element, type_name }) => {
    const origin = element.origin_id ? originById.get(element.origin_id) : undefined;
    const effective = effectiveStoreValues(element, origin?.element ?? null);
    const typeState = effective.states.type_id;
    return {
      id: element.id,
      origin_id: origin ? origin.element.id : null,
      name: effective.values.name,
      item: referenceItem(
        element.id,
        effective.values,
        {
          id: element.id,
          origin_id: origin ? origin.element.id : null,
          is_remote: true,
          type_name:
            typeState === 'locked' || typeState === 'inherited'
              ? (origin?.type_name ?? null)
              : type_name,
          probe_id: element.probe_id,
        },
        storeProbeUids,
      ),
    };
  });
  return mergeStoreRows(databaseItems, storeItems).map(({ row }) => row.item);
}

async function referenceDatabaseItems(): Promise<ElementListItem[]> {
  const rows = await context.db
    .select({ element: databaseElements, type_name: elementTypes.name })
    .from(databaseElements)
    .leftJoin(elementTypes, eq(elementTypes.id, databaseElements.type_id))
    .where(eq(databaseElements.database_id, databaseId()));
  return rows
    .map(({ element, type_name }) =>
      referenceItem(element.id, effectiveDatabaseValues(element).values, {
        id: element.id,
        origin_id: null,
        is_remote: false,
        type_name,
        probe_id: null,
      }),
    )
    .sort((left, right) => compareNames(left.name, right.name) || (left.key < right.key ? -1 : 1));
}

const queryString = (query: Query) => {
  const params = new URLSearchParams();
  if (query.search !== undefined) params.set('search', query.search);
  if (query.includeInactive) params.set('includeInactive', 'true');
  if (query.tab) params.set('tab', query.tab);
  const text = params.toString();
  return text ? `?${text}` : '';
};

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  const database = databaseId();
  const storeId = store().id;
  const froid = await buildElementType(context.db, { database_id: database, name: 'Froid' });
  const sec = await buildElementType(context.db, { database_id: database, name: 'Sec' });
  const maison = await buildElementType(context.db, { store_id: storeId, name: 'Maison' });
  const otherDatabase = await buildDatabase(context.db, {
    distributor_id: tenants.a.distributor.id,
  });
  const elsewhere = await buildDatabaseElement(context.db, {
    database_id: otherDatabase.id,
    name: 'Ailleurs',
  });
  const open = Object.fromEntries(Object.keys(defaultElementLocks).map((key) => [key, false]));
  const specs = [
    // Locks as written by the API (every key), partial jsonb (missing keys are locked), none.
    {
      name: 'Crème fraîche',
      type_id: froid.id,
      allergens: ['milkOrLactose'],
      locks: defaultElementLocks,
    },
    { name: 'CRÈME anglaise', type_id: sec.id, allergens: ['milkOrLactose', 'egg'], locks: open },
    { name: 'creme brulee', type_id: null, allergens: [], locks: { name: false } },
    { name: 'Ćrème dessert', type_id: froid.id, allergens: ['egg'], locks: {} },
    { name: 'Beurre', type_id: sec.id, allergens: ['milkOrLactose'], locks: open, active: false },
    { name: 'Ail', type_id: froid.id, allergens: [], locks: open, temperature_delivery_item: true },
    { name: 'Œuf 10', type_id: sec.id, allergens: ['egg'], locks: { type_id: false } },
    { name: 'Œuf 9', type_id: null, allergens: ['egg'], locks: { active: false, name: false } },
  ];
  const rows = [];
  for (const [index, spec] of specs.entries()) {
    rows.push(
      await buildDatabaseElement(context.db, {
        database_id: database,
        minimum_temperature: index % 2 ? 0 : null,
        maximum_temperature: index % 2 ? 4 : null,
        illustration_url: index % 3 ? null : `https://example.test/${index}.png`,
        ...spec,
      } as Parameters<typeof buildDatabaseElement>[1]),
    );
  }
  const [creme, anglaise, brulee, dessert, beurre, ail, oeuf10, oeuf9] = rows as [
    (typeof rows)[number],
    ...(typeof rows)[number][],
  ];
  // Overrides: a renamed one (name locked: the origin's wins), renamed and retyped (open),
  // one following its origin, inactive ones, a probe, a delivery item, an orphan.
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: creme.id,
    name: 'Sauce',
    type_id: maison.id,
    minimum_temperature: 1,
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: anglaise!.id,
    name: 'Sauce vanille',
    type_id: maison.id,
    allergens: [],
    probe_id: (await buildProbe(context.db, { store_id: storeId })).probe_uid,
  });
  await buildStoreElement(context.db, { store_id: storeId, origin_id: brulee!.id });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: dessert!.id,
    name: 'Dessert maison',
    active: false,
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: beurre!.id,
    active: true,
    temperature_delivery_item: true,
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: oeuf10!.id,
    type_id: maison.id,
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: oeuf9!.id,
    name: 'Œufs frais',
    active: false,
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    origin_id: elsewhere.id,
    name: 'Crème orpheline',
    type_id: maison.id,
    allergens: ['milkOrLactose'],
  });
  await buildStoreElement(context.db, {
    store_id: storeId,
    name: 'crème de la maison',
    type_id: maison.id,
    allergens: ['milkOrLactose'],
    probe_id: 'probe-2',
  });
  await buildStoreElement(context.db, { store_id: storeId, name: null });
  void ail;
});

const queries: Query[] = [
  {},
  { includeInactive: true },
  { search: 'crème' },
  { search: 'CREME', includeInactive: true },
  { search: 'œuf' },
  { search: 'sauce', includeInactive: true },
  { search: '10' },
  { search: 'zzz' },
];

describe('catalogue lists (narrow reads, listed fields only)', () => {
  it('answers a store list as the whole-row computation does, byte for byte', async () => {
    const reference = await referenceStoreItems();
    for (const query of [...queries, { tab: 'delivery' }, { tab: 'probes', search: 'sauce' }]) {
      const response = await distributor.inject({
        method: 'GET',
        url: `/api/stores/${store().id}/elements${queryString(query)}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const expected = listElementsResponseSchema.encode({
        items: reference.filter((item) => referenceMatches(item, query)),
      });
      expect(response.body, JSON.stringify(query)).toBe(JSON.stringify(expected));
    }
  });

  it('answers a database list as the whole-row computation does, byte for byte', async () => {
    const reference = await referenceDatabaseItems();
    for (const query of queries) {
      const response = await distributor.inject({
        method: 'GET',
        url: `/api/databases/${databaseId()}/elements${queryString(query)}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const expected = listElementsResponseSchema.encode({
        items: reference.filter((item) => referenceMatches(item, query)),
      });
      expect(response.body, JSON.stringify(query)).toBe(JSON.stringify(expected));
    }
  });

  it('answers the allergens tables as the whole-row computation does', async () => {
    const byStore = await distributor.inject({
      method: 'GET',
      url: `/api/allergens?storeId=${store().id}`,
    });
    expect(byStore.statusCode, byStore.body).toBe(200);
    const storeExpected = allergenTableSchema.encode(
      allergenGroups(store().name, await referenceStoreItems()),
    );
    expect(byStore.body).toBe(JSON.stringify(storeExpected));
    expect(storeExpected.groups.length).toBeGreaterThan(1);

    const byDatabase = await distributor.inject({
      method: 'GET',
      url: `/api/allergens?databaseId=${databaseId()}`,
    });
    expect(byDatabase.statusCode, byDatabase.body).toBe(200);
    const databaseExpected = allergenTableSchema.encode(
      allergenGroups(
        tenants.a.database.name,
        (await referenceDatabaseItems()).filter((item) => item.active),
      ),
    );
    expect(byDatabase.body).toBe(JSON.stringify(databaseExpected));
  });
});

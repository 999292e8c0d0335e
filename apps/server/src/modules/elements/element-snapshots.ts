import { and, inArray, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, storeElements, type TaskElementSnapshot } from '../../db/schema';
import { type DatabaseElementRow, effectiveStoreValues, type FieldValues } from './element-values';

/** What a task copies from an element, with whether the element is active for the store. */
export type ElementSnapshot = TaskElementSnapshot & {
  active: boolean;
  /** The element's id in the database when it is a store override of it (else its own id). */
  origin_id: string | null;
  temperatures_module_active: boolean;
  oils_module_active: boolean;
  temperature_delivery_item: boolean;
};

/** The inherited fields a snapshot needs (every other column is left out of the queries). */
function snapshotColumns<T extends typeof databaseElements | typeof storeElements>(table: T) {
  return {
    name: table.name,
    minimum_temperature: table.minimum_temperature,
    maximum_temperature: table.maximum_temperature,
    maximum_polarity: table.maximum_polarity,
    reheating_temperature: table.reheating_temperature,
    cooling_temperature: table.cooling_temperature,
    active: table.active,
    temperatures_module_active: table.temperatures_module_active,
    oils_module_active: table.oils_module_active,
    temperature_delivery_item: table.temperature_delivery_item,
  };
}

function snapshotOf(id: string, own: FieldValues | null, origin: DatabaseElementRow | null) {
  const { values } = effectiveStoreValues(own, origin);
  return {
    id,
    origin_id: own && origin ? origin.id : null,
    temperatures_module_active: values.temperatures_module_active !== false,
    oils_module_active: values.oils_module_active === true,
    temperature_delivery_item: values.temperature_delivery_item === true,
    name: values.name,
    minimum_temperature: values.minimum_temperature,
    maximum_temperature: values.maximum_temperature,
    maximum_polarity: values.maximum_polarity,
    reheating_temperature: values.reheating_temperature,
    cooling_temperature: values.cooling_temperature,
    active: values.active,
  } satisfies ElementSnapshot;
}

/**
 * Every element of each store with its effective values as that store sees them (the one
 * inheritance rule), in two queries whatever the number of stores. Each store's map is keyed
 * the way task configurations reference elements: a database element by its id (with the
 * store's override applied when there is one), a store element by its own id. A snapshot's
 * `id` is the key it is found under. An override whose origin is not in the store's current
 * database counts as the store's own element.
 *
 * `ids`, when given: only the elements referenced (a database element, a store element, or a
 * store override, with its origin) are read, and only the columns a snapshot needs.
 */
export async function loadElementSnapshots(
  db: Pick<Database, 'select'>,
  stores: readonly { id: string; database_id: string | null }[],
  ids?: readonly string[],
): Promise<Map<string, Map<string, ElementSnapshot>>> {
  const result = new Map<string, Map<string, ElementSnapshot>>();
  if (stores.length === 0) return result;
  const storeIds = [...new Set(stores.map((store) => store.id))];
  const databaseIds = [
    ...new Set(stores.map((store) => store.database_id).filter((id): id is string => !!id)),
  ];
  const referenced = ids ? [...new Set(ids)] : null;
  if (referenced && referenced.length === 0) {
    for (const store of stores) result.set(store.id, new Map());
    return result;
  }
  const [databaseRows, storeRows] = await Promise.all([
    databaseIds.length
      ? (db
          .select({
            id: databaseElements.id,
            database_id: databaseElements.database_id,
            locks: databaseElements.locks,
            ...snapshotColumns(databaseElements),
          })
          .from(databaseElements)
          .where(
            and(
              inArray(databaseElements.database_id, databaseIds),
              referenced
                ? or(
                    inArray(databaseElements.id, referenced),
                    inArray(
                      databaseElements.id,
                      db
                        .select({ id: storeElements.origin_id })
                        .from(storeElements)
                        .where(
                          and(
                            inArray(storeElements.store_id, storeIds),
                            inArray(storeElements.id, referenced),
                          ),
                        ),
                    ),
                  )
                : undefined,
            ),
          ) as unknown as Promise<DatabaseElementRow[]>)
      : Promise.resolve([] as DatabaseElementRow[]),
    db
      .select({
        id: storeElements.id,
        store_id: storeElements.store_id,
        origin_id: storeElements.origin_id,
        ...snapshotColumns(storeElements),
      })
      .from(storeElements)
      .where(
        and(
          inArray(storeElements.store_id, storeIds),
          referenced
            ? or(
                inArray(storeElements.id, referenced),
                inArray(storeElements.origin_id, referenced),
              )
            : undefined,
        ),
      ),
  ]);
  const databaseRowsOf = new Map<string, DatabaseElementRow[]>();
  for (const row of databaseRows) {
    const list = databaseRowsOf.get(row.database_id) ?? [];
    list.push(row);
    databaseRowsOf.set(row.database_id, list);
  }
  const storeRowsOf = new Map<string, (typeof storeRows)[number][]>();
  for (const row of storeRows) {
    const list = storeRowsOf.get(row.store_id) ?? [];
    list.push(row);
    storeRowsOf.set(row.store_id, list);
  }
  for (const store of stores) {
    if (result.has(store.id)) continue;
    const snapshots = new Map<string, ElementSnapshot>();
    const origins = new Map(
      (store.database_id ? (databaseRowsOf.get(store.database_id) ?? []) : []).map((row) => [
        row.id,
        row,
      ]),
    );
    const overrides = new Map<string, (typeof storeRows)[number]>();
    for (const row of storeRowsOf.get(store.id) ?? []) {
      const origin = row.origin_id ? origins.get(row.origin_id) : undefined;
      if (origin) overrides.set(origin.id, row);
      snapshots.set(row.id, snapshotOf(row.id, row, origin ?? null));
    }
    for (const origin of origins.values()) {
      snapshots.set(origin.id, snapshotOf(origin.id, overrides.get(origin.id) ?? null, origin));
    }
    result.set(store.id, snapshots);
  }
  return result;
}

import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, storeElements, type TaskElementSnapshot } from '../../db/schema';
import { type DatabaseElementRow, effectiveStoreValues, type FieldValues } from './element-values';

/** What a task copies from an element, with whether the element is active for the store. */
export type ElementSnapshot = TaskElementSnapshot & { active: boolean };

function snapshotOf(id: string, own: FieldValues | null, origin: DatabaseElementRow | null) {
  const { values } = effectiveStoreValues(own, origin);
  return {
    id,
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
 */
export async function loadElementSnapshots(
  db: Pick<Database, 'select'>,
  stores: readonly { id: string; database_id: string | null }[],
): Promise<Map<string, Map<string, ElementSnapshot>>> {
  const result = new Map<string, Map<string, ElementSnapshot>>();
  if (stores.length === 0) return result;
  const storeIds = [...new Set(stores.map((store) => store.id))];
  const databaseIds = [
    ...new Set(stores.map((store) => store.database_id).filter((id): id is string => !!id)),
  ];
  const [databaseRows, storeRows] = await Promise.all([
    databaseIds.length
      ? db.select().from(databaseElements).where(inArray(databaseElements.database_id, databaseIds))
      : Promise.resolve([] as DatabaseElementRow[]),
    db.select().from(storeElements).where(inArray(storeElements.store_id, storeIds)),
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

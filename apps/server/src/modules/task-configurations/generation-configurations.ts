import { mergeStoreRows } from '@mise/shared/catalogue/rules';
import type { TaskConfigurationContent } from '@mise/shared/tasks/schemas';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databases,
  stores,
  storeTaskConfigurations,
  type TaskElementSnapshot,
  taskConfigurations,
  taskTypes,
} from '../../db/schema';
import { loadElementSnapshots } from '../elements/element-snapshots';
import {
  type DatabaseConfigurationRow,
  type Effective,
  effectiveStoreConfiguration,
  elementIdsOf,
  type StoreConfigurationRow,
} from './task-configuration-values';

/**
 * A store's effective, active task configuration as task generation needs it: the one
 * shape the task-configurations module hands to the tasks module.
 */
export type GenerationConfiguration = {
  /**
   * Stable across overrides: the database configuration id when the configuration comes from
   * the database (overridden or not), else the store configuration id. Part of the tasks'
   * generation key, so overriding a configuration never generates a day twice.
   */
  key: string;
  configuration_id: string | null;
  store_configuration_id: string | null;
  database_id: string | null;
  name: string;
  module: 'temperatures' | 'actions' | 'oils';
  type_name: string | null;
  type_color: string | null;
  recurrence: string;
  /** YYYY-MM-DD the recurrence counts from. */
  recurrence_anchor: string;
  starts: number[];
  durations: number[];
  requires_manager: boolean;
  notify_late: boolean;
  /** Effective values of the configuration's elements as the store sees them (active ones). */
  elements: TaskElementSnapshot[];
  actions: {
    name: string;
    requires_picture: boolean;
    attachments: { name: string; path: string }[];
  }[];
  /**
   * Set when the configuration must not generate (a type 2 warning instead): its module is
   * hidden on the store or its database, or none of its elements is active.
   */
  skip?: 'hidden-module' | 'no-active-element';
};

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  return groups;
}

/**
 * For each store, its effective active task configurations (spec 001 §3.6): the database
 * configurations of its database it has not overridden, its overrides and its own, sorted by
 * name. Elements are the store's effective values (active ones only, in the configuration's
 * order); the type, recurrence and anchor are the effective ones. Six queries whatever the
 * number of stores (stores, both configuration levels, both element levels, types). Every
 * store asked for has an entry (empty for an unknown store).
 */
export async function loadGenerationConfigurations(
  db: Database,
  storeIds: string[],
): Promise<Map<string, GenerationConfiguration[]>> {
  const ids = [...new Set(storeIds)];
  const result = new Map<string, GenerationConfiguration[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return result;
  const storeRows = await db
    .select({
      id: stores.id,
      database_id: stores.database_id,
      hidden_modules: stores.hidden_modules,
      database_hidden_modules: databases.hidden_modules,
    })
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(inArray(stores.id, ids));
  const databaseIds = [
    ...new Set(storeRows.map((store) => store.database_id).filter((id): id is string => !!id)),
  ];
  const [databaseRows, storeConfigurationRows] = await Promise.all([
    databaseIds.length
      ? db
          .select()
          .from(taskConfigurations)
          .where(inArray(taskConfigurations.database_id, databaseIds))
      : Promise.resolve([] as DatabaseConfigurationRow[]),
    db.select().from(storeTaskConfigurations).where(inArray(storeTaskConfigurations.store_id, ids)),
  ]);
  // Only the elements the configurations reference are read.
  const referenced = [
    ...new Set(
      [...databaseRows, ...storeConfigurationRows].flatMap((row) =>
        row.configuration ? elementIdsOf(row.configuration) : [],
      ),
    ),
  ];
  const typeIds = [
    ...new Set(
      [...databaseRows, ...storeConfigurationRows]
        .map((row) => row.type_id)
        .filter((id): id is string => !!id),
    ),
  ];
  const [typeRows, snapshots] = await Promise.all([
    typeIds.length
      ? db
          .select({ id: taskTypes.id, name: taskTypes.name, color: taskTypes.color })
          .from(taskTypes)
          .where(inArray(taskTypes.id, typeIds))
      : Promise.resolve([]),
    loadElementSnapshots(db, storeRows, referenced),
  ]);
  const typeById = new Map(typeRows.map((type) => [type.id, type]));
  const databaseRowsOf = groupBy(databaseRows, (row) => row.database_id);
  const storeRowsOf = groupBy(storeConfigurationRows, (row) => row.store_id);

  for (const store of storeRows) {
    const origins = store.database_id ? (databaseRowsOf.get(store.database_id) ?? []) : [];
    const originById = new Map(origins.map((row) => [row.id, row]));
    const elementsOfStore = snapshots.get(store.id) ?? new Map();
    const present = (
      effective: Effective,
      ids: { origin: DatabaseConfigurationRow | null; row: StoreConfigurationRow | null },
    ) => ({
      id: ids.row?.id ?? ids.origin?.id ?? '',
      name: effective.values.name,
      origin_id: ids.row && ids.origin ? ids.origin.id : null,
      effective,
      ...ids,
    });
    const databaseItems = origins.map((origin) =>
      present(effectiveStoreConfiguration(null, origin), { origin, row: null }),
    );
    const storeItems = (storeRowsOf.get(store.id) ?? []).map((row) => {
      const origin = row.origin_id ? (originById.get(row.origin_id) ?? null) : null;
      return present(effectiveStoreConfiguration(row, origin), { origin, row });
    });
    const hiddenModules = new Set([
      ...store.hidden_modules,
      ...(store.database_hidden_modules ?? []),
    ]);
    const configurations: GenerationConfiguration[] = [];
    for (const { row: item } of mergeStoreRows(databaseItems, storeItems)) {
      const { effective, origin, row } = item;
      const values = effective.values;
      if (!values.active) continue;
      const type = values.type_id ? typeById.get(values.type_id) : undefined;
      const seen = new Set<string>();
      const elements: TaskElementSnapshot[] = [];
      for (const elementId of elementIdsOf(values.configuration)) {
        const snapshot = elementsOfStore.get(elementId);
        if (!snapshot?.active) continue;
        // A store override and its origin are one element: one entry, under the origin's id.
        const id = snapshot.origin_id ?? snapshot.id;
        if (seen.has(id)) continue;
        seen.add(id);
        const {
          active: _active,
          origin_id: _origin,
          temperatures_module_active: _temperatures,
          oils_module_active: _oils,
          temperature_delivery_item: _delivery,
          ...element
        } = snapshot;
        elements.push({ ...element, id });
      }
      const content = values.configuration as TaskConfigurationContent;
      const skip = hiddenModules.has(effective.module)
        ? ('hidden-module' as const)
        : effective.module !== 'actions' && elements.length === 0
          ? ('no-active-element' as const)
          : undefined;
      configurations.push({
        key: origin?.id ?? row!.id,
        configuration_id: origin?.id ?? null,
        store_configuration_id: row?.id ?? null,
        database_id: origin?.database_id ?? null,
        name: values.name,
        module: effective.module,
        type_name: type?.name ?? null,
        type_color: type?.color ?? null,
        recurrence: values.recurrence,
        recurrence_anchor: effective.recurrence_anchor,
        starts: values.starts,
        durations: values.durations,
        requires_manager: values.requires_manager,
        notify_late: values.notify_late,
        elements,
        actions:
          'actions' in content
            ? content.actions.map((action) => ({
                name: action.name,
                requires_picture: action.requires_picture,
                attachments: action.attachments,
              }))
            : [],
        ...(skip ? { skip } : {}),
      });
    }
    result.set(store.id, configurations);
  }
  return result;
}

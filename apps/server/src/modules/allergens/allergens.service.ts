import { compareNames } from '@mise/shared/catalogue/rules';
import type { AllergenTable, ElementListItem } from '@mise/shared/catalogue/schemas';
import type { Database } from '../../db/client';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import {
  allergenFieldKeys,
  effectiveStoreItems,
  listDatabaseElements,
} from '../elements/elements.service';
import { findStoreInScope } from '../stores/stores.service';

/**
 * The allergens screen (spec 001 §2.8): active elements carrying at least one allergen,
 * grouped by element type (types by name, untyped last), elements by name.
 */
export function allergenGroups(title: string, items: ElementListItem[]): AllergenTable {
  const groups = new Map<string, AllergenTable['groups'][number]>();
  for (const item of items) {
    if (!item.active || item.allergens.length === 0) continue;
    const key = item.type_id ?? '';
    let group = groups.get(key);
    if (!group) {
      group = {
        type_id: item.type_id,
        type_name: item.type_id ? item.type_name : null,
        elements: [],
      };
      groups.set(key, group);
    }
    group.elements.push({ key: item.key, name: item.name, allergens: item.allergens });
  }
  const sorted = [...groups.values()].sort((left, right) => {
    if (left.type_id === null || right.type_id === null)
      return left.type_id === null ? (right.type_id === null ? 0 : 1) : -1;
    return (
      compareNames(left.type_name ?? '', right.type_name ?? '') ||
      (left.type_id < right.type_id ? -1 : 1)
    );
  });
  for (const group of sorted)
    group.elements.sort((left, right) => compareNames(left.name, right.name));
  return { title, groups: sorted };
}

export async function allergenTable(
  db: Database,
  scope: Scope,
  query: { databaseId?: string; storeId?: string },
): Promise<AllergenTable> {
  if (query.databaseId) {
    const database = await findDatabaseInScope(db, scope, query.databaseId);
    const items = await listDatabaseElements(
      db,
      scope,
      database.id,
      { includeInactive: false },
      allergenFieldKeys,
    );
    return allergenGroups(database.name, items);
  }
  const store = await findStoreInScope(db, scope, query.storeId!);
  // The table's fields only (name, type, active, allergens): the list's other columns unread.
  return allergenGroups(
    store.name,
    await effectiveStoreItems(db, store, { keys: allergenFieldKeys }),
  );
}

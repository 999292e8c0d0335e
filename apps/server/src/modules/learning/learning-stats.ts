import type { TargetInput } from '@mise/shared/communications/schemas';
import { and, asc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type communicationResults,
  employeeStores,
  employees,
  stores,
  storeTagLinks,
  type trainingResults,
} from '../../db/schema';
import { AppError } from '../../platform/errors';

/*
 * Who a communication or a training aims at, and its statistics' tables (spec 002 §2, issue 18):
 * the stores in reach with their tags, the active employees aimed at, the page of stores with
 * their completions and a store's employees with their result. What differs between the two is
 * passed in (their result table, the store condition).
 */

/** One kind of item's result table, and its column naming the item. */
export type ResultsOf =
  | { table: typeof communicationResults; itemColumn: typeof communicationResults.communication_id }
  | { table: typeof trainingResults; itemColumn: typeof trainingResults.training_id };

/** A target as it is saved: each store, tag and role once. */
export function distinctTarget(target: TargetInput): TargetInput {
  return {
    stores: [...new Set(target.stores)],
    store_tags: [...new Set(target.store_tags)],
    employee_roles: [...new Set(target.employee_roles)],
    store_tags_union: target.store_tags_union,
  };
}

/** A store's tag ids, in a query grouped by store with store_tag_links left-joined. */
export const storeTagIds = sql<
  string[]
>`coalesce(array_agg(${storeTagLinks.tag_id}) filter (where ${storeTagLinks.tag_id} is not null), '{}')`;

export type ReachStore = { id: string; name: string; address: string | null; tag_ids: string[] };

/** The stores matching `condition`, with their tags, by name (one query). */
export async function storesWithTags(
  db: Database,
  condition: SQL | undefined,
): Promise<ReachStore[]> {
  return db
    .select({
      id: stores.id,
      name: stores.name,
      address: stores.address,
      tag_ids: storeTagIds,
    })
    .from(stores)
    .leftJoin(storeTagLinks, eq(storeTagLinks.store_id, stores.id))
    .where(condition)
    .groupBy(stores.id)
    .orderBy(asc(sql`lower(${stores.name})`), asc(stores.id)) as Promise<ReachStore[]>;
}

/** Active employees of the given stores whose role is aimed at, counted per store and in all. */
export async function targetEmployeeCounts(
  db: Database,
  storeIds: string[],
  roles: readonly string[],
) {
  if (storeIds.length === 0) return { total: 0, byStore: new Map<string, number>() };
  const roleCondition = roles.length > 0 ? inArray(employees.role_id, [...roles]) : sql`true`;
  const rows = await db
    .select({
      store_id: employeeStores.store_id,
      count: sql<number>`count(*)::int`,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .where(
      and(inArray(employeeStores.store_id, storeIds), eq(employees.active, true), roleCondition),
    )
    .groupBy(employeeStores.store_id);
  const [distinct] = await db
    .select({ count: sql<number>`count(distinct ${employeeStores.employee_id})::int` })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .where(
      and(inArray(employeeStores.store_id, storeIds), eq(employees.active, true), roleCondition),
    );
  return {
    total: distinct?.count ?? 0,
    byStore: new Map(rows.map((row) => [row.store_id, row.count])),
  };
}

export type StaffLink = { employee_id: string; store_id: string; role_id: string | null };

/** The active employees of the given stores with their role, one row per store link. */
export async function activeStaffOf(db: Database, storeIds: string[]): Promise<StaffLink[]> {
  if (storeIds.length === 0) return [];
  return db
    .select({
      employee_id: employeeStores.employee_id,
      store_id: employeeStores.store_id,
      role_id: employees.role_id,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .where(and(inArray(employeeStores.store_id, storeIds), eq(employees.active, true)));
}

/** The employees (each once) working in one of the stores whose role is aimed at. */
export function countAimedStaff(
  staff: readonly StaffLink[],
  storeIds: ReadonlySet<string>,
  roles: readonly string[],
): number {
  const aimed = new Set<string>();
  for (const link of staff) {
    if (!storeIds.has(link.store_id)) continue;
    if (roles.length > 0 && (link.role_id === null || !roles.includes(link.role_id))) continue;
    aimed.add(link.employee_id);
  }
  return aimed.size;
}

/** Keyset cursor of the stores table: the last store's lower-cased name and id. */
function encodeCursor(store: ReachStore): string {
  return Buffer.from(JSON.stringify([store.name.toLowerCase(), store.id])).toString('base64url');
}
function decodeCursor(cursor: string | undefined): [string, string] | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {}
  throw new AppError('validation/invalid-input', 'The cursor is not valid.');
}

export type StoresPageQuery = { search?: string; cursor?: string; limit?: number };

/**
 * One page of a statistics table's stores: matching the search by name or address, after the
 * cursor, by name (the stores come ordered by lower(name), id).
 */
export function pageOfStores(
  stores: readonly ReachStore[],
  query: StoresPageQuery,
): { page: ReachStore[]; next_cursor: string | null } {
  const search = query.search?.trim().toLowerCase();
  const after = decodeCursor(query.cursor);
  const limit = query.limit ?? 50;
  const matching = stores.filter(
    (store) =>
      (!search ||
        store.name.toLowerCase().includes(search) ||
        (store.address ?? '').toLowerCase().includes(search)) &&
      (!after ||
        store.name.toLowerCase() > after[0] ||
        (store.name.toLowerCase() === after[0] && store.id > after[1])),
  );
  const page = matching.slice(0, limit);
  return {
    page,
    next_cursor: matching.length > limit && page.length > 0 ? encodeCursor(page.at(-1)!) : null,
  };
}

/**
 * The statistics' stores table: one page of the targeted stores, each with its completions of
 * the item ('views') and its active employees aimed at.
 */
export async function completionsByStore(
  db: Database,
  results: ResultsOf,
  item: { id: string; roles: readonly string[] },
  targeted: readonly ReachStore[],
  query: StoresPageQuery,
) {
  const { table, itemColumn } = results;
  const { page, next_cursor } = pageOfStores(targeted, query);
  const pageIds = page.map((store) => store.id);
  const done =
    pageIds.length === 0
      ? []
      : await db
          .select({ store_id: table.store_id, count: sql<number>`count(*)::int` })
          .from(table)
          .where(
            and(
              eq(itemColumn, item.id),
              isNotNull(table.completed_at),
              inArray(table.store_id, pageIds),
            ),
          )
          .groupBy(table.store_id);
  const doneByStore = new Map(done.map((entry) => [entry.store_id, entry.count]));
  const counts = await targetEmployeeCounts(db, pageIds, item.roles);
  return {
    items: page.map((store) => ({
      store_id: store.id,
      name: store.name,
      address: store.address,
      views: doneByStore.get(store.id) ?? 0,
      target_employees: counts.byStore.get(store.id) ?? 0,
    })),
    next_cursor,
  };
}

/**
 * The statistics' details of a store: every employee of it aimed at (active, or inactive with a
 * completion), with their result (completion date and time spent, or null for the spec's '?');
 * the completed first, then by name.
 */
export async function storeEmployeeResults(
  db: Database,
  results: ResultsOf,
  item: { id: string; roles: readonly string[] },
  store: { id: string; name: string },
) {
  const { table, itemColumn } = results;
  const rows = await db
    .select({
      employee_id: employees.id,
      name: employees.name,
      surname: employees.surname,
      completed_at: table.completed_at,
      time_spent: table.time_spent,
      skipped_count: table.skipped_count,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .leftJoin(table, and(eq(itemColumn, item.id), eq(table.employee_id, employees.id)))
    .where(
      and(
        eq(employeeStores.store_id, store.id),
        or(eq(employees.active, true), isNotNull(table.completed_at)),
        item.roles.length > 0 ? inArray(employees.role_id, [...item.roles]) : undefined,
      ),
    )
    .orderBy(
      asc(sql`${table.completed_at} is null`),
      asc(sql`lower(${employees.name})`),
      asc(sql`lower(${employees.surname})`),
      asc(employees.id),
    );
  return {
    items: rows.map((entry) => ({
      employee_id: entry.employee_id,
      employee_name: `${entry.name} ${entry.surname}`.trim(),
      store_name: store.name,
      completed_at: entry.completed_at?.toISOString() ?? null,
      time_spent: entry.completed_at ? (entry.time_spent ?? 0) : null,
      skipped_count: entry.skipped_count ?? 0,
    })),
  };
}

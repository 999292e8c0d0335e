import { type HistoryFilter, historyTabs } from '@mise/shared/history/constants';
import {
  historyIncludes,
  resultAnomalies,
  taskAnomalies,
  validateHistoryRange,
} from '@mise/shared/history/rules';
import type {
  HistoryStore,
  HistoryTask,
  TaskDetail,
  TaskRevision,
} from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { dayInZone, taskEnd } from '@mise/shared/tasks/rules';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { databases, stores, taskResultRevisions, tasks } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { preparedStatement } from '../../platform/prepared';
import {
  type Scope,
  storeFilter,
  storeScopeCondition,
  storeScopeValues,
} from '../../platform/scope';
import { mergeHiddenModules, storeSearchCondition } from '../stores/stores.service';
import { presentTask, type TaskRow } from '../tasks/present-task';

/*
 * Task history (spec 002 §2, §4, §5): what an inspector asks for. A store's history is read
 * by whoever sees the store, when the store is active and licensed (spec 000 §4), and — for a
 * manager — when its database allows store access or the store is manager-owned. Every read
 * is one query for the tasks of the range (with the postponed copy joined), whatever their
 * number; the shared rules decide status, anomalies and the filter.
 */

/** Stores offered by the history search: at most this many, by name. */
export const maxHistoryStores = 50;

/** Managers read history only where the database gives store access or the store is theirs. */
function managerAccess(scope: Scope): SQL | undefined {
  if (scope.role !== 'manager') return undefined;
  return or(eq(stores.manager_owned, true), eq(databases.store_access, true));
}

const historyStoreColumns = {
  id: stores.id,
  name: stores.name,
  address: stores.address,
  city: stores.city,
  database_name: databases.name,
  timezone_name: stores.timezone_name,
  hidden: stores.hidden_modules,
  databaseHidden: databases.hidden_modules,
  active: stores.active,
  licensed: stores.mise_licence,
  manager_owned: stores.manager_owned,
  store_access: databases.store_access,
};

type HistoryStoreRow = {
  id: string;
  name: string;
  address: string;
  city: string;
  database_name: string | null;
  timezone_name: string;
  hidden: string[];
  databaseHidden: string[] | null;
};

function presentHistoryStore(row: HistoryStoreRow): HistoryStore {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    city: row.city,
    database_name: row.database_name,
    timezone_name: row.timezone_name,
    hidden_modules: mergeHiddenModules(row.hidden, row.databaseHidden),
  };
}

/** GET /api/history/stores: active, licensed stores of the scope (managers: with access). */
export async function listHistoryStores(
  db: Database,
  scope: Scope,
  search: string | undefined,
): Promise<HistoryStore[]> {
  const conditions: (SQL | undefined)[] = [
    storeFilter(scope),
    eq(stores.active, true),
    eq(stores.mise_licence, true),
    managerAccess(scope),
  ];
  if (search) conditions.push(storeSearchCondition(search));
  const rows = await db
    .select(historyStoreColumns)
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(and(...conditions))
    .orderBy(asc(stores.name), asc(stores.id))
    .limit(maxHistoryStores);
  return rows.map(presentHistoryStore);
}

/**
 * A store whose history the caller may read: outside the scope, inactive or unlicensed → 404;
 * a manager without store access on a store that is not manager-owned → 403.
 */
/** Every history page reads its store first: a prepared statement, whatever the scope. */
const historyStoreById = preparedStatement((db) =>
  db
    .select(historyStoreColumns)
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(and(eq(stores.id, sql.placeholder('storeId')), storeScopeCondition()))
    .limit(1)
    .prepare('mise_history_store'),
);

export async function findHistoryStore(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<HistoryStore> {
  const [row] = await historyStoreById(db).execute({ storeId, ...storeScopeValues(scope) });
  if (!row?.active || !row.licensed) throw notFound();
  if (scope.role === 'manager' && !row.manager_owned && !row.store_access) throw forbidden();
  return presentHistoryStore(row);
}

/** Range check of every history read and export (spec 002 §5). */
export function checkRange(start: string, end: string): void {
  const problem = validateHistoryRange(start, end);
  if (problem) throw new AppError(problem);
}

/** The modules a store's history shows: the tabs, less those hidden on the store or database. */
export function visibleModules(store: HistoryStore): TaskModule[] {
  const hidden = new Set<string>(store.hidden_modules);
  return historyTabs.filter((module) => !hidden.has(module));
}

const postponedCopy = alias(tasks, 'postponed_copy');
const taskEndSql = sql`${tasks.start} + ${tasks.duration} * interval '1 minute'`;

/**
 * Which rows the filter can show, in SQL (a pre-filter the index serves; the shared rule
 * `historyIncludes` then decides exactly): on-time tasks never; completed = a completion;
 * anomaly = a result with an anomaly, done late, or not done once its end has passed.
 */
export function filterCondition(filter: HistoryFilter, now: Date): SQL | undefined {
  const nowValue = sql`${now.toISOString()}::timestamptz`;
  const completed = isNotNull(tasks.completed_timestamp);
  const dueUndone = and(
    isNull(tasks.completed_timestamp),
    isNull(tasks.postponed_task),
    sql`${taskEndSql} < ${nowValue}`,
  );
  switch (filter) {
    case 'completed':
      return completed;
    case 'anomaly':
      return or(
        and(
          completed,
          or(eq(tasks.result_anomaly, true), sql`${tasks.completed_timestamp} > ${taskEndSql}`),
        ),
        dueUndone,
      );
    default:
      return or(completed, isNotNull(tasks.postponed_task), dueUndone);
  }
}

type HistoryRow = { task: TaskRow; copyStart: Date | null; copyDuration: number | null };

/** A task row as history shows it, with its anomalies and, when postponed, its copy's window. */
export function presentHistoryTask(
  row: HistoryRow,
  now: Date,
  zone: string,
  today: string = dayInZone(now, zone),
): HistoryTask {
  const task = presentTask(row.task, now, zone, today);
  const reasons = row.task.result
    ? resultAnomalies(row.task.module, row.task.elements, row.task.result)
    : [];
  const anomalies = taskAnomalies(task.status, reasons);
  return {
    ...task,
    anomalies,
    is_anomaly: anomalies.length > 0,
    postponed_to:
      row.copyStart && row.copyDuration !== null
        ? {
            start: row.copyStart.toISOString(),
            end: taskEnd(row.copyStart, row.copyDuration).toISOString(),
          }
        : null,
  };
}

/** The cursor of a page: the last task's start and id, opaque to the client. */
export function encodeCursor(task: { start: string; id: string }): string {
  return Buffer.from(`${task.start}|${task.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { start: Date; id: string } {
  const [start, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(start ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(at.getTime()))
    throw new AppError('validation/invalid-input', 'Unknown cursor.');
  return { start: at, id };
}

/**
 * Every word must appear, ignoring case and accents ('congelateur' finds 'Congélateur'), in
 * the task's name, its employee, the names of its elements and actions, or the comments of
 * its result. The searched text is `mise_task_search_text` (migration 0013: folded by
 * `mise_search_fold`, lower case without accents); each word is folded by the same function.
 * Read from the rows the range index already selected (see historyPageQuery).
 */
export function searchCondition(search: string | undefined): SQL | undefined {
  const words = (search ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const text = sql`mise_task_search_text(${tasks.name}, ${tasks.employee}, ${tasks.elements}, ${tasks.actions}, ${tasks.result})`;
  return and(
    ...words.map((word) => {
      return sql`${text} like mise_search_fold(${likePattern(word)}::text)`;
    }),
  );
}

/**
 * The tasks of a store over a range of its calendar days, for the given modules and filter,
 * newest first (start, then id): one query. With `page`, at most `limit` tasks after the
 * cursor and the next cursor. Every history read and export goes through it.
 */
export async function findHistoryTasks(
  db: Database,
  store: HistoryStore,
  options: {
    start: string;
    end: string;
    modules: readonly TaskModule[];
    filter: HistoryFilter | null;
    search?: string;
    page?: { limit: number; cursor?: string };
    now: Date;
  },
): Promise<{ items: HistoryTask[]; nextCursor: string | null }> {
  if (options.modules.length === 0) return { items: [], nextCursor: null };
  const after = options.page?.cursor ? decodeCursor(options.page.cursor) : null;
  const query = db
    .select({
      task: tasks,
      copyStart: postponedCopy.start,
      copyDuration: postponedCopy.duration,
    })
    .from(tasks)
    .leftJoin(postponedCopy, eq(postponedCopy.id, tasks.postponed_task))
    .where(
      and(
        eq(tasks.store_id, store.id),
        options.modules.length === 1
          ? eq(tasks.module, options.modules[0]!)
          : inArray(tasks.module, [...options.modules]),
        gte(tasks.day, options.start),
        lte(tasks.day, options.end),
        options.filter ? filterCondition(options.filter, options.now) : undefined,
        searchCondition(options.search),
        after
          ? sql`(${tasks.start}, ${tasks.id}) < (${after.start.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(tasks.start), desc(tasks.id));
  const rows = options.page ? await query.limit(options.page.limit + 1) : await query;
  const hasMore = options.page ? rows.length > options.page.limit : false;
  const pageRows = hasMore ? rows.slice(0, options.page!.limit) : rows;
  const today = dayInZone(options.now, store.timezone_name);
  const presented = pageRows.map((row) =>
    presentHistoryTask(row, options.now, store.timezone_name, today),
  );
  const last = presented[presented.length - 1];
  const filter = options.filter;
  return {
    // The SQL filter is the shared rule's; the rule still decides.
    items: filter
      ? presented.filter((item) => historyIncludes(item.status, item.is_anomaly, filter))
      : presented,
    nextCursor: hasMore && last ? encodeCursor(last) : null,
  };
}

/** The query of GET /api/stores/:storeId/history, defaults applied. */
export type HistorySearch = {
  start: string;
  end: string;
  module: TaskModule;
  filter: HistoryFilter;
  search?: string;
  limit: number;
  cursor?: string;
};

/**
 * One module's tasks of the range, filtered, a page at a time: the answer of GET
 * /api/stores/:storeId/history as objects. The route sends `searchHistoryJson`'s bytes
 * (history-page.ts), tested to be this answer's JSON; this one is the reference.
 */
export async function searchHistory(
  db: Database,
  scope: Scope,
  storeId: string,
  query: HistorySearch,
  now: Date = new Date(),
) {
  checkRange(query.start, query.end);
  const store = await findHistoryStore(db, scope, storeId);
  const page = visibleModules(store).includes(query.module)
    ? await findHistoryTasks(db, store, {
        start: query.start,
        end: query.end,
        modules: [query.module],
        filter: query.filter,
        search: query.search,
        page: { limit: query.limit, cursor: query.cursor },
        now,
      })
    : { items: [], nextCursor: null };
  return {
    store,
    start: query.start,
    end: query.end,
    module: query.module,
    filter: query.filter,
    items: page.items,
    next_cursor: page.nextCursor,
  };
}

/** The export's content (PDF, CSV): every visible module's tasks of the range, by module. */
export async function historyExport(
  db: Database,
  scope: Scope,
  body: { storeId: string; start: string; end: string; filter: HistoryFilter },
  now: Date = new Date(),
) {
  checkRange(body.start, body.end);
  const store = await findHistoryStore(db, scope, body.storeId);
  const modules = visibleModules(store);
  const { items } = await findHistoryTasks(db, store, {
    start: body.start,
    end: body.end,
    modules,
    filter: body.filter,
    now,
  });
  return {
    store,
    sections: modules.map((module) => ({
      module,
      items: items.filter((item) => item.module === module),
    })),
  };
}

type RevisionRow = typeof taskResultRevisions.$inferSelect;

function presentRevision(row: RevisionRow): TaskRevision {
  return {
    revision: row.revision,
    kind: row.kind,
    author: row.employee ?? null,
    created_at: row.created_at.toISOString(),
    reason: row.reason,
    result: row.result ?? null,
  };
}

/** Revisions of the given tasks (one query), by task id, oldest first. */
export async function revisionsOf(
  db: Database,
  storeId: string,
  taskIds: readonly string[],
): Promise<Map<string, TaskRevision[]>> {
  const byTask = new Map<string, TaskRevision[]>();
  if (taskIds.length === 0) return byTask;
  const rows = await db
    .select()
    .from(taskResultRevisions)
    .where(
      and(
        eq(taskResultRevisions.store_id, storeId),
        inArray(taskResultRevisions.task_id, [...taskIds]),
      ),
    )
    .orderBy(asc(taskResultRevisions.task_id), asc(taskResultRevisions.revision));
  for (const row of rows) {
    const list = byTask.get(row.task_id) ?? [];
    list.push(presentRevision(row));
    byTask.set(row.task_id, list);
  }
  return byTask;
}

/** GET /api/tasks/:id: the task with its results and every revision (spec 002 §2). */
export async function findTaskDetail(
  db: Database,
  scope: Scope,
  taskId: string,
  now: Date = new Date(),
): Promise<TaskDetail> {
  const [row] = await db
    .select({
      task: tasks,
      copyStart: postponedCopy.start,
      copyDuration: postponedCopy.duration,
    })
    .from(tasks)
    .leftJoin(postponedCopy, eq(postponedCopy.id, tasks.postponed_task))
    .where(eq(tasks.id, taskId))
    .limit(1);
  if (!row) throw notFound();
  const store = await findHistoryStore(db, scope, row.task.store_id);
  const revisions = await revisionsOf(db, store.id, [row.task.id]);
  const task = presentHistoryTask(row, now, store.timezone_name);
  return {
    ...task,
    store_name: store.name,
    timezone_name: store.timezone_name,
    expected_at: taskEnd(row.task.start, row.task.duration).toISOString(),
    revisions: revisions.get(row.task.id) ?? [],
  };
}

/**
 * POST /api/archive/tasks: every task of the range (every module the store shows, every
 * status) with its revisions, oldest first — two queries whatever the number of tasks.
 */
export async function archiveTasks(
  db: Database,
  scope: Scope,
  body: { storeId: string; start: string; end: string },
  now: Date = new Date(),
) {
  checkRange(body.start, body.end);
  const store = await findHistoryStore(db, scope, body.storeId);
  const items = (
    await findHistoryTasks(db, store, {
      start: body.start,
      end: body.end,
      modules: visibleModules(store),
      filter: null,
      now,
    })
  ).items.reverse();
  const revisions = await revisionsOf(
    db,
    store.id,
    items.map((item) => item.id),
  );
  return {
    store: { id: store.id, name: store.name, timezone_name: store.timezone_name },
    start: body.start,
    end: body.end,
    generated_at: now.toISOString(),
    items: items.map((item) => ({
      ...item,
      expected_at: taskEnd(new Date(item.start), item.duration).toISOString(),
      revisions: revisions.get(item.id) ?? [],
    })),
  };
}

/**
 * Rows completed before `result_anomaly` existed get it from the shared rule, a batch at a
 * time (run at start; a no-op once done).
 */
export async function backfillResultAnomalies(db: Database, batchSize = 500): Promise<number> {
  let updated = 0;
  for (;;) {
    const rows = await db
      .select({
        id: tasks.id,
        module: tasks.module,
        elements: tasks.elements,
        result: tasks.result,
      })
      .from(tasks)
      .where(and(isNotNull(tasks.result), isNull(tasks.result_anomaly)))
      .limit(batchSize);
    if (rows.length === 0) return updated;
    const flagged = rows.filter(
      (row) => resultAnomalies(row.module, row.elements, row.result).length > 0,
    );
    const flaggedIds = new Set(flagged.map((row) => row.id));
    const clean = rows.filter((row) => !flaggedIds.has(row.id));
    if (flagged.length)
      await db
        .update(tasks)
        .set({ result_anomaly: true })
        .where(inArray(tasks.id, [...flaggedIds]));
    if (clean.length)
      await db
        .update(tasks)
        .set({ result_anomaly: false })
        .where(
          inArray(
            tasks.id,
            clean.map((row) => row.id),
          ),
        );
    updated += rows.length;
  }
}

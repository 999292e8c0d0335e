import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import {
  communicationPeriod,
  communicationState,
  completionPercentage,
  invalidQuizQuestion,
  isQuizPassed,
} from '@mise/shared/communications/rules';
import type {
  Communication,
  CommunicationAttachment,
  CommunicationBody,
  CommunicationStats,
  CommunicationSummary,
  DeviceCommunication,
  DeviceCommunicationResultBody,
  TargetInput,
} from '@mise/shared/communications/schemas';
import { employeeTargeted, storeTargeted, targetKind } from '@mise/shared/communications/targeting';
import { addDays, dayInZone } from '@mise/shared/tasks/rules';
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  communicationResultSteps,
  communicationResults,
  communications,
  databases,
  employeeRoles,
  employeeStores,
  employees,
  stores,
  storeTagLinks,
  storeTags,
} from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { type Scope, storeFilter } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { defaultAnchorZone } from '../task-configurations/task-configurations.service';

/*
 * Communications (spec 002 §2–§8, issue 18): the list, the editor's saves, the statistics and
 * the home panel for the back-office; the employees' reading on the tablet. Who receives what is
 * decided by the shared targeting function (packages/shared/src/communications/targeting.ts).
 */

type CommunicationRow = typeof communications.$inferSelect;

/** Spec 000 navigation and 002 §6: communications are for admins, managers and customers. */
export function canReadCommunications(scope: Scope): boolean {
  return scope.role === 'admin' || scope.role === 'manager' || scope.role === 'customer';
}
/** Spec 002 §6: customers cannot create or edit, only view the statistics. */
export function canEditCommunications(scope: Scope): boolean {
  return scope.role === 'admin' || scope.role === 'manager';
}

/** The storage folder of a database's communication attachments. */
export const attachmentFolder = (databaseId: string) => `databases/${databaseId}/communications/`;

async function readableDatabase(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canReadCommunications(scope)) throw forbidden();
  return database;
}

/** The zone a database's days are read in: its first store's, Europe/Paris without stores. */
export async function databaseZone(db: Database, databaseId: string): Promise<string> {
  const [first] = await db
    .select({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.database_id, databaseId))
    .orderBy(asc(stores.created_at), asc(stores.id))
    .limit(1);
  const zone = first?.zone || defaultAnchorZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return defaultAnchorZone;
  }
}

function attachmentOf(row: CommunicationRow): CommunicationAttachment | null {
  if (!row.attachment_path || !row.attachment_name) return null;
  const known = row.attachment_content_type
    ? attachmentContentTypes[row.attachment_content_type]
    : undefined;
  return {
    name: row.attachment_name,
    path: row.attachment_path,
    type: known?.type ?? 'file',
    url: `/api/files/${row.attachment_path.split('/').map(encodeURIComponent).join('/')}`,
  };
}

function presentSummary(row: CommunicationRow, now: Date): CommunicationSummary {
  return {
    id: row.id,
    database_id: row.database_id,
    name: row.name,
    active: row.active,
    start: row.start_at.toISOString(),
    end: row.end_at.toISOString(),
    start_day: row.start_day,
    end_day: row.end_day,
    time_zone: row.time_zone,
    state: communicationState({ start: row.start_at, end: row.end_at }, now),
    attachment: attachmentOf(row),
    question_count: row.quiz.questions.length,
    target_kind: targetKind(row.target),
    created_by_name: row.created_by_name,
    updated_at: row.updated_at.toISOString(),
  };
}

function presentCommunication(row: CommunicationRow, now: Date): Communication {
  return { ...presentSummary(row, now), quiz: row.quiz, target: row.target, version: row.version };
}

/** GET /api/databases/:databaseId/communications: newest first, then by name. */
export async function listCommunications(
  db: Database,
  scope: Scope,
  databaseId: string,
  query: { search?: string; include_inactive?: 'true' | 'false' },
  now: Date,
) {
  const database = await readableDatabase(db, scope, databaseId);
  const search = query.search?.trim();
  const rows = await db
    .select()
    .from(communications)
    .where(
      and(
        eq(communications.database_id, database.id),
        query.include_inactive === 'true' ? undefined : eq(communications.active, true),
        search ? ilike(communications.name, likePattern(search)) : undefined,
      ),
    )
    .orderBy(desc(communications.start_at), asc(sql`lower(${communications.name})`));
  return {
    items: rows.map((row) => presentSummary(row, now)),
    can_edit: canEditCommunications(scope),
  };
}

/** A communication the caller may read (its database in scope), or 404. */
async function findReadable(db: Database, scope: Scope, id: string) {
  const [row] = await db
    .select({ communication: communications })
    .from(communications)
    .innerJoin(databases, eq(databases.id, communications.database_id))
    .where(eq(communications.id, id))
    .limit(1);
  if (!row) throw notFound();
  await readableDatabase(db, scope, row.communication.database_id);
  return row.communication;
}

export async function getCommunication(db: Database, scope: Scope, id: string, now: Date) {
  const row = await findReadable(db, scope, id);
  return { communication: presentCommunication(row, now), can_edit: canEditCommunications(scope) };
}

function uniqueIds(ids: readonly string[]): boolean {
  return new Set(ids).size === ids.length;
}

/** Spec 002 §5 and the limits of docs/decisions.md; answers the columns to write. */
async function checkedColumns(
  db: Database,
  storage: Storage,
  databaseId: string,
  body: CommunicationBody,
) {
  const name = body.name.trim();
  if (!name) throw new AppError('communication/name-required');
  if (body.end_day < body.start_day) throw new AppError('communication/dates-invalid');
  if (!body.attachment) throw new AppError('communication/attachment-required');
  const path = body.attachment.path;
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  const contentType = Object.entries(attachmentContentTypes).find(
    ([, entry]) => entry.extension === extension,
  )?.[0];
  if (
    !path.startsWith(attachmentFolder(databaseId)) ||
    path.includes('..') ||
    !contentType ||
    !(await storage.stat(path))
  ) {
    throw new AppError('communication/attachment-invalid');
  }
  const questions = body.quiz.questions;
  if (
    !uniqueIds(questions.map((question) => question.id)) ||
    questions.some((question) => !uniqueIds(question.answers.map((answer) => answer.id)))
  ) {
    throw new AppError('validation/invalid-input', 'Quiz question and answer ids must be unique.');
  }
  if (invalidQuizQuestion(questions)) throw new AppError('communication.no_valid_answer');
  await assertTargetInDatabase(db, databaseId, body.target);
  const zone = await databaseZone(db, databaseId);
  const period = communicationPeriod(body, zone);
  return {
    name,
    active: body.active,
    start_day: body.start_day,
    end_day: body.end_day,
    time_zone: zone,
    start_at: period.start,
    end_at: period.end,
    attachment_name: body.attachment.name,
    attachment_path: path,
    attachment_content_type: contentType,
    quiz: body.quiz,
    target: {
      stores: [...new Set(body.target.stores)],
      store_tags: [...new Set(body.target.store_tags)],
      employee_roles: [...new Set(body.target.employee_roles)],
      store_tags_union: body.target.store_tags_union,
    },
  };
}

/** Every targeted store, tag and role belongs to the communication's database. */
async function assertTargetInDatabase(db: Database, databaseId: string, target: TargetInput) {
  const count = async (
    table: typeof stores | typeof storeTags | typeof employeeRoles,
    ids: readonly string[],
  ) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return true;
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(table)
      .where(and(inArray(table.id, unique), eq(table.database_id, databaseId)));
    return row?.count === unique.length;
  };
  const valid =
    (await count(stores, target.stores)) &&
    (await count(storeTags, target.store_tags)) &&
    (await count(employeeRoles, target.employee_roles));
  if (!valid) throw new AppError('communication/target-invalid');
}

export async function createCommunication(
  deps: { db: Database; storage: Storage },
  scope: Scope,
  author: { id: string; name: string },
  databaseId: string,
  body: CommunicationBody,
  now: Date,
) {
  const database = await readableDatabase(deps.db, scope, databaseId);
  if (!canEditCommunications(scope)) throw forbidden();
  const columns = await checkedColumns(deps.db, deps.storage, database.id, body);
  const [row] = await deps.db
    .insert(communications)
    .values({
      ...columns,
      database_id: database.id,
      created_by: author.id,
      created_by_name: author.name,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return { communication: presentCommunication(row!, now), can_edit: true };
}

export async function saveCommunication(
  deps: { db: Database; storage: Storage },
  scope: Scope,
  id: string,
  body: CommunicationBody & { version: number },
  now: Date,
) {
  const current = await findReadable(deps.db, scope, id);
  if (!canEditCommunications(scope)) throw forbidden();
  // A stale screen is told so first (its other mistakes may be someone else's changes).
  if (current.version !== body.version) throw new AppError('conflict/stale-version');
  const columns = await checkedColumns(deps.db, deps.storage, current.database_id, body);
  const [row] = await deps.db
    .update(communications)
    .set({ ...columns, version: sql`${communications.version} + 1`, updated_at: now })
    .where(and(eq(communications.id, id), eq(communications.version, body.version)))
    .returning();
  if (!row) throw new AppError('conflict/stale-version');
  return { communication: presentCommunication(row, now), can_edit: true };
}

/* ---------- Who should see it ---------- */

/** A store's tag ids, in a query grouped by store with store_tag_links left-joined. */
export const storeTagIds = sql<
  string[]
>`coalesce(array_agg(${storeTagLinks.tag_id}) filter (where ${storeTagLinks.tag_id} is not null), '{}')`;

export type ReachStore = { id: string; name: string; address: string | null; tag_ids: string[] };

/** The database's stores the caller may see, with their tags (one query). */
async function storesInReach(db: Database, scope: Scope, databaseId: string) {
  return db
    .select({
      id: stores.id,
      name: stores.name,
      address: stores.address,
      tag_ids: storeTagIds,
    })
    .from(stores)
    .leftJoin(storeTagLinks, eq(storeTagLinks.store_id, stores.id))
    .where(and(eq(stores.database_id, databaseId), storeFilter(scope)))
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

/* ---------- Statistics ---------- */

async function readableForStats(db: Database, scope: Scope, id: string) {
  const row = await findReadable(db, scope, id);
  const reach = await storesInReach(db, scope, row.database_id);
  const targeted = reach.filter((store) => storeTargeted(row.target, store));
  return { row, reach, targeted };
}

/** GET /api/communications/:id/stats (spec 002 §2 Communication statistics, Overview). */
export async function communicationStats(
  db: Database,
  scope: Scope,
  id: string,
  now: Date,
): Promise<CommunicationStats> {
  const { row, reach, targeted } = await readableForStats(db, scope, id);
  const reachIds = reach.map((store) => store.id);
  const zone = row.time_zone;
  const today = dayInZone(now, zone);
  const localDay = sql<string>`to_char(${communicationResults.completed_at} at time zone ${zone}, 'YYYY-MM-DD')`;
  const inReach =
    reachIds.length > 0 ? inArray(communicationResults.store_id, reachIds) : sql`false`;
  const completed = and(
    eq(communicationResults.communication_id, row.id),
    isNotNull(communicationResults.completed_at),
    inReach,
  );
  const [overview] = await db
    .select({
      total: sql<number>`count(*)::int`,
      today: sql<number>`(count(*) filter (where ${localDay} = ${today}))::int`,
      median: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${communicationResults.time_spent})`,
    })
    .from(communicationResults)
    .where(completed);
  const lastDay = today < row.end_day ? today : row.end_day;
  const days = await db
    .select({ day: localDay, views: sql<number>`count(*)::int` })
    .from(communicationResults)
    .where(completed)
    // By position: the zone is a parameter, so the expression would not match itself.
    .groupBy(sql`1`);
  const viewsByDay = new Map(days.map((entry) => [entry.day, entry.views]));
  const perDay: { day: string; views: number }[] = [];
  for (let day = row.start_day; day <= lastDay && perDay.length < 1000; day = addDays(day, 1)) {
    perDay.push({ day, views: viewsByDay.get(day) ?? 0 });
  }
  const counts = await targetEmployeeCounts(
    db,
    targeted.map((store) => store.id),
    row.target.employee_roles,
  );
  const total = overview?.total ?? 0;
  return {
    communication: presentSummary(row, now),
    total_views: total,
    views_today: overview?.today ?? 0,
    median_time_spent:
      overview?.median === null || overview?.median === undefined ? null : Number(overview.median),
    target_employees: counts.total,
    percentage: completionPercentage(total, counts.total),
    per_day: perDay,
  };
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

/**
 * One page of a statistics table's stores: matching the search by name or address, after the
 * cursor, by name (the stores come ordered by lower(name), id).
 */
export function pageOfStores(
  stores: readonly ReachStore[],
  query: { search?: string; cursor?: string; limit?: number },
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

/** GET /api/communications/:id/stats/stores: the targeted stores in reach, by name, paged. */
export async function communicationStatsStores(
  db: Database,
  scope: Scope,
  id: string,
  query: { search?: string; cursor?: string; limit?: number },
) {
  const { row, targeted } = await readableForStats(db, scope, id);
  const { page, next_cursor } = pageOfStores(targeted, query);
  const pageIds = page.map((store) => store.id);
  const views =
    pageIds.length === 0
      ? []
      : await db
          .select({ store_id: communicationResults.store_id, count: sql<number>`count(*)::int` })
          .from(communicationResults)
          .where(
            and(
              eq(communicationResults.communication_id, row.id),
              isNotNull(communicationResults.completed_at),
              inArray(communicationResults.store_id, pageIds),
            ),
          )
          .groupBy(communicationResults.store_id);
  const viewsByStore = new Map(views.map((entry) => [entry.store_id, entry.count]));
  const counts = await targetEmployeeCounts(db, pageIds, row.target.employee_roles);
  return {
    items: page.map((store) => ({
      store_id: store.id,
      name: store.name,
      address: store.address,
      views: viewsByStore.get(store.id) ?? 0,
      target_employees: counts.byStore.get(store.id) ?? 0,
    })),
    next_cursor,
  };
}

/**
 * GET /api/communications/:id/stats/stores/:storeId: every employee of the store who should
 * see it, with their result (completion date and time spent, or null for the spec's '?').
 */
export async function communicationStatsStore(
  db: Database,
  scope: Scope,
  id: string,
  storeId: string,
) {
  const { row, targeted } = await readableForStats(db, scope, id);
  const store = targeted.find((candidate) => candidate.id === storeId);
  if (!store) throw notFound();
  const roles = row.target.employee_roles;
  const rows = await db
    .select({
      employee_id: employees.id,
      name: employees.name,
      surname: employees.surname,
      completed_at: communicationResults.completed_at,
      time_spent: communicationResults.time_spent,
      skipped_count: communicationResults.skipped_count,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .leftJoin(
      communicationResults,
      and(
        eq(communicationResults.communication_id, row.id),
        eq(communicationResults.employee_id, employees.id),
      ),
    )
    .where(
      and(
        eq(employeeStores.store_id, store.id),
        or(eq(employees.active, true), isNotNull(communicationResults.completed_at)),
        roles.length > 0 ? inArray(employees.role_id, [...roles]) : undefined,
      ),
    )
    .orderBy(
      asc(sql`${communicationResults.completed_at} is null`),
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

/** GET /api/databases/:databaseId/communications/home: running and active, with the share. */
export async function homeCommunications(
  db: Database,
  scope: Scope,
  databaseId: string,
  query: { store_id?: string },
  now: Date,
) {
  const database = await readableDatabase(db, scope, databaseId);
  const rows = await db
    .select()
    .from(communications)
    .where(
      and(
        eq(communications.database_id, database.id),
        eq(communications.active, true),
        lt(communications.start_at, now),
        gt(communications.end_at, now),
      ),
    )
    .orderBy(desc(communications.start_at), asc(communications.id))
    .limit(50);
  if (rows.length === 0) return { items: [] };
  let reach = await storesInReach(db, scope, database.id);
  if (query.store_id) reach = reach.filter((store) => store.id === query.store_id);
  const reachIds = reach.map((store) => store.id);
  const done =
    reachIds.length === 0
      ? []
      : await db
          .select({
            communication_id: communicationResults.communication_id,
            count: sql<number>`count(*)::int`,
          })
          .from(communicationResults)
          .where(
            and(
              inArray(
                communicationResults.communication_id,
                rows.map((row) => row.id),
              ),
              isNotNull(communicationResults.completed_at),
              inArray(communicationResults.store_id, reachIds),
            ),
          )
          .groupBy(communicationResults.communication_id);
  const doneBy = new Map(done.map((entry) => [entry.communication_id, entry.count]));
  // Every item counted from one read of the staff (no query per item).
  const staff = await activeStaffOf(db, reachIds);
  const items = [];
  for (const row of rows) {
    const targeted = new Set(
      reach.filter((store) => storeTargeted(row.target, store)).map((store) => store.id),
    );
    if (targeted.size === 0) continue;
    items.push({
      id: row.id,
      name: row.name,
      start: row.start_at.toISOString(),
      end: row.end_at.toISOString(),
      start_day: row.start_day,
      end_day: row.end_day,
      percentage: completionPercentage(
        doneBy.get(row.id) ?? 0,
        countAimedStaff(staff, targeted, row.target.employee_roles),
      ),
    });
  }
  return { items };
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

/* ---------- The tablet ---------- */

export type CommunicationReader = {
  storeId: string;
  deviceId: string;
  employee: { id: string };
};

/** The store of the tablet with its database and tags, and the employee's role. */
async function readerContext(db: Database, reader: CommunicationReader) {
  const [store] = await db
    .select({
      id: stores.id,
      database_id: stores.database_id,
      tag_ids: storeTagIds,
    })
    .from(stores)
    .leftJoin(storeTagLinks, eq(storeTagLinks.store_id, stores.id))
    .where(eq(stores.id, reader.storeId))
    .groupBy(stores.id);
  if (!store?.database_id) throw notFound();
  const [employee] = await db
    .select({ role_id: employees.role_id })
    .from(employees)
    .where(eq(employees.id, reader.employee.id));
  return { store, roleId: employee?.role_id ?? null };
}

type ResultRow = typeof communicationResults.$inferSelect;

function presentForDevice(row: CommunicationRow, result: ResultRow | null): DeviceCommunication {
  return {
    id: row.id,
    name: row.name,
    start: row.start_at.toISOString(),
    end: row.end_at.toISOString(),
    attachment: attachmentOf(row),
    quiz: row.quiz,
    unread: result === null,
    completed_at: result?.completed_at?.toISOString() ?? null,
    skipped_count: result?.skipped_count ?? 0,
  };
}

/** GET /api/device/communications: running, aimed at the employee; to do first, then newest. */
export async function deviceCommunications(db: Database, reader: CommunicationReader, now: Date) {
  const { store, roleId } = await readerContext(db, reader);
  const rows = await db
    .select({ communication: communications, result: communicationResults })
    .from(communications)
    .leftJoin(
      communicationResults,
      and(
        eq(communicationResults.communication_id, communications.id),
        eq(communicationResults.employee_id, reader.employee.id),
      ),
    )
    .where(
      and(
        eq(communications.database_id, store.database_id!),
        eq(communications.active, true),
        lt(communications.start_at, now),
        gt(communications.end_at, now),
      ),
    )
    .orderBy(desc(communications.start_at), asc(communications.id));
  const items = rows
    .filter((row) => employeeTargeted(row.communication.target, store, roleId))
    .map((row) => presentForDevice(row.communication, row.result));
  items.sort((a, b) => Number(a.completed_at !== null) - Number(b.completed_at !== null));
  return { items };
}

/**
 * POST /api/device/communications/:id/result: one step of the employee's reading, applied once
 * per idempotency key. A completion is stamped with the server's time, once; its quiz answers
 * must all be right.
 */
export async function recordCommunicationStep(
  db: Database,
  reader: CommunicationReader,
  id: string,
  body: DeviceCommunicationResultBody,
  now: Date,
) {
  const { store, roleId } = await readerContext(db, reader);
  const [row] = await db
    .select()
    .from(communications)
    .where(and(eq(communications.id, id), eq(communications.database_id, store.database_id!)));
  if (!row) throw notFound();
  if (!employeeTargeted(row.target, store, roleId))
    throw new AppError('communication/not-targeted');
  const current = async () => {
    const [result] = await db
      .select()
      .from(communicationResults)
      .where(
        and(
          eq(communicationResults.communication_id, row.id),
          eq(communicationResults.employee_id, reader.employee.id),
        ),
      );
    return { communication: presentForDevice(row, result ?? null) };
  };
  // A step already applied (a retry) answers the current state, whatever the dates now.
  const [known] = await db
    .select({ result_id: communicationResultSteps.result_id })
    .from(communicationResultSteps)
    .where(
      and(
        eq(communicationResultSteps.store_id, store.id),
        eq(communicationResultSteps.idempotency_key, body.idempotency_key),
      ),
    );
  if (known) return current();
  if (
    !row.active ||
    communicationState({ start: row.start_at, end: row.end_at }, now) !== 'running'
  ) {
    throw new AppError('communication/not-running');
  }
  if (body.action === 'complete' && !isQuizPassed(row.quiz.questions, body.answers ?? {})) {
    throw new AppError('communication/quiz-failed');
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(communicationResults)
      .values({
        communication_id: row.id,
        database_id: row.database_id,
        store_id: store.id,
        employee_id: reader.employee.id,
        first_seen_at: now,
        updated_at: now,
      })
      .onConflictDoNothing();
    const [result] = await tx
      .select()
      .from(communicationResults)
      .where(
        and(
          eq(communicationResults.communication_id, row.id),
          eq(communicationResults.employee_id, reader.employee.id),
        ),
      )
      .for('update');
    const [step] = await tx
      .insert(communicationResultSteps)
      .values({
        store_id: store.id,
        idempotency_key: body.idempotency_key,
        result_id: result!.id,
        device_id: reader.deviceId,
        action: body.action,
        time_spent: body.time_spent,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ key: communicationResultSteps.idempotency_key });
    // Another request with the same key got there first: nothing to add.
    if (!step) return;
    const isCompleted = result!.completed_at !== null;
    await tx
      .update(communicationResults)
      .set({
        time_spent: sql`${communicationResults.time_spent} + ${body.time_spent}`,
        skipped_count:
          body.action === 'skip' && !isCompleted
            ? sql`${communicationResults.skipped_count} + 1`
            : communicationResults.skipped_count,
        ...(body.action === 'complete' && !isCompleted
          ? { completed_at: now, answers: body.answers ?? {}, store_id: store.id }
          : {}),
        updated_at: now,
      })
      .where(eq(communicationResults.id, result!.id));
  });
  return current();
}

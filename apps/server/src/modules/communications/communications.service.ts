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
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  communicationResultSteps,
  communicationResults,
  communications,
  databases,
  employeeRoles,
  stores,
  storeTags,
} from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { type Scope, storeFilter } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import {
  activeStaffOf,
  completionsByStore,
  countAimedStaff,
  distinctTarget,
  type ResultsOf,
  type StoresPageQuery,
  storeEmployeeResults,
  storesWithTags,
  targetEmployeeCounts,
} from '../learning/learning-stats';
import { readerContext, recordStep, type TabletReader } from '../learning/record-step';
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
    target: distinctTarget(body.target),
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

/** The database's stores the caller may see, with their tags (one query). */
function storesInReach(db: Database, scope: Scope, databaseId: string) {
  return storesWithTags(db, and(eq(stores.database_id, databaseId), storeFilter(scope)));
}

const results: ResultsOf = {
  table: communicationResults,
  itemColumn: communicationResults.communication_id,
};

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

/** GET /api/communications/:id/stats/stores: the targeted stores in reach, by name, paged. */
export async function communicationStatsStores(
  db: Database,
  scope: Scope,
  id: string,
  query: StoresPageQuery,
) {
  const { row, targeted } = await readableForStats(db, scope, id);
  return completionsByStore(
    db,
    results,
    { id: row.id, roles: row.target.employee_roles },
    targeted,
    query,
  );
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
  return storeEmployeeResults(db, results, { id: row.id, roles: row.target.employee_roles }, store);
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

/* ---------- The tablet ---------- */

/** The tablet's store (which must belong to a database) and the employee's role. */
async function communicationReaderContext(db: Database, reader: TabletReader) {
  const context = await readerContext(db, reader);
  if (!context.store.database_id) throw notFound();
  return context;
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
export async function deviceCommunications(db: Database, reader: TabletReader, now: Date) {
  const { store, roleId } = await communicationReaderContext(db, reader);
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
  reader: TabletReader,
  id: string,
  body: DeviceCommunicationResultBody,
  now: Date,
) {
  const { store, roleId } = await communicationReaderContext(db, reader);
  const [row] = await db
    .select()
    .from(communications)
    .where(and(eq(communications.id, id), eq(communications.database_id, store.database_id!)));
  if (!row) throw notFound();
  if (!employeeTargeted(row.target, store, roleId))
    throw new AppError('communication/not-targeted');
  const resultOf = and(
    eq(communicationResults.communication_id, row.id),
    eq(communicationResults.employee_id, reader.employee.id),
  );
  return recordStep(db, {
    tables: { results: communicationResults, steps: communicationResultSteps },
    resultOf,
    newResult: { communication_id: row.id, database_id: row.database_id, store_id: store.id },
    completedIn: { store_id: store.id },
    reader,
    body,
    now,
    assertApplicable: () => {
      if (
        !row.active ||
        communicationState({ start: row.start_at, end: row.end_at }, now) !== 'running'
      ) {
        throw new AppError('communication/not-running');
      }
      if (body.action === 'complete' && !isQuizPassed(row.quiz.questions, body.answers ?? {})) {
        throw new AppError('communication/quiz-failed');
      }
    },
    current: async () => {
      const [result] = await db.select().from(communicationResults).where(resultOf);
      return { communication: presentForDevice(row, result ?? null) };
    },
  });
}

import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import {
  completionPercentage,
  invalidQuizQuestion,
  isQuizPassed,
} from '@mise/shared/communications/rules';
import type { CommunicationAttachment, TargetInput } from '@mise/shared/communications/schemas';
import { employeeTargeted, storeTargeted, targetKind } from '@mise/shared/communications/targeting';
import { dayInZone } from '@mise/shared/tasks/rules';
import {
  canEditTrainingType,
  type TrainingType,
  trainingChartDays,
  trainingTypeFor,
} from '@mise/shared/trainings/rules';
import type {
  DeviceTraining,
  DeviceTrainingResultBody,
  Training,
  TrainingBody,
  TrainingCategory,
  TrainingStats,
  TrainingSummary,
} from '@mise/shared/trainings/schemas';
import {
  and,
  asc,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databases,
  employeeRoles,
  type StoredTrainingSection,
  stores,
  storeTagLinks,
  storeTags,
  trainingCategories,
  trainingResultSteps,
  trainingResults,
  trainings,
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
  storeTagIds,
  targetEmployeeCounts,
} from '../learning/learning-stats';
import { readerContext, recordStep, type TabletReader } from '../learning/record-step';
import { findStoreInScope } from '../stores/stores.service';
import { defaultAnchorZone } from '../task-configurations/task-configurations.service';

/*
 * Trainings (spec 002 §2–§8, issue 18): the list as section 6 loads it per role, the editor's
 * saves, categories, statistics, the home panel and the employees' reading on the tablet.
 */

type TrainingRow = typeof trainings.$inferSelect;
type Role = 'admin' | 'distributor' | 'manager' | 'customer';

const roleOf = (scope: Scope): Role => scope.role as Role;

/** The training owner's columns for a type and source. */
function ownerColumns(type: TrainingType, source: string | null) {
  return {
    type,
    source,
    distributor_id: type === 'distributor' ? source : null,
    database_id: type === 'database' ? source : null,
    store_id: type === 'store' ? source : null,
  };
}

/**
 * The storage folder of a training owner's section attachments (spec 002 §7: databases/{id}/
 * training/…; the same under a store or a distributor; global ones under trainings/).
 */
export function trainingFolder(type: TrainingType, source: string | null): string {
  switch (type) {
    case 'database':
      return `databases/${source}/training/`;
    case 'store':
      return `stores/${source}/training/`;
    case 'distributor':
      return `distributors/${source}/training/`;
    case 'global':
      return 'trainings/';
  }
}

/** Whether a training's owner is in the caller's scope (the read right). */
async function assertOwnerInScope(
  db: Database,
  scope: Scope,
  row: Pick<TrainingRow, 'type' | 'source'>,
) {
  switch (row.type) {
    case 'global':
      return;
    case 'distributor':
      if (!scope.isAll && !scope.distributorIds.includes(row.source ?? '')) throw notFound();
      return;
    case 'database':
      await findDatabaseInScope(db, scope, row.source!);
      return;
    case 'store':
      await findStoreInScope(db, scope, row.source!);
      return;
  }
}

/**
 * The selection the list and New work with (spec 002 §6): a database (in scope) for managers and
 * distributors, a store (in scope) for customers, none for admins. Answers the owner the role
 * loads and creates.
 */
async function selectionOwner(
  db: Database,
  scope: Scope,
  query: { database_id?: string | null; store_id?: string | null },
): Promise<{ type: TrainingType; source: string | null } | null> {
  const role = roleOf(scope);
  if (query.database_id && (role === 'manager' || role === 'distributor')) {
    await findDatabaseInScope(db, scope, query.database_id);
  }
  if (query.store_id && role === 'customer') await findStoreInScope(db, scope, query.store_id);
  return trainingTypeFor(role, {
    databaseId: query.database_id ?? null,
    storeId: query.store_id ?? null,
    distributorId: scope.distributorIds[0] ?? null,
  });
}

function attachmentOf(section: StoredTrainingSection): CommunicationAttachment | null {
  const stored = section.attachment;
  if (!stored) return null;
  return {
    name: stored.name,
    path: stored.path,
    type: attachmentContentTypes[stored.content_type]?.type ?? 'file',
    url: `/api/files/${stored.path.split('/').map(encodeURIComponent).join('/')}`,
  };
}

async function categoriesById(db: Database, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map<string, TrainingCategory>();
  const rows = await db
    .select()
    .from(trainingCategories)
    .where(inArray(trainingCategories.id, wanted));
  return new Map(
    rows.map((row) => [row.id, { id: row.id, name: row.name, type: row.type, source: row.source }]),
  );
}

function presentSummary(
  row: TrainingRow,
  scope: Scope,
  categories: Map<string, TrainingCategory>,
): TrainingSummary {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    lang: row.lang,
    type: row.type,
    source: row.source,
    required: row.required,
    category: row.category_id ? (categories.get(row.category_id) ?? null) : null,
    section_count: row.sections.length,
    target_kind: targetKind(row.target),
    can_edit: canEditTrainingType(roleOf(scope), row.type),
    created_by_name: row.created_by_name,
    updated_at: row.updated_at.toISOString(),
  };
}

function presentTraining(
  row: TrainingRow,
  scope: Scope,
  categories: Map<string, TrainingCategory>,
): Training {
  return {
    ...presentSummary(row, scope, categories),
    sections: row.sections.map((section) => ({
      id: section.id,
      title: section.title,
      attachment: attachmentOf(section),
      quiz: section.quiz,
    })),
    target: row.target,
    version: row.version,
  };
}

/** GET /api/trainings: spec 002 §6 per role and selection. */
export async function listTrainings(
  db: Database,
  scope: Scope,
  query: {
    database_id?: string;
    store_id?: string;
    search?: string;
    include_inactive?: 'true' | 'false';
  },
) {
  const owner = await selectionOwner(db, scope, query);
  if (!owner) return { items: [], can_create: false };
  const search = query.search?.trim();
  const rows = await db
    .select()
    .from(trainings)
    .where(
      and(
        eq(trainings.type, owner.type),
        owner.source === null ? isNull(trainings.source) : eq(trainings.source, owner.source),
        query.include_inactive === 'true' ? undefined : eq(trainings.active, true),
        search ? ilike(trainings.name, likePattern(search)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${trainings.name})`), asc(trainings.id));
  const categories = await categoriesById(
    db,
    rows.map((row) => row.category_id),
  );
  return {
    items: rows.map((row) => presentSummary(row, scope, categories)),
    can_create: true,
  };
}

async function findReadable(db: Database, scope: Scope, id: string) {
  const [row] = await db.select().from(trainings).where(eq(trainings.id, id)).limit(1);
  if (!row) throw notFound();
  await assertOwnerInScope(db, scope, row);
  return row;
}

export async function getTraining(db: Database, scope: Scope, id: string) {
  const row = await findReadable(db, scope, id);
  const categories = await categoriesById(db, [row.category_id]);
  return { training: presentTraining(row, scope, categories) };
}

/** The stores a training of this owner may aim at (spec 002 §6). */
function ownerStoresCondition(type: TrainingType, source: string | null): SQL | undefined {
  switch (type) {
    case 'global':
      return undefined;
    case 'distributor':
      return eq(stores.distributor_id, source!);
    case 'database':
      return eq(stores.database_id, source!);
    case 'store':
      return eq(stores.id, source!);
  }
}

/** Targeted stores inside the owner's stores; tags and roles of the owner's databases. */
async function assertTargetOfOwner(
  db: Database,
  type: TrainingType,
  source: string | null,
  target: TargetInput,
) {
  const storeIds = [...new Set(target.stores)];
  if (storeIds.length > 0) {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(stores)
      .where(and(inArray(stores.id, storeIds), ownerStoresCondition(type, source)));
    if (row?.count !== storeIds.length) throw new AppError('training/target-invalid');
  }
  // The databases whose tags and roles may be picked (every one for a global training).
  const ownerDatabases =
    type === 'global'
      ? null
      : type === 'database'
        ? [source!]
        : (
            await db
              .selectDistinct({ id: stores.database_id })
              .from(stores)
              .where(ownerStoresCondition(type, source))
          )
            .map((row) => row.id)
            .filter((value): value is string => value !== null);
  const databasesOfOwner = (table: typeof storeTags | typeof employeeRoles): SQL | undefined =>
    ownerDatabases === null
      ? undefined
      : ownerDatabases.length > 0
        ? inArray(table.database_id, ownerDatabases)
        : sql`false`;
  for (const [table, ids] of [
    [storeTags, target.store_tags],
    [employeeRoles, target.employee_roles],
  ] as const) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) continue;
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(table)
      .where(and(inArray(table.id, unique), databasesOfOwner(table)));
    if (row?.count !== unique.length) throw new AppError('training/target-invalid');
  }
}

/** Spec 002 §5 and docs/decisions.md: the columns a save writes. */
async function checkedColumns(
  deps: { db: Database; storage: Storage },
  type: TrainingType,
  source: string | null,
  body: TrainingBody,
) {
  const name = body.name.trim();
  if (!name) throw new AppError('training/name-required');
  const folder = trainingFolder(type, source);
  const sectionIds = body.sections.map((section) => section.id);
  if (new Set(sectionIds).size !== sectionIds.length) {
    throw new AppError('validation/invalid-input', 'Section ids must be unique.');
  }
  const sections: StoredTrainingSection[] = [];
  for (const section of body.sections) {
    if (!section.attachment) throw new AppError('training/attachment-required');
    const path = section.attachment.path;
    const extension = path.split('.').pop()?.toLowerCase() ?? '';
    const contentType = Object.entries(attachmentContentTypes).find(
      ([, entry]) => entry.extension === extension,
    )?.[0];
    if (
      !path.startsWith(folder) ||
      path.includes('..') ||
      !contentType ||
      !(await deps.storage.stat(path))
    ) {
      throw new AppError('training/attachment-invalid');
    }
    const questionIds = section.quiz.questions.map((question) => question.id);
    if (new Set(questionIds).size !== questionIds.length) {
      throw new AppError('validation/invalid-input', 'Quiz question ids must be unique.');
    }
    if (invalidQuizQuestion(section.quiz.questions)) throw new AppError('training/no-valid-answer');
    sections.push({
      id: section.id,
      title: section.title,
      attachment: { name: section.attachment.name, path, content_type: contentType },
      quiz: section.quiz,
    });
  }
  if (body.category_id) {
    const [category] = await deps.db
      .select()
      .from(trainingCategories)
      .where(eq(trainingCategories.id, body.category_id));
    if (!category || !(await categoryUsableBy(deps.db, category, type, source))) {
      throw new AppError('training/category-invalid');
    }
  }
  await assertTargetOfOwner(deps.db, type, source, body.target);
  return {
    name,
    active: body.active,
    lang: body.lang,
    required: body.required,
    category_id: body.category_id,
    sections,
    target: distinctTarget(body.target),
  };
}

export async function createTraining(
  deps: { db: Database; storage: Storage },
  scope: Scope,
  author: { id: string; name: string },
  body: TrainingBody & { database_id?: string | null; store_id?: string | null },
  now: Date,
) {
  const owner = await selectionOwner(deps.db, scope, body);
  if (!owner) throw new AppError('training/select-source');
  const columns = await checkedColumns(deps, owner.type, owner.source, body);
  const [row] = await deps.db
    .insert(trainings)
    .values({
      ...columns,
      ...ownerColumns(owner.type, owner.source),
      created_by: author.id,
      created_by_name: author.name,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return {
    training: presentTraining(row!, scope, await categoriesById(deps.db, [row!.category_id])),
  };
}

export async function saveTraining(
  deps: { db: Database; storage: Storage },
  scope: Scope,
  id: string,
  body: TrainingBody & { version: number },
  now: Date,
) {
  const current = await findReadable(deps.db, scope, id);
  if (!canEditTrainingType(roleOf(scope), current.type)) throw forbidden();
  if (current.version !== body.version) throw new AppError('conflict/stale-version');
  const columns = await checkedColumns(deps, current.type, current.source, body);
  const [row] = await deps.db
    .update(trainings)
    .set({ ...columns, version: sql`${trainings.version} + 1`, updated_at: now })
    .where(and(eq(trainings.id, id), eq(trainings.version, body.version)))
    .returning();
  if (!row) throw new AppError('conflict/stale-version');
  return {
    training: presentTraining(row, scope, await categoriesById(deps.db, [row.category_id])),
  };
}

/* ---------- Categories ---------- */

/**
 * Spec 002 §7: categories whose source is the database, the distributor or none (global), and
 * for a store also the store's own.
 */
async function categorySources(
  db: Database,
  type: TrainingType,
  source: string | null,
): Promise<string[]> {
  if (type === 'global' || !source) return [];
  if (type === 'distributor') return [source];
  if (type === 'database') {
    const [row] = await db
      .select({ distributor_id: databases.distributor_id })
      .from(databases)
      .where(eq(databases.id, source));
    return [source, ...(row?.distributor_id ? [row.distributor_id] : [])];
  }
  const [store] = await db
    .select({ database_id: stores.database_id, distributor_id: stores.distributor_id })
    .from(stores)
    .where(eq(stores.id, source));
  return [
    source,
    ...(store?.database_id ? [store.database_id] : []),
    ...(store?.distributor_id ? [store.distributor_id] : []),
  ];
}

async function categoryUsableBy(
  db: Database,
  category: typeof trainingCategories.$inferSelect,
  type: TrainingType,
  source: string | null,
): Promise<boolean> {
  if (category.source === null) return true;
  return (await categorySources(db, type, source)).includes(category.source);
}

export async function listCategories(
  db: Database,
  scope: Scope,
  query: { database_id?: string; store_id?: string },
) {
  const owner = await selectionOwner(db, scope, query);
  if (!owner) return { items: [] };
  const sources = await categorySources(db, owner.type, owner.source);
  const rows = await db
    .select()
    .from(trainingCategories)
    .where(
      or(
        isNull(trainingCategories.source),
        sources.length > 0 ? inArray(trainingCategories.source, sources) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${trainingCategories.name})`), asc(trainingCategories.id));
  return {
    items: rows.map((row) => ({ id: row.id, name: row.name, type: row.type, source: row.source })),
  };
}

/** A category made on demand (spec 002 §7), owned like a training made from the same selection. */
export async function createCategory(
  db: Database,
  scope: Scope,
  body: { name: string; database_id?: string | null; store_id?: string | null },
) {
  const owner = await selectionOwner(db, scope, body);
  if (!owner) throw new AppError('training/select-source');
  const name = body.name.trim();
  const [existing] = await db
    .select()
    .from(trainingCategories)
    .where(
      and(
        eq(trainingCategories.type, owner.type),
        owner.source === null
          ? isNull(trainingCategories.source)
          : eq(trainingCategories.source, owner.source),
        sql`lower(${trainingCategories.name}) = lower(${name})`,
      ),
    );
  const row =
    existing ??
    (
      await db
        .insert(trainingCategories)
        .values({ name, type: owner.type, source: owner.source })
        .returning()
    )[0]!;
  return { category: { id: row.id, name: row.name, type: row.type, source: row.source } };
}

/* ---------- Statistics ---------- */

/** The zone a training's days are counted in: its owner store's or database's, else Paris. */
async function trainingZone(db: Database, row: TrainingRow): Promise<string> {
  const condition =
    row.type === 'store'
      ? eq(stores.id, row.source!)
      : row.type === 'database'
        ? eq(stores.database_id, row.source!)
        : undefined;
  if (!condition) return defaultAnchorZone;
  const [first] = await db
    .select({ zone: stores.timezone_name })
    .from(stores)
    .where(condition)
    .orderBy(asc(stores.created_at), asc(stores.id))
    .limit(1);
  return first?.zone || defaultAnchorZone;
}

/** The owner's stores the caller may see, with their tags, that the training aims at. */
async function targetedStoresInReach(db: Database, scope: Scope, row: TrainingRow) {
  const reach = await storesWithTags(
    db,
    and(ownerStoresCondition(row.type, row.source), storeFilter(scope)),
  );
  return reach.filter((store) => storeTargeted(row.target, store));
}

const results: ResultsOf = { table: trainingResults, itemColumn: trainingResults.training_id };

export async function trainingStats(
  db: Database,
  scope: Scope,
  id: string,
  now: Date,
): Promise<TrainingStats> {
  const row = await findReadable(db, scope, id);
  const targeted = await targetedStoresInReach(db, scope, row);
  const ids = targeted.map((store) => store.id);
  const zone = await trainingZone(db, row);
  const today = dayInZone(now, zone);
  const localDay = sql<string>`to_char(${trainingResults.completed_at} at time zone ${zone}, 'YYYY-MM-DD')`;
  const completed = and(
    eq(trainingResults.training_id, row.id),
    isNotNull(trainingResults.completed_at),
    ids.length > 0 ? inArray(trainingResults.store_id, ids) : sql`false`,
  );
  const [overview] = await db
    .select({
      trained: sql<number>`count(distinct ${trainingResults.employee_id})::int`,
      today: sql<number>`(count(*) filter (where ${localDay} = ${today}))::int`,
      median: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${trainingResults.time_spent})`,
    })
    .from(trainingResults)
    .where(completed);
  const days = trainingChartDays(today);
  const perDay = await db
    .select({ day: localDay, count: sql<number>`count(*)::int` })
    .from(trainingResults)
    .where(
      and(
        completed,
        sql`${trainingResults.completed_at} >= ${new Date(Date.parse(`${days[0]}T00:00:00Z`) - 86_400_000)}`,
      ),
    )
    .groupBy(sql`1`);
  const byDay = new Map(perDay.map((entry) => [entry.day, entry.count]));
  const counts = await targetEmployeeCounts(db, ids, row.target.employee_roles);
  const categories = await categoriesById(db, [row.category_id]);
  const trained = overview?.trained ?? 0;
  return {
    training: presentSummary(row, scope, categories),
    trained,
    views_today: overview?.today ?? 0,
    median_time_spent:
      overview?.median === null || overview?.median === undefined ? null : Number(overview.median),
    target_employees: counts.total,
    percentage: completionPercentage(trained, counts.total),
    per_day: days.map((day) => ({ day, completions: byDay.get(day) ?? 0 })),
  };
}

export async function trainingStatsStores(
  db: Database,
  scope: Scope,
  id: string,
  query: StoresPageQuery,
) {
  const row = await findReadable(db, scope, id);
  const targeted = await targetedStoresInReach(db, scope, row);
  return completionsByStore(
    db,
    results,
    { id: row.id, roles: row.target.employee_roles },
    targeted,
    query,
  );
}

export async function trainingStatsStore(db: Database, scope: Scope, id: string, storeId: string) {
  const row = await findReadable(db, scope, id);
  const store = (await targetedStoresInReach(db, scope, row)).find((entry) => entry.id === storeId);
  if (!store) throw notFound();
  return storeEmployeeResults(db, results, { id: row.id, roles: row.target.employee_roles }, store);
}

/** The trainings that reach a database's stores: global, its distributor's, its own, a store's. */
function trainingsOfDatabaseCondition(
  database: { id: string; distributor_id: string | null },
  storeId: string | null,
) {
  return or(
    eq(trainings.type, 'global'),
    database.distributor_id
      ? and(eq(trainings.type, 'distributor'), eq(trainings.source, database.distributor_id))
      : undefined,
    and(eq(trainings.type, 'database'), eq(trainings.source, database.id)),
    storeId ? and(eq(trainings.type, 'store'), eq(trainings.source, storeId)) : undefined,
  );
}

/** GET /api/trainings/home: the active trainings of a database (and store), with the share. */
export async function homeTrainings(
  db: Database,
  scope: Scope,
  query: { database_id: string; store_id?: string },
) {
  const database = await findDatabaseInScope(db, scope, query.database_id);
  if (query.store_id) await findStoreInScope(db, scope, query.store_id);
  const rows = await db
    .select()
    .from(trainings)
    .where(
      and(
        eq(trainings.active, true),
        trainingsOfDatabaseCondition(database, query.store_id ?? null),
      ),
    )
    .orderBy(desc(trainings.required), asc(sql`lower(${trainings.name})`))
    .limit(50);
  if (rows.length === 0) return { items: [] };
  // The panel is the database's (or the chosen store's): its stores the caller sees, read once.
  const reach = (
    await db
      .select({
        id: stores.id,
        distributor_id: stores.distributor_id,
        tag_ids: storeTagIds,
      })
      .from(stores)
      .leftJoin(storeTagLinks, eq(storeTagLinks.store_id, stores.id))
      .where(and(eq(stores.database_id, database.id), storeFilter(scope)))
      .groupBy(stores.id)
  ).filter((store) => !query.store_id || store.id === query.store_id);
  const reachIds = reach.map((store) => store.id);
  const done =
    reachIds.length === 0
      ? []
      : await db
          .select({
            training_id: trainingResults.training_id,
            store_id: trainingResults.store_id,
            count: sql<number>`count(*)::int`,
          })
          .from(trainingResults)
          .where(
            and(
              inArray(
                trainingResults.training_id,
                rows.map((row) => row.id),
              ),
              isNotNull(trainingResults.completed_at),
              inArray(trainingResults.store_id, reachIds),
            ),
          )
          .groupBy(trainingResults.training_id, trainingResults.store_id);
  const staff = await activeStaffOf(db, reachIds);
  const ownsStore = (row: TrainingRow, store: (typeof reach)[number]) =>
    row.type === 'global' ||
    (row.type === 'distributor' && store.distributor_id === row.source) ||
    row.type === 'database' ||
    (row.type === 'store' && store.id === row.source);
  const items = [];
  for (const row of rows) {
    const targeted = new Set(
      reach
        .filter((store) => ownsStore(row, store) && storeTargeted(row.target, store))
        .map((store) => store.id),
    );
    if (targeted.size === 0) continue;
    // One result per employee and training: the stores' counts add up.
    const completed = done
      .filter((entry) => entry.training_id === row.id && targeted.has(entry.store_id))
      .reduce((sum, entry) => sum + entry.count, 0);
    items.push({
      id: row.id,
      name: row.name,
      type: row.type,
      percentage: completionPercentage(
        completed,
        countAimedStaff(staff, targeted, row.target.employee_roles),
      ),
    });
  }
  return { items };
}

/* ---------- The tablet ---------- */

/** The trainings a tablet's store may follow: its database's, its distributor's, its own, global. */
function trainingsOfReaderStore(store: {
  id: string;
  database_id: string | null;
  distributor_id: string | null;
}) {
  return trainingsOfDatabaseCondition(
    {
      id: store.database_id ?? '00000000-0000-0000-0000-000000000000',
      distributor_id: store.distributor_id,
    },
    store.id,
  );
}

type ResultRow = typeof trainingResults.$inferSelect;

function presentForDevice(
  row: TrainingRow,
  result: ResultRow | null,
  categories: Map<string, TrainingCategory>,
): DeviceTraining {
  return {
    id: row.id,
    name: row.name,
    lang: row.lang,
    type: row.type,
    required: row.required,
    category: row.category_id ? (categories.get(row.category_id)?.name ?? null) : null,
    sections: row.sections.map((section) => ({
      id: section.id,
      title: section.title,
      attachment: attachmentOf(section),
      quiz: section.quiz,
    })),
    unread: result === null,
    completed_at: result?.completed_at?.toISOString() ?? null,
    skipped_count: result?.skipped_count ?? 0,
  };
}

/**
 * GET /api/device/trainings: the active trainings aimed at the employee; required ones not done
 * first, then the others not done, then the done ones; newest first inside each.
 */
export async function deviceTrainings(db: Database, reader: TabletReader) {
  const { store, roleId } = await readerContext(db, reader);
  const rows = await db
    .select({ training: trainings, result: trainingResults })
    .from(trainings)
    .leftJoin(
      trainingResults,
      and(
        eq(trainingResults.training_id, trainings.id),
        eq(trainingResults.employee_id, reader.employee.id),
      ),
    )
    .where(and(eq(trainings.active, true), trainingsOfReaderStore(store)))
    .orderBy(desc(trainings.created_at), asc(trainings.id));
  const aimed = rows.filter((row) => employeeTargeted(row.training.target, store, roleId));
  const categories = await categoriesById(
    db,
    aimed.map((row) => row.training.category_id),
  );
  const items = aimed.map((row) => presentForDevice(row.training, row.result, categories));
  const rank = (item: DeviceTraining) => (item.completed_at ? 2 : item.required ? 0 : 1);
  items.sort((a, b) => rank(a) - rank(b));
  return { items };
}

/** POST /api/device/trainings/:id/result: as a communication's steps, once per key. */
export async function recordTrainingStep(
  db: Database,
  reader: TabletReader,
  id: string,
  body: DeviceTrainingResultBody,
  now: Date,
) {
  const { store, roleId } = await readerContext(db, reader);
  const [row] = await db
    .select()
    .from(trainings)
    .where(and(eq(trainings.id, id), trainingsOfReaderStore(store)));
  if (!row) throw notFound();
  if (!employeeTargeted(row.target, store, roleId)) throw new AppError('training/not-targeted');
  const resultOf = and(
    eq(trainingResults.training_id, row.id),
    eq(trainingResults.employee_id, reader.employee.id),
  );
  const storeColumns = {
    store_id: store.id,
    store_database: store.database_id,
    store_distributor: store.distributor_id,
  };
  return recordStep(db, {
    tables: { results: trainingResults, steps: trainingResultSteps },
    resultOf,
    newResult: { training_id: row.id, ...storeColumns },
    completedIn: storeColumns,
    reader,
    body,
    now,
    assertApplicable: () => {
      if (!row.active) throw new AppError('training/not-active');
      if (
        body.action === 'complete' &&
        !row.sections.every((section) =>
          isQuizPassed(section.quiz.questions, body.answers?.[section.id] ?? {}),
        )
      ) {
        throw new AppError('training/quiz-failed');
      }
    },
    current: async () => {
      const [result] = await db.select().from(trainingResults).where(resultOf);
      const categories = await categoriesById(db, [row.category_id]);
      return { training: presentForDevice(row, result ?? null, categories) };
    },
  });
}

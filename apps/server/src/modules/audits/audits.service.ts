import {
  auditResultPath,
  copyName,
  countLive,
  keepArchived,
  removalArchives,
  validateAudit,
} from '@mise/shared/audits/rules';
import type { Audit, AuditSection, AuditSummary, SaveAuditBody } from '@mise/shared/audits/schemas';
import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditResults, audits, auditVersions, databases, stores } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { databaseFilter, type Scope, storeFilter } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';

/*
 * Audit templates (spec 002 §2–§6, issue 16): the auditing list, the builder's saves (versions,
 * archive instead of delete once published), duplicates and the home panel.
 */

type AuditRow = typeof audits.$inferSelect;
type DatabaseRow = Awaited<ReturnType<typeof findDatabaseInScope>>;

/** Spec 002 §6: the list is loaded for admin, manager and distributor; New for the same. */
export function canUseAuditing(scope: Scope): boolean {
  return scope.role === 'admin' || scope.role === 'manager' || scope.role === 'distributor';
}
/** Spec 002 §6: results for admin and manager. */
export function canReadResults(scope: Scope): boolean {
  return scope.role === 'admin' || scope.role === 'manager';
}

function assertAuditingShown(database: Pick<DatabaseRow, 'hidden_extensions'>): void {
  if (database.hidden_extensions.includes('auditing')) throw new AppError('audit/extension-hidden');
}

/** A database the caller may audit in: in scope, a role with auditing, the extension shown. */
async function auditingDatabase(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canUseAuditing(scope)) throw forbidden();
  assertAuditingShown(database);
  return database;
}

export function presentSummary(row: AuditRow): AuditSummary {
  return {
    id: row.id,
    database_id: row.database_id,
    name: row.name,
    active: row.active,
    self_evaluation: row.self_evaluation,
    published: row.published,
    publishing_date: row.publishing_date?.toISOString() ?? null,
    creation_date: row.created_at.toISOString(),
    section_count: row.section_count,
    question_count: row.question_count,
  };
}

function presentAudit(row: AuditRow, resultCount: number): Audit {
  return {
    ...presentSummary(row),
    updated_at: row.updated_at.toISOString(),
    version: row.version,
    structure_version: row.structure_version,
    sections: row.sections,
    result_count: resultCount,
  };
}

/** GET /api/databases/:databaseId/audits: ordered by name (spec 002 §7). */
export async function listAudits(
  db: Database,
  scope: Scope,
  databaseId: string,
  query: { search?: string; include_inactive?: 'true' | 'false' },
) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canUseAuditing(scope)) throw forbidden();
  assertAuditingShown(database);
  const search = query.search?.trim();
  const rows = await db
    .select()
    .from(audits)
    .where(
      and(
        eq(audits.database_id, database.id),
        query.include_inactive === 'true' ? undefined : eq(audits.active, true),
        search ? ilike(audits.name, likePattern(search)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${audits.name})`), asc(audits.id));
  return {
    items: rows.map(presentSummary),
    can_create: canUseAuditing(scope),
    can_read_results: canReadResults(scope),
  };
}

/** The audit, when the caller may see its database and use auditing; 404 otherwise. */
export async function findAuditInScope(db: Database, scope: Scope, auditId: string) {
  const [row] = await db
    .select({ audit: audits, hidden_extensions: databases.hidden_extensions })
    .from(audits)
    .innerJoin(databases, eq(databases.id, audits.database_id))
    .where(and(eq(audits.id, auditId), databaseFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  if (!canUseAuditing(scope)) throw forbidden();
  assertAuditingShown(row);
  return row.audit;
}

async function countResults(db: Database, auditId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(auditResults)
    .where(eq(auditResults.audit_id, auditId));
  return row?.count ?? 0;
}

export async function getAudit(db: Database, scope: Scope, auditId: string) {
  const row = await findAuditInScope(db, scope, auditId);
  return { audit: presentAudit(row, await countResults(db, row.id)) };
}

function assertValid(name: string, sections: AuditSection[]): void {
  const issue = validateAudit({ name, sections });
  if (issue) {
    const path = [issue.sectionId, issue.questionId].filter(Boolean).join('.');
    throw new AppError(issue.code, undefined, path ? [{ path, message: issue.code }] : undefined);
  }
}

/** POST /api/databases/:databaseId/audits: a new, unpublished audit (structure version 1). */
export async function createAudit(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: { name: string; active: boolean; self_evaluation: boolean; sections: AuditSection[] },
  now: Date,
) {
  const database = await auditingDatabase(db, scope, databaseId);
  const name = body.name.trim();
  assertValid(name, body.sections);
  const counts = countLive(body.sections);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(audits)
      .values({
        database_id: database.id,
        name,
        active: body.active,
        self_evaluation: body.self_evaluation,
        sections: body.sections,
        section_count: counts.sections,
        question_count: counts.questions,
        created_by: scope.userId,
        created_at: now,
        updated_at: now,
      })
      .returning();
    await tx.insert(auditVersions).values({
      audit_id: created!.id,
      version: 1,
      database_id: database.id,
      name,
      sections: body.sections,
      created_at: now,
    });
    return created!;
  });
  return { audit: presentAudit(row, 0) };
}

/**
 * PUT /api/audits/:auditId (spec 002 §4): a stale version answers 409; a published audit with no
 * publishing date gets now; once published (or dated), what the save leaves out comes back
 * archived; a changed structure becomes a new version, so earlier results keep theirs.
 */
export async function saveAudit(
  db: Database,
  scope: Scope,
  auditId: string,
  body: SaveAuditBody,
  now: Date,
) {
  const current = await findAuditInScope(db, scope, auditId);
  if (current.version !== body.version) throw new AppError('conflict/stale-version');
  const name = body.name.trim();
  const sections = removalArchives({
    published: current.published,
    publishing_date: current.publishing_date?.toISOString() ?? null,
  })
    ? keepArchived(current.sections, body.sections, now.toISOString())
    : body.sections;
  assertValid(name, sections);
  const isStructureChanged = JSON.stringify(sections) !== JSON.stringify(current.sections);
  const structureVersion = current.structure_version + (isStructureChanged ? 1 : 0);
  const counts = countLive(sections);
  const row = await db.transaction(async (tx) => {
    const [saved] = await tx
      .update(audits)
      .set({
        name,
        active: body.active,
        self_evaluation: body.self_evaluation,
        published: body.published,
        publishing_date: body.published && !current.publishing_date ? now : current.publishing_date,
        sections,
        section_count: counts.sections,
        question_count: counts.questions,
        version: current.version + 1,
        structure_version: structureVersion,
        updated_at: now,
      })
      .where(and(eq(audits.id, current.id), eq(audits.version, body.version)))
      .returning();
    if (!saved) throw new AppError('conflict/stale-version');
    if (isStructureChanged) {
      await tx.insert(auditVersions).values({
        audit_id: current.id,
        version: structureVersion,
        database_id: current.database_id,
        name,
        sections,
        created_at: now,
      });
    }
    return saved;
  });
  return { audit: presentAudit(row, await countResults(db, row.id)) };
}

/** POST /api/audits/:auditId/duplicate (spec 002 §4): '<name> (Copy)', unpublished. */
export async function duplicateAudit(db: Database, scope: Scope, auditId: string, now: Date) {
  const source = await findAuditInScope(db, scope, auditId);
  // The copy starts afresh: what the original archived stays behind.
  const sections = source.sections
    .filter((section) => !section.archived_at)
    .map((section) => ({
      ...section,
      questions: section.questions
        .filter((question) => !question.archived_at)
        .map((question) =>
          'choices' in question.options
            ? {
                ...question,
                options: {
                  ...question.options,
                  choices: question.options.choices.filter((choice) => !choice.archived_at),
                },
              }
            : question,
        ),
    })) as AuditSection[];
  return createAudit(
    db,
    scope,
    source.database_id,
    {
      name: copyName(source.name),
      active: source.active,
      self_evaluation: source.self_evaluation,
      sections,
    },
    now,
  );
}

/** The structure a result was performed on. */
export async function structureOf(
  db: Database,
  auditId: string,
  version: number,
): Promise<{ name: string; sections: AuditSection[] }> {
  const [row] = await db
    .select({ name: auditVersions.name, sections: auditVersions.sections })
    .from(auditVersions)
    .where(and(eq(auditVersions.audit_id, auditId), eq(auditVersions.version, version)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * GET /api/databases/:databaseId/audits/home (spec 000 home): the database's published, active
 * audits, each with the share of its stores holding at least one submitted result ("effectué").
 * Whoever sees the database reads it (a customer's home included).
 */
export async function homeAudits(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (database.hidden_extensions.includes('auditing')) return { items: [] };
  const rows = await db
    .select()
    .from(audits)
    .where(
      and(eq(audits.database_id, database.id), eq(audits.published, true), eq(audits.active, true)),
    )
    .orderBy(desc(audits.publishing_date), asc(audits.id));
  if (rows.length === 0) return { items: [] };
  const [storeCount] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(stores)
    .where(and(eq(stores.database_id, database.id), eq(stores.active, true)));
  const done = await db
    .select({
      audit_id: auditResults.audit_id,
      count: sql<number>`count(distinct ${auditResults.store_id})::int`,
    })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .where(
      and(
        inArray(
          auditResults.audit_id,
          rows.map((row) => row.id),
        ),
        eq(auditResults.status, 'submitted'),
        eq(stores.database_id, database.id),
        eq(stores.active, true),
      ),
    )
    .groupBy(auditResults.audit_id);
  const doneById = new Map(done.map((row) => [row.audit_id, row.count]));
  const total = storeCount?.count ?? 0;
  return {
    items: rows.map((row) => {
      const storesDone = doneById.get(row.id) ?? 0;
      return {
        id: row.id,
        name: row.name,
        publishing_date: row.publishing_date?.toISOString() ?? null,
        stores_done: storesDone,
        store_count: total,
        done_percentage: total === 0 ? 0 : (storesDone / total) * 100,
      };
    }),
  };
}

/** Stores of the audit's database the caller may perform it in. */
export async function storeForAudit(
  db: Database,
  scope: Scope,
  audit: Pick<AuditRow, 'database_id'>,
  storeId: string,
) {
  const [store] = await db
    .select()
    .from(stores)
    .where(and(eq(stores.id, storeId), storeFilter(scope)))
    .limit(1);
  if (!store || store.database_id !== audit.database_id) throw notFound();
  if (store.hidden_extensions.includes('auditing')) throw new AppError('audit/extension-hidden');
  return store;
}

export { auditResultPath };

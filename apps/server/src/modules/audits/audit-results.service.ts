import { randomUUID } from 'node:crypto';
import {
  answerIssue,
  auditResultPath,
  missingRequired,
  scoreResult,
} from '@mise/shared/audits/rules';
import {
  type AuditAnswer,
  type AuditAnswerInput,
  type AuditQuestion,
  type AuditResult,
  type AuditResultSummary,
  type AuditSection,
  auditFileExtensions,
  auditLimits,
} from '@mise/shared/audits/schemas';
import { isAnswered } from '@mise/shared/audits/scoring';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import type { Database } from '../../db/client';
import { auditResults, audits, databases, employeeRoles, employees, stores } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { type Scope, storeFilter } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { hasSignatureOf, plainFileName } from '../files/uploads';
import { chainAuditResult } from '../records/sources/audit-results';
import {
  canReadResults,
  findAuditInScope,
  presentSummary,
  storeForAudit,
  structureOf,
} from './audits.service';

/*
 * Audit results (spec 002 §3, issue 16): started for a store by a back-office user or by an
 * employee on the store's tablet, answered as the auditor goes (each answer replaces that
 * question's, stamped with server time), submitted once — stamped, scored, never changed again,
 * and appended to the store's records chain in the same transaction (issue 21).
 */

type ResultRow = typeof auditResults.$inferSelect;

export type AuditActor =
  | { kind: 'user'; scope: Scope; userId: string; name: string }
  | {
      kind: 'employee';
      storeId: string;
      deviceId: string;
      employee: { id: string; name: string; surname: string };
    }
  /** A paired tablet with no employee identified: it reads its store's results only. */
  | { kind: 'device'; storeId: string };

const fileUrlPrefix = (resultId: string) => `/api/files/audit-results/${resultId}/`;

function summaryOf(row: ResultRow, storeName: string): AuditResultSummary {
  return {
    id: row.id,
    audit_id: row.audit_id,
    database_id: row.database_id,
    store: { id: row.store_id, name: storeName },
    auditor: {
      kind: row.source === 'tablet' ? 'employee' : 'user',
      id: (row.source === 'tablet' ? row.auditor_employee_id : row.auditor_user_id) ?? row.id,
      name: row.auditor_name,
    },
    status: row.status,
    start_date: row.start_date.toISOString(),
    end_date: row.end_date?.toISOString() ?? null,
    score: row.score,
    max_score: row.max_score,
    has_pdf: row.pdf_key !== null,
    path: auditResultPath(row),
    answered_count: Object.keys(row.answers).length,
  };
}

async function presentResult(
  db: Database,
  row: ResultRow,
  storeName: string,
): Promise<{ result: AuditResult }> {
  const structure = await structureOf(db, row.audit_id, row.audit_version);
  const [audit] = await db
    .select({ name: audits.name })
    .from(audits)
    .where(eq(audits.id, row.audit_id))
    .limit(1);
  return {
    result: {
      ...summaryOf(row, storeName),
      audit_name: audit?.name ?? structure.name,
      structure_version: row.audit_version,
      sections: structure.sections,
      answers: Object.values(row.answers),
      section_scores: row.section_scores,
      version: row.version,
    },
  };
}

/** The result with its store's name, or null. */
async function loadResult(db: Database, resultId: string, scope?: Scope) {
  const [row] = await db
    .select({
      result: auditResults,
      storeName: stores.name,
      timeZone: stores.timezone_name,
    })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .where(and(eq(auditResults.id, resultId), scope ? storeFilter(scope) : undefined))
    .limit(1);
  return row ?? null;
}

/** Whether the employee's role grants auditing (issue 16: the tablet's self-evaluation). */
async function assertEmployeeMayAudit(db: Database, employeeId: string): Promise<void> {
  const [row] = await db
    .select({ features: employeeRoles.features_permissions, active: employeeRoles.active })
    .from(employees)
    .innerJoin(employeeRoles, eq(employeeRoles.id, employees.role_id))
    .where(eq(employees.id, employeeId))
    .limit(1);
  if (!row?.active || row.features?.auditing !== true) throw forbidden();
}

/** The store of a tablet, with its database's hidden extensions merged in. */
async function deviceStore(db: Database, storeId: string) {
  const [row] = await db
    .select({
      id: stores.id,
      name: stores.name,
      database_id: stores.database_id,
      hidden: stores.hidden_extensions,
      databaseHidden: databases.hidden_extensions,
    })
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(eq(stores.id, storeId))
    .limit(1);
  if (!row) throw notFound();
  const isHidden = [...row.hidden, ...(row.databaseHidden ?? [])].includes('auditing');
  return { ...row, isHidden };
}

/**
 * A result the actor may read: the back-office auditor their own; admins and managers any of
 * their scope's stores (spec 002 §6); a tablet its store's self-evaluations. 404 otherwise.
 */
async function readableResult(db: Database, actor: AuditActor, resultId: string) {
  if (actor.kind !== 'user') {
    const row = await loadResult(db, resultId);
    if (!row || row.result.store_id !== actor.storeId || row.result.source !== 'tablet') {
      throw notFound();
    }
    return row;
  }
  const row = await loadResult(db, resultId, actor.scope);
  if (!row) throw notFound();
  await findAuditInScope(db, actor.scope, row.result.audit_id);
  if (row.result.auditor_user_id !== actor.userId && !canReadResults(actor.scope)) throw notFound();
  return row;
}

/** A result the actor may go on with: its own in progress (any allowed employee on a tablet). */
async function writableResult(db: Database, actor: AuditActor, resultId: string) {
  const row = await readableResult(db, actor, resultId);
  if (actor.kind === 'device') throw new AppError('auth/unauthenticated');
  if (actor.kind === 'employee') await assertEmployeeMayAudit(db, actor.employee.id);
  else if (row.result.source !== 'web' || row.result.auditor_user_id !== actor.userId) {
    throw forbidden();
  }
  return row;
}

export async function getResult(db: Database, actor: AuditActor, resultId: string) {
  const row = await readableResult(db, actor, resultId);
  return presentResult(db, row.result, row.storeName);
}

/**
 * Starts performing an audit for a store, or resumes the one in progress: a back-office user's
 * own (per audit and store), a tablet's shared by the store's allowed employees. The result
 * pins the audit's current structure version.
 */
export async function startResult(
  db: Database,
  actor: AuditActor,
  auditId: string,
  storeId: string | null,
  now: Date,
) {
  let audit: typeof audits.$inferSelect;
  let store: { id: string; name: string };
  if (actor.kind === 'device') throw new AppError('auth/unauthenticated');
  if (actor.kind === 'user') {
    audit = await findAuditInScope(db, actor.scope, auditId);
    store = await storeForAudit(db, actor.scope, audit, storeId ?? '');
  } else {
    await assertEmployeeMayAudit(db, actor.employee.id);
    const found = await deviceStore(db, actor.storeId);
    if (found.isHidden) throw new AppError('audit/extension-hidden');
    const [row] = await db.select().from(audits).where(eq(audits.id, auditId)).limit(1);
    if (!row || row.database_id !== found.database_id || !row.self_evaluation) throw notFound();
    audit = row;
    store = found;
  }
  if (!audit.published || !audit.active) throw new AppError('audit/not-published');
  const source = actor.kind === 'user' ? 'web' : 'tablet';
  const open = and(
    eq(auditResults.audit_id, audit.id),
    eq(auditResults.store_id, store.id),
    eq(auditResults.status, 'in_progress'),
    eq(auditResults.source, source),
    actor.kind === 'user' ? eq(auditResults.auditor_user_id, actor.userId) : undefined,
  );
  const findOpen = async () => {
    const [row] = await db.select().from(auditResults).where(open).limit(1);
    return row;
  };
  let row = await findOpen();
  if (!row) {
    await db
      .insert(auditResults)
      .values({
        audit_id: audit.id,
        audit_version: audit.structure_version,
        database_id: audit.database_id,
        store_id: store.id,
        source,
        auditor_user_id: actor.kind === 'user' ? actor.userId : null,
        auditor_employee_id: actor.kind === 'employee' ? actor.employee.id : null,
        auditor_name:
          actor.kind === 'user'
            ? actor.name
            : `${actor.employee.name} ${actor.employee.surname}`.trim(),
        start_date: now,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoNothing();
    row = await findOpen();
  }
  if (!row) throw new AppError('conflict/stale-version');
  return presentResult(db, row, store.name);
}

/** GET /api/audit-results/in-progress: the caller's results in progress, newest first. */
export async function listInProgress(db: Database, scope: Scope, auditId?: string) {
  const rows = await db
    .select({ result: auditResults, storeName: stores.name })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .where(
      and(
        eq(auditResults.auditor_user_id, scope.userId),
        eq(auditResults.status, 'in_progress'),
        eq(auditResults.source, 'web'),
        auditId ? eq(auditResults.audit_id, auditId) : undefined,
        storeFilter(scope),
      ),
    )
    .orderBy(desc(auditResults.updated_at))
    .limit(100);
  return { items: rows.map((row) => summaryOf(row.result, row.storeName)) };
}

/** GET /api/audits/:auditId/results: submitted results, newest first (admin and manager). */
export async function listResults(db: Database, scope: Scope, auditId: string) {
  const audit = await findAuditInScope(db, scope, auditId);
  if (!canReadResults(scope)) throw forbidden();
  const rows = await db
    .select({ result: auditResults, storeName: stores.name })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .where(
      and(
        eq(auditResults.audit_id, audit.id),
        eq(auditResults.status, 'submitted'),
        storeFilter(scope),
      ),
    )
    .orderBy(desc(auditResults.end_date), desc(auditResults.id));
  return { items: rows.map((row) => summaryOf(row.result, row.storeName)) };
}

/** Full results (for the CSV), in the order given, each readable by the caller. */
export async function readResults(db: Database, scope: Scope, auditId: string, ids: string[]) {
  const audit = await findAuditInScope(db, scope, auditId);
  if (!canReadResults(scope)) throw forbidden();
  const rows = await db
    .select({ result: auditResults, storeName: stores.name, timeZone: stores.timezone_name })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .where(
      and(
        eq(auditResults.audit_id, audit.id),
        inArray(auditResults.id, ids),
        eq(auditResults.status, 'submitted'),
        storeFilter(scope),
      ),
    );
  if (rows.length !== new Set(ids).size) throw notFound();
  const byId = new Map(rows.map((row) => [row.result.id, row]));
  const results: AuditResult[] = [];
  const timeZones = new Map<string, string>();
  for (const id of new Set(ids)) {
    const row = byId.get(id)!;
    results.push((await presentResult(db, row.result, row.storeName)).result);
    timeZones.set(id, row.timeZone);
  }
  return { audit, results, timeZones };
}

function liveQuestions(sections: AuditSection[]): Map<string, AuditQuestion> {
  return new Map(
    sections
      .filter((section) => !section.archived_at)
      .flatMap((section) =>
        section.questions
          .filter((question) => !question.archived_at)
          .map((question) => [question.id, question] as const),
      ),
  );
}

const answerFields = [
  'choices',
  'answer_yes',
  'text',
  'file_urls',
  'rating',
  'number',
  'date',
] as const;

function isEmptyAnswer(answer: AuditAnswerInput): boolean {
  const isBlank = (value: unknown) =>
    value === undefined ||
    value === null ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'string' && value === '');
  return answerFields.every((field) => isBlank(answer[field])) && isBlank(answer.comment);
}

/**
 * PATCH .../answers: each answer replaces its question's (an empty one removes it), checked
 * against the question of the result's version, stamped with server time. Nothing is written
 * when one answer is refused; a submitted result answers 409.
 */
export async function saveAnswers(
  db: Database,
  actor: AuditActor,
  resultId: string,
  answers: AuditAnswerInput[],
  now: Date,
) {
  const row = await writableResult(db, actor, resultId);
  if (row.result.status !== 'in_progress') throw new AppError('audit/result-submitted');
  const { sections } = await structureOf(db, row.result.audit_id, row.result.audit_version);
  const questions = liveQuestions(sections);
  const today = DateTime.fromJSDate(now).setZone(row.timeZone).toISODate() ?? '';
  const patch: Record<string, AuditAnswer> = {};
  const removed: string[] = [];
  for (const answer of answers) {
    const question = questions.get(answer.question_id);
    if (!question) {
      throw new AppError('audit/unknown-question', undefined, [
        { path: answer.question_id, message: 'audit/unknown-question' },
      ]);
    }
    const issue = answerIssue(question, answer, today);
    const foreignFile = (answer.file_urls ?? []).some(
      (url) => !url.startsWith(fileUrlPrefix(resultId)),
    );
    if (issue || foreignFile) {
      const code = issue ?? 'audit/answer-file';
      throw new AppError(code, undefined, [{ path: question.id, message: code }]);
    }
    if (isEmptyAnswer(answer)) {
      removed.push(question.id);
      delete patch[question.id];
      continue;
    }
    const stored: AuditAnswer = {
      question_id: question.id,
      type: question.type,
      timestamp: now.toISOString(),
      score: null,
    };
    for (const field of answerFields) {
      const value = answer[field];
      if (value !== undefined && value !== null) (stored as Record<string, unknown>)[field] = value;
    }
    if (answer.comment) stored.comment = answer.comment;
    patch[question.id] = stored;
  }
  const [saved] = await db
    .update(auditResults)
    .set({
      answers: sql`(${auditResults.answers} - array(select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb))) || ${JSON.stringify(patch)}::jsonb`,
      version: sql`${auditResults.version} + 1`,
      updated_at: now,
    })
    .where(and(eq(auditResults.id, row.result.id), eq(auditResults.status, 'in_progress')))
    .returning();
  if (!saved) throw new AppError('audit/result-submitted');
  return presentResult(db, saved, row.storeName);
}

/**
 * Submission: every required question that shows is answered (else 400 'audit/required-missing'
 * naming them), then the result is stamped (end date, the submitting auditor), scored and
 * closed. Submitting again answers the submitted result (a retried tablet send).
 */
export async function submitResult(db: Database, actor: AuditActor, resultId: string, now: Date) {
  const row = await writableResult(db, actor, resultId);
  if (row.result.status === 'submitted') return presentResult(db, row.result, row.storeName);
  const { sections } = await structureOf(db, row.result.audit_id, row.result.audit_version);
  const answers = Object.values(row.result.answers);
  const missing = missingRequired(sections, answers, (question, answer) =>
    isAnswered(question, answer),
  );
  if (missing.length > 0) {
    throw new AppError(
      'audit/required-missing',
      undefined,
      missing.map((question) => ({ path: question.id, message: 'audit/required-missing' })),
    );
  }
  const scores = scoreResult(sections, answers);
  const scoredAnswers = Object.fromEntries(
    answers.map((answer) => [
      answer.question_id,
      { ...answer, score: scores.answer_scores.get(answer.question_id) ?? null },
    ]),
  );
  const hasScore = scores.max_score > 0;
  // The submission and its records chain entry in one transaction (issue 21).
  const saved = await db.transaction(async (tx) => {
    const [submitted] = await tx
      .update(auditResults)
      .set({
        status: 'submitted',
        end_date: now,
        answers: scoredAnswers,
        score: hasScore ? scores.score : null,
        max_score: hasScore ? scores.max_score : null,
        section_scores: scores.section_scores,
        ...(actor.kind === 'employee'
          ? {
              auditor_employee_id: actor.employee.id,
              auditor_name: `${actor.employee.name} ${actor.employee.surname}`.trim(),
            }
          : {}),
        version: sql`${auditResults.version} + 1`,
        updated_at: now,
      })
      .where(and(eq(auditResults.id, row.result.id), eq(auditResults.status, 'in_progress')))
      .returning();
    if (submitted) await chainAuditResult(tx, submitted, now);
    return submitted;
  });
  if (!saved) {
    const again = await readableResult(db, actor, resultId);
    return presentResult(db, again.result, again.storeName);
  }
  return presentResult(db, saved, row.storeName);
}

/** Magic bytes of the binary answer files; text files must hold no NUL byte. */
const binarySignatures: Partial<Record<string, (head: Buffer) => boolean>> = {
  jpg: (head) => hasSignatureOf('image/jpeg', head),
  png: (head) => hasSignatureOf('image/png', head),
  gif: (head) => hasSignatureOf('image/gif', head),
  pdf: (head) => hasSignatureOf('application/pdf', head),
  // Office 97–2003 (OLE compound file) and Office Open XML (zip).
  doc: (head) => head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')),
  xls: (head) => head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')),
  ppt: (head) => head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')),
  docx: (head) => head.subarray(0, 4).equals(Buffer.from('504b0304', 'hex')),
  xlsx: (head) => head.subarray(0, 4).equals(Buffer.from('504b0304', 'hex')),
  pptx: (head) => head.subarray(0, 4).equals(Buffer.from('504b0304', 'hex')),
};

function fitsExtension(extension: string, data: Buffer): boolean {
  const check = binarySignatures[extension];
  if (check) return check(data);
  // txt, csv, svg: text.
  if (data.includes(0)) return false;
  if (extension === 'svg') return /^(\ufeff)?\s*</.test(data.subarray(0, 512).toString('utf8'));
  return true;
}

/**
 * POST .../files (multipart: question_id, then the file): a file answer of a file_upload
 * question, one of its allowed extensions with matching content, 25 MB at most. Answers the
 * address to put in the answer's file_urls.
 */
export async function saveAnswerFile(
  db: Database,
  storage: Storage,
  actor: AuditActor,
  resultId: string,
  request: FastifyRequest,
) {
  const row = await writableResult(db, actor, resultId);
  if (row.result.status !== 'in_progress') throw new AppError('audit/result-submitted');
  if (!request.isMultipart()) {
    throw new AppError('validation/invalid-input', 'Send the file as multipart/form-data.');
  }
  const file = await request.file({ limits: { fileSize: auditLimits.maxFileBytes, files: 1 } });
  if (!file) throw new AppError('validation/invalid-input', 'No file was sent.');
  const field = file.fields.question_id;
  const questionId =
    field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : '';
  const { sections } = await structureOf(db, row.result.audit_id, row.result.audit_version);
  const question = liveQuestions(sections).get(questionId);
  if (question?.type !== 'file_upload') {
    file.file.resume();
    throw new AppError('audit/unknown-question');
  }
  const rawExtension = file.filename.split('.').pop()?.toLowerCase() ?? '';
  const extension = rawExtension === 'jpeg' ? 'jpg' : rawExtension;
  if (
    !(auditFileExtensions as readonly string[]).includes(extension) ||
    !(question.options.file_extensions as string[]).includes(extension)
  ) {
    file.file.resume();
    throw new AppError('audit/answer-file');
  }
  const data = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('file/too-large');
    throw error;
  });
  if (!fitsExtension(extension, data)) throw new AppError('file/unsupported-type');
  const name = file.filename.replace(/\p{Cc}/gu, '').slice(0, 200) || `file.${extension}`;
  // The key keeps a plain form of the file's name, so the PDF and the CSV can name the file.
  const key = `audit-results/${row.result.id}/${randomUUID()}/${plainFileName(name, extension)}`;
  await storage.put(key, data);
  return { url: `/api/files/${key}`, name };
}

/** Whether a caller may read a file of a result (GET /api/files/audit-results/<id>/...). */
export async function findResultFileOwner(db: Database, scope: Scope, resultId: string) {
  const row = await loadResult(db, resultId, scope);
  if (!row) throw notFound();
  if (row.result.auditor_user_id !== scope.userId && !canReadResults(scope)) throw notFound();
  return row;
}

/** Whether a result belongs to a store (a tablet reads its store's result files). */
export async function isResultOfStore(db: Database, resultId: string, storeId: string) {
  const [row] = await db
    .select({ store_id: auditResults.store_id })
    .from(auditResults)
    .where(eq(auditResults.id, resultId))
    .limit(1);
  return row?.store_id === storeId;
}

/** Tablet: the store's self-evaluation audits, with its result in progress and last submission. */
export async function listDeviceAudits(db: Database, storeId: string) {
  const store = await deviceStore(db, storeId);
  if (store.isHidden || !store.database_id) return { items: [] };
  const rows = await db
    .select()
    .from(audits)
    .where(
      and(
        eq(audits.database_id, store.database_id),
        eq(audits.self_evaluation, true),
        eq(audits.published, true),
        eq(audits.active, true),
      ),
    )
    .orderBy(sql`lower(${audits.name})`, audits.id);
  if (rows.length === 0) return { items: [] };
  const results = await db
    .select({
      audit_id: auditResults.audit_id,
      open: sql<
        string | null
      >`(array_agg(${auditResults.id}) filter (where ${auditResults.status} = 'in_progress' and ${auditResults.source} = 'tablet'))[1]`,
      last: sql<string | null>`max(${auditResults.end_date})`,
    })
    .from(auditResults)
    .where(
      and(
        eq(auditResults.store_id, storeId),
        inArray(
          auditResults.audit_id,
          rows.map((row) => row.id),
        ),
      ),
    )
    .groupBy(auditResults.audit_id);
  const byAudit = new Map(results.map((row) => [row.audit_id, row]));
  return {
    items: rows.map((row) => {
      const found = byAudit.get(row.id);
      return {
        ...presentSummary(row),
        in_progress_result_id: found?.open ?? null,
        last_submitted_at: found?.last ? new Date(found.last).toISOString() : null,
      };
    }),
  };
}

/** The stored PDF of a submitted result, for the renderer and POST /api/pdf/audit. */
export async function pdfSubject(db: Database, scope: Scope, resultId: string) {
  const row = await loadResult(db, resultId, scope);
  if (!row) throw notFound();
  await findAuditInScope(db, scope, row.result.audit_id);
  if (row.result.auditor_user_id !== scope.userId && !canReadResults(scope)) throw notFound();
  if (row.result.status !== 'submitted') throw notFound();
  return row;
}

/** A submitted result with its store's name and zone and its database's name (the PDF's). */
export async function loadSubmitted(db: Database, resultId: string) {
  const [row] = await db
    .select({
      result: auditResults,
      storeName: stores.name,
      timeZone: stores.timezone_name,
      databaseName: databases.name,
    })
    .from(auditResults)
    .innerJoin(stores, eq(stores.id, auditResults.store_id))
    .leftJoin(databases, eq(databases.id, auditResults.database_id))
    .where(and(eq(auditResults.id, resultId), eq(auditResults.status, 'submitted')))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A store's country (the language of a tablet's PDF). */
export async function storeCountry(db: Database, storeId: string): Promise<string | null> {
  const [row] = await db
    .select({ country: stores.country })
    .from(stores)
    .where(eq(stores.id, storeId))
    .limit(1);
  return row?.country ?? null;
}

export async function setPdfKey(db: Database, resultId: string, key: string) {
  await db.update(auditResults).set({ pdf_key: key }).where(eq(auditResults.id, resultId));
}

export { presentResult };

/**
 * The submitted results of a store ended within [from, to), oldest first, with their audit's
 * name (the inspector pack, issue 21: the pack's own scope rule has been checked).
 */
export async function submittedResultsOfStore(db: Database, storeId: string, from: Date, to: Date) {
  return db
    .select({
      id: auditResults.id,
      audit_name: audits.name,
      auditor_name: auditResults.auditor_name,
      end_date: auditResults.end_date,
      score: auditResults.score,
      max_score: auditResults.max_score,
      pdf_key: auditResults.pdf_key,
    })
    .from(auditResults)
    .innerJoin(audits, eq(audits.id, auditResults.audit_id))
    .where(
      and(
        eq(auditResults.store_id, storeId),
        eq(auditResults.status, 'submitted'),
        sql`${auditResults.end_date} >= ${from.toISOString()}::timestamptz`,
        sql`${auditResults.end_date} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(sql`${auditResults.end_date} asc`, auditResults.id);
}

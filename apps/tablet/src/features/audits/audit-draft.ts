import type {
  AuditAnswerInput,
  AuditQuestion,
  AuditResult,
  AuditSection,
} from '@mise/shared/audits/schemas';
import { serverNow } from '../../shared/device/device-state';
import { i18n } from '../../shared/i18n/i18n';
import { enqueue, storePicture } from '../../shared/outbox/outbox';
import { localPicturePrefix, type OutboxRecord } from '../../shared/outbox/outbox-types';
import type { EmployeeSession } from '../../shared/session/employee-session';
import { localDb, readValue, writeValue } from '../../shared/storage/local-db';
import { answersPath, filesPath, submitPath, toAnswerInput } from './audits-api';

/*
 * An audit being performed on this tablet (issue 16), kept in IndexedDB so that nothing is
 * lost offline and reopening the app resumes: the server's last copy of the result (its
 * structure, the sections the result pins, and its status and score), the answers as this
 * tablet has them, the ones changed here and not yet handed to the outbox, the files kept here.
 *
 * Answers go to the server through the outbox only (PATCH .../answers, one question per
 * record, in order); a later answer to a question removes that question's earlier record still
 * waiting, so only the last one is sent. The submission is one more record after them.
 */

export type AuditDraft = {
  /** The server's last copy: structure (sections), status, score. */
  result: AuditResult;
  /** The answers as this tablet has them, by question id. */
  answers: Record<string, AuditAnswerInput>;
  /** Questions changed here whose answer is not in the outbox yet (typing, invalid value). */
  dirty: string[];
  /** Files kept on this tablet (`local:` references) and their names. */
  files: Record<string, string>;
  /** The section shown last (reopening resumes there). */
  section_index: number;
  /** When the submission was queued here (ms epoch), else null. */
  submitted_at: number | null;
};

const draftPrefix = 'audit-draft:';
const draftKey = (resultId: string) => `${draftPrefix}${resultId}`;
const resultPathPrefix = (resultId: string) => `/device/audit-results/${resultId}/`;

export function draftFromResult(result: AuditResult): AuditDraft {
  return {
    result,
    answers: Object.fromEntries(
      result.answers.map((answer) => [answer.question_id, toAnswerInput(answer)]),
    ),
    dirty: [],
    files: {},
    section_index: 0,
    submitted_at: null,
  };
}

export async function readDraft(resultId: string): Promise<AuditDraft | null> {
  return (await readValue<AuditDraft>(draftKey(resultId))) ?? null;
}

let writes: Promise<void> = Promise.resolve();
/** Keeps a draft (writes are made one after the other, in the order asked). */
export function writeDraft(draft: AuditDraft): Promise<void> {
  writes = writes.catch(() => undefined).then(() => writeValue(draftKey(draft.result.id), draft));
  return writes;
}

/** Every draft kept on this tablet. */
export async function listDrafts(): Promise<AuditDraft[]> {
  const range = IDBKeyRange.bound(draftPrefix, `${draftPrefix}\uffff`);
  return (await (await localDb()).getAll('kv', range)) as AuditDraft[];
}

/** The draft of an audit this tablet can go on with (in progress, not submitted here). */
export async function findOpenDraft(auditId: string): Promise<AuditDraft | null> {
  return (
    (await listDrafts()).find(
      (draft) =>
        draft.result.audit_id === auditId &&
        draft.result.status === 'in_progress' &&
        draft.submitted_at === null,
    ) ?? null
  );
}

/** The outbox's records of a result (waiting or refused), in their order. */
export async function resultRecords(resultId: string): Promise<OutboxRecord[]> {
  const prefix = resultPathPrefix(resultId);
  return (await (await localDb()).getAll('outbox')).filter((record) =>
    record.path.startsWith(prefix),
  );
}

function recordQuestionIds(record: OutboxRecord): string[] {
  const answers = (record.body as { answers?: AuditAnswerInput[] }).answers ?? [];
  return answers.map((answer) => answer.question_id);
}

/** Questions whose answer is in the outbox (waiting or refused): this tablet's answer stands. */
export async function pendingQuestionIds(resultId: string): Promise<Set<string>> {
  const records = await resultRecords(resultId);
  return new Set(
    records
      .filter((record) => record.kind === 'audit-answers')
      .flatMap((record) => recordQuestionIds(record)),
  );
}

/**
 * The server's copy taken into a draft: its structure, status and score, and its answers
 * except where this tablet's own answer is not on the server yet (changed here, or waiting in
 * the outbox). Another employee's answer sent from elsewhere shows.
 */
export function mergeResult(
  draft: AuditDraft | null,
  result: AuditResult,
  pending: ReadonlySet<string>,
): AuditDraft {
  if (!draft) return draftFromResult(result);
  const keepHere = new Set([...draft.dirty, ...pending]);
  const answers: Record<string, AuditAnswerInput> = {};
  for (const answer of result.answers)
    if (!keepHere.has(answer.question_id)) answers[answer.question_id] = toAnswerInput(answer);
  for (const questionId of keepHere) {
    const own = draft.answers[questionId];
    if (own) answers[questionId] = own;
  }
  return { ...draft, result, answers };
}

const employeeName = (session: EmployeeSession) =>
  `${session.employee.name} ${session.employee.surname}`.trim();

/**
 * Hands one question's answer to the outbox: PATCH /api/device/audit-results/:id/answers.
 * The question's earlier record still waiting is removed first (the later answer replaces it
 * anyway); a record already refused stays, with its reason. A file answer's kept files are
 * uploaded first to the result's file route (field question_id, then the file).
 */
export async function queueAnswer(
  result: Pick<AuditResult, 'id' | 'audit_name'>,
  question: Pick<AuditQuestion, 'id' | 'type'>,
  answer: AuditAnswerInput,
  session: EmployeeSession,
): Promise<OutboxRecord> {
  const path = answersPath(result.id);
  const database = await localDb();
  for (const record of await database.getAll('outbox')) {
    if (record.state !== 'waiting' || record.kind !== 'audit-answers' || record.path !== path)
      continue;
    if (recordQuestionIds(record).every((id) => id === question.id))
      await database.delete('outbox', record.seq!);
  }
  return enqueue({
    kind: 'audit-answers',
    method: 'PATCH',
    path,
    body: { answers: [{ ...toAnswerInput(answer), question_id: question.id }] },
    ...(question.type === 'file_upload'
      ? { upload: { path: filesPath(result.id), fields: { question_id: question.id } } }
      : {}),
    employee_token: session.token,
    employee_name: employeeName(session),
    label: i18n.t('audits.outboxAnswer', { audit: result.audit_name }),
    task_id: null,
  });
}

/** The submission, after the answers: POST /api/device/audit-results/:id/submit. */
export function queueSubmit(
  result: Pick<AuditResult, 'id' | 'audit_name'>,
  session: EmployeeSession,
): Promise<OutboxRecord> {
  return enqueue({
    kind: 'audit-submit',
    path: submitPath(result.id),
    body: {},
    employee_token: session.token,
    employee_name: employeeName(session),
    label: i18n.t('audits.outboxSubmit', { audit: result.audit_name }),
    task_id: null,
  });
}

/** Keeps a file (a photo, a document) on the tablet; the answer holds the reference. */
export function keepFile(file: Blob, name: string): Promise<string> {
  return storePicture(file, Date.now(), name);
}

export const isLocalFile = (url: string) => url.startsWith(localPicturePrefix);

/**
 * Forgets the drafts the server has closed (submitted here and sent, or submitted elsewhere)
 * once none of their records is left in the outbox, with the files they kept.
 */
export async function cleanUpDrafts(openResultIds: ReadonlySet<string>): Promise<void> {
  const database = await localDb();
  const records = await database.getAll('outbox');
  for (const draft of await listDrafts()) {
    const id = draft.result.id;
    const isClosed =
      draft.result.status === 'submitted' ||
      (draft.submitted_at !== null && !openResultIds.has(id));
    if (!isClosed || records.some((record) => record.path.startsWith(resultPathPrefix(id))))
      continue;
    for (const reference of Object.keys(draft.files))
      await database.delete('pictures', reference.slice(localPicturePrefix.length));
    await database.delete('kv', draftKey(id));
  }
}

/** The store's day (YYYY-MM-DD) on the server's clock: what a date limit is checked against. */
export function storeToday(timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(serverNow());
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The live questions of a structure by id (conditions are read among them). */
export function questionsById(sections: AuditSection[]): Map<string, AuditQuestion> {
  return new Map(
    sections
      .filter((section) => !section.archived_at)
      .flatMap((section) => section.questions.filter((question) => !question.archived_at))
      .map((question) => [question.id, question]),
  );
}

/** An answer as the shared checks read it: kept files named by their file name (extension). */
export function answerForCheck(
  answer: AuditAnswerInput,
  files: Record<string, string>,
): AuditAnswerInput {
  if (!answer.file_urls) return answer;
  return { ...answer, file_urls: answer.file_urls.map((url) => files[url] ?? url) };
}

import { createHash, randomBytes } from 'node:crypto';
import { resultAnomalies } from '@mise/shared/history/rules';
import type { TaskModule } from '@mise/shared/tasks/constants';
import {
  dayInZone,
  madeAtOnServerClock,
  type TaskWindow,
  taskWindow,
  taskWindowState,
  writeInstant,
} from '@mise/shared/tasks/rules';
import {
  actionsResultSchema,
  type controlEmployeeSchema,
  type DeviceTask,
  oilsResultSchema,
  type postponeBodySchema,
  type submitResultBodySchema,
  temperatureControlInputSchema,
  type temperatureControlResultSchema,
  temperaturesResultSchema,
  traceabilityResultSchema,
} from '@mise/shared/tasks/schemas';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { stores, taskResultRevisions, tasks } from '../../db/schema';
import { canonicalJson } from '../../platform/canonical-json';
import { AppError, notFound } from '../../platform/errors';
import type { Storage } from '../../platform/storage';
import { appendToChain } from '../records/chain';
import { taskResultRevisionContent } from '../records/sources/task-result-revisions';
import { presentDeviceTask, type TaskRow } from './present-task';

/*
 * Task completion and postponing from a tablet (spec 002 §3, §4). Every write is a row of
 * task_result_revisions (HACCP records are never silently overwritten) and the task row keeps
 * the latest state. Writes carry an idempotency key, unique per store: a retry with the same
 * body answers the stored outcome and writes nothing; another body answers 409.
 */

export type SubmitResultBody = z.infer<typeof submitResultBodySchema>;
export type PostponeBody = z.infer<typeof postponeBodySchema>;

/** Who writes: the paired device, its store, the employee identified on it. */
export type TaskActor = {
  deviceId: string;
  storeId: string;
  employee: { id: string; name: string; surname: string };
};

const resultSchemas = {
  temperatures: temperaturesResultSchema,
  traceability: traceabilityResultSchema,
  actions: actionsResultSchema,
  oils: oilsResultSchema,
  temperature_control: temperatureControlInputSchema,
} as const satisfies Record<TaskModule, unknown>;

/** Storage prefix of a store's task pictures (POST /api/device/pictures builds keys under it). */
export function taskPicturePrefix(storeId: string): string {
  return `stores/${storeId}/tasks/`;
}

/**
 * Stores a picture a tablet took under a key the server builds:
 * {prefix}{yyyy-mm of the store's today}/{128 random bits}.{ext} (task pictures, selfies).
 */
export async function saveTabletPicture(
  db: Database,
  storage: Storage,
  storeId: string,
  prefix: string,
  image: { data: Buffer; extension: string },
): Promise<{ path: string; url: string }> {
  const month = dayInZone(new Date(), await storeZone(db, storeId)).slice(0, 7);
  const path = `${prefix}${month}/${randomBytes(16).toString('hex')}.${image.extension}`;
  await storage.put(path, image.data);
  return { path, url: `/api/files/${path}` };
}

const pictureNamePattern = /^\d{4}-\d{2}\/[a-f0-9]{32}\.(png|jpg|webp)$/;

/** Whether a path is a key saveTabletPicture built under this prefix. */
export function isTabletPicture(prefix: string, path: string): boolean {
  return path.startsWith(prefix) && pictureNamePattern.test(path.slice(prefix.length));
}

/** A task picture: stores/{storeId}/tasks/{yyyy-mm}/{random}.{ext}. */
export function saveTaskPicture(
  db: Database,
  storage: Storage,
  storeId: string,
  image: { data: Buffer; extension: string },
): Promise<{ path: string; url: string }> {
  return saveTabletPicture(db, storage, storeId, taskPicturePrefix(storeId), image);
}

function isTaskPicture(storeId: string, path: string): boolean {
  return isTabletPicture(taskPicturePrefix(storeId), path);
}

export function requestHash(
  kind: 'result' | 'postpone' | 'create',
  taskId: string,
  body: unknown,
): string {
  return createHash('sha256')
    .update(canonicalJson({ kind, task_id: taskId, body }))
    .digest('hex');
}

const invalidResult = () => new AppError('task/invalid-result');

/**
 * The result checked against the task: the module's own shape; elements among the task's
 * elements and actions among its actions, each at most once; an action done that requires a
 * picture has one; pictures are keys under this store's task pictures. Action names and
 * picture requirements are the task's (the record says what was asked).
 */
export function checkTaskResult(task: TaskRow, result: unknown): unknown {
  const parsed = resultSchemas[task.module].safeParse(result);
  if (!parsed.success) throw invalidResult();
  const pictures: string[] = [];
  const seen = new Set<string | number>();
  const once = (key: string | number) => {
    if (seen.has(key)) throw invalidResult();
    seen.add(key);
  };
  if (task.module === 'actions') {
    const value = parsed.data as z.infer<typeof actionsResultSchema>;
    const entries = value.entries.map((entry) => {
      const action = task.actions[entry.index];
      if (!action) throw invalidResult();
      once(entry.index);
      if (entry.done && action.requires_picture && !entry.picture) throw invalidResult();
      if (entry.picture) pictures.push(entry.picture.path);
      return { ...entry, action: action.name, requires_picture: action.requires_picture };
    });
    // Every action of the task is answered (done or not): no empty or partial record.
    if (entries.length !== task.actions.length) throw invalidResult();
    for (const path of pictures) if (!isTaskPicture(task.store_id, path)) throw invalidResult();
    return { entries };
  }
  const elementIds = new Set(task.elements.map((element) => element.id));
  const entries = (parsed.data as { entries: { element: string; pictures?: { path: string }[] }[] })
    .entries;
  for (const entry of entries) {
    if (!elementIds.has(entry.element)) throw invalidResult();
    once(entry.element);
    for (const picture of entry.pictures ?? []) pictures.push(picture.path);
  }
  // Exactly one entry per element of the task (a null temperature is 'Non prise', still an entry).
  if (seen.size !== elementIds.size) throw invalidResult();
  for (const path of pictures) if (!isTaskPicture(task.store_id, path)) throw invalidResult();
  return parsed.data;
}

/** The time zone of a store (its calendar days and "today"). */
export async function storeZone(db: Database, storeId: string): Promise<string> {
  const [store] = await db
    .select({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.id, storeId))
    .limit(1);
  if (!store) throw notFound();
  return store.zone;
}

/**
 * GET /api/device/tasks: the tasks of a paired device's store on one local day (default the
 * store's today), by start, each with its status at `now` and its completion window (when it
 * opens and closes, and whether it is not open yet, open or closed).
 */
export async function listDeviceDayTasks(
  db: Database,
  storeId: string,
  day: string | undefined,
  now = new Date(),
): Promise<{ day: string; items: DeviceTask[] }> {
  const zone = await storeZone(db, storeId);
  const today = dayInZone(now, zone);
  const wanted = day ?? today;
  const rows = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.store_id, storeId), eq(tasks.day, wanted)))
    .orderBy(asc(tasks.start), asc(tasks.name), asc(tasks.id));
  return { day: wanted, items: rows.map((row) => presentDeviceTask(row, now, zone, today)) };
}

/**
 * A task is written from a tablet (completed, corrected, postponed) only inside its window:
 * from its start less the tolerance until the end of its store day (409 'task/not-open-yet',
 * 'task/closed'), by the shared rule the day list shows.
 */
function requireOpenWindow(window: TaskWindow, now: Date): void {
  const state = taskWindowState(window, now);
  if (state === 'not_open_yet') throw new AppError('task/not-open-yet');
  if (state === 'closed') throw new AppError('task/closed');
}

type ControlEmployee = z.infer<typeof controlEmployeeSchema>;
type ControlEntry = z.infer<typeof temperatureControlResultSchema>['entries'][number];
type ControlInput = z.infer<typeof temperatureControlInputSchema>;

const sameValue = (left: unknown, right: unknown) => (left ?? null) === (right ?? null);

/**
 * A temperature control written in one or two steps (spec 002 §3). Each entry gets
 * `start_employee` when its start is recorded and `end_employee` when its end is, from the
 * employee token of the step that recorded it. Outside a correction a recorded step is never
 * changed: an entry whose start (mode, target, start temperature and time) or end (end
 * temperature and time) is already on the task must be sent unchanged (409
 * 'task/control-recorded'), and keeps its employee. A correction (reason given, the task
 * completed) may change the values and keeps the recorded employees (the corrector is on
 * the revision). Complete when every entry has its end.
 */
function recordTemperatureControl(
  stored: unknown,
  input: ControlInput,
  employee: ControlEmployee,
  isCorrection: boolean,
): { result: { entries: ControlEntry[] }; isComplete: boolean } {
  const storedEntries = (stored as { entries?: unknown } | null)?.entries;
  const priorOf = new Map<string, Partial<ControlEntry>>(
    (Array.isArray(storedEntries) ? (storedEntries as Partial<ControlEntry>[]) : [])
      .filter((entry) => entry && typeof entry.element === 'string')
      .map((entry) => [entry.element as string, entry]),
  );
  const entries = input.entries.map((entry): ControlEntry => {
    const prior = priorOf.get(entry.element);
    const hasPriorStart = prior?.start_timestamp !== null && prior?.start_timestamp !== undefined;
    const hasPriorEnd = prior?.end_timestamp !== null && prior?.end_timestamp !== undefined;
    if (!isCorrection && prior) {
      const keepsStart =
        !hasPriorStart ||
        (sameValue(prior.mode, entry.mode) &&
          sameValue(prior.target_temperature, entry.target_temperature) &&
          sameValue(prior.start_temperature, entry.start_temperature) &&
          sameValue(prior.start_timestamp, entry.start_timestamp));
      const keepsEnd =
        !hasPriorEnd ||
        (sameValue(prior.end_temperature, entry.end_temperature) &&
          sameValue(prior.end_timestamp, entry.end_timestamp));
      if (!keepsStart || !keepsEnd) throw new AppError('task/control-recorded');
    }
    const attribution = (isRecorded: boolean, hasPrior: boolean, priorEmployee: unknown) => {
      if (!isRecorded) return null;
      if (hasPrior) return (priorEmployee as ControlEmployee | null | undefined) ?? null;
      return isCorrection ? null : employee;
    };
    return {
      ...entry,
      start_employee: attribution(
        entry.start_timestamp !== null,
        hasPriorStart,
        prior?.start_employee,
      ),
      end_employee: attribution(entry.end_timestamp !== null, hasPriorEnd, prior?.end_employee),
    };
  });
  return {
    result: { entries },
    isComplete: entries.every((entry) => entry.end_timestamp !== null),
  };
}

export async function findStoreTask(
  db: Database,
  storeId: string,
  taskId: string,
): Promise<TaskRow> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, taskId), eq(tasks.store_id, storeId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export type RevisionRow = typeof taskResultRevisions.$inferSelect;

export async function findRevisionByKey(
  db: Database,
  storeId: string,
  key: string,
): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(taskResultRevisions)
    .where(
      and(eq(taskResultRevisions.store_id, storeId), eq(taskResultRevisions.idempotency_key, key)),
    )
    .limit(1);
  return row;
}

export function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/** A key already used: the same request answers its outcome, another one is a conflict. */
class Replay extends Error {
  constructor(readonly revision: RevisionRow) {
    super('idempotent replay');
  }
}

function replayOf(revision: RevisionRow | undefined, hash: string): Replay | null {
  if (!revision) return null;
  if (revision.request_hash !== hash) throw new AppError('idempotency/conflict');
  return new Replay(revision);
}

/**
 * Runs a keyed write in one transaction: lock the store's task (with its store's zone, one
 * round trip), check the key under the lock (a key seen before answers through `answer`; a
 * racing retry waits for the first and then sees its revision), then `write`. A unique
 * violation on the key (the same key sent for two tasks at once) is answered like a replay.
 * A retry is rare, so a fresh write does not pay a look-up of its key before the transaction.
 */
async function keyedWrite<T>(
  db: Database,
  storeId: string,
  taskId: string,
  key: string,
  hashOf: (task: TaskRow) => string,
  write: (tx: Database, task: TaskRow, zone: string, hash: string) => Promise<T>,
  answer: (revision: RevisionRow, zone: string) => Promise<T>,
): Promise<T> {
  let locked: { zone: string; hash: string } | undefined;
  try {
    return await db.transaction(async (tx) => {
      const [found] = await tx
        .select({ task: tasks, zone: stores.timezone_name })
        .from(tasks)
        .innerJoin(stores, eq(stores.id, tasks.store_id))
        .where(and(eq(tasks.id, taskId), eq(tasks.store_id, storeId)))
        .for('update', { of: tasks });
      if (!found) throw notFound();
      locked = { zone: found.zone, hash: hashOf(found.task) };
      const earlier = replayOf(await findRevisionByKey(tx as Database, storeId, key), locked.hash);
      if (earlier) throw earlier;
      return write(tx as Database, found.task, found.zone, locked.hash);
    });
  } catch (error) {
    if (error instanceof Replay) return answer(error.revision, locked!.zone);
    if (locked && isUniqueViolation(error)) {
      const stored = replayOf(await findRevisionByKey(db, storeId, key), locked.hash);
      if (stored) return answer(stored.revision, locked.zone);
    }
    throw error;
  }
}

/**
 * Writes a result on a task locked in the caller's transaction (the rules of
 * POST /api/device/tasks/:id/result): not postponed, inside its window, a reason to correct a
 * completed task, the result checked against the task, a temperature control's steps
 * attributed, a revision row (with the request's key and hash), the task row updated with the
 * anomaly flag. Throws an AppError and writes nothing when refused.
 */
export async function writeTaskResult(
  tx: Database,
  actor: TaskActor,
  locked: TaskRow,
  body: SubmitResultBody,
  hash: string,
  zone: string,
  now: Date,
  sentAt: Date | null = null,
): Promise<DeviceTask> {
  if (locked.postponed_task !== null) throw new AppError('task/postponed');
  const reportedAt = body.completed_timestamp ? new Date(body.completed_timestamp) : null;
  // A record made inside its window and delivered once it closed (offline) is judged, and
  // kept, at the time it was made on the server's clock (lateDeliveryGraceHours at most).
  const window = taskWindow(locked, zone);
  const at = writeInstant(window, madeAtOnServerClock(reportedAt, sentAt, now), now);
  requireOpenWindow(window, at);
  const isCorrection = locked.completed_timestamp !== null;
  if (isCorrection && !body.reason) throw new AppError('task/already-completed');
  let result = checkTaskResult(locked, body.result);
  let isComplete = true;
  if (locked.module === 'temperature_control') {
    const control = recordTemperatureControl(
      locked.result,
      result as ControlInput,
      { id: actor.employee.id, name: actor.employee.name, surname: actor.employee.surname },
      isCorrection,
    );
    // A correction cannot take a completed control back to "started".
    if (isCorrection && !control.isComplete) throw invalidResult();
    result = control.result;
    isComplete = control.isComplete;
  }
  // The record's time is the server's (a tablet clock cannot backdate it): its now, or for a
  // late delivery the time it was made, on the server's clock.
  const completedAt = isCorrection ? locked.completed_timestamp! : isComplete ? at : null;
  const employee = { name: actor.employee.name, surname: actor.employee.surname };
  const revision = locked.revision + 1;
  const result_anomaly = resultAnomalies(locked.module, locked.elements, result).length > 0;
  const [written] = await tx
    .insert(taskResultRevisions)
    .values({
      task_id: locked.id,
      store_id: locked.store_id,
      revision,
      kind: 'result',
      result,
      completed_timestamp: completedAt,
      reported_timestamp: reportedAt,
      employee_id: actor.employee.id,
      employee,
      device_id: actor.deviceId,
      reason: body.reason ?? null,
      idempotency_key: body.idempotency_key,
      request_hash: hash,
    })
    .returning();
  const [updated] = await tx
    .update(tasks)
    .set(
      isCorrection || !isComplete
        ? // The first completer stays on the task; the correction's author is on its
          // revision (a control's start step completes nothing yet).
          { result, result_anomaly, revision, updated_at: now }
        : {
            result,
            result_anomaly,
            completed_timestamp: completedAt,
            completed_employee: actor.employee.id,
            employee,
            revision,
            updated_at: now,
          },
    )
    .where(eq(tasks.id, locked.id))
    .returning();
  // Last in the transaction: the store's chain head stays locked until the commit.
  await chainTaskResultRevision(tx, written!);
  return presentDeviceTask(updated!, now, zone);
}

/** Appends a revision just written (the row as stored) to its store's records chain. */
function chainTaskResultRevision(tx: Database, row: RevisionRow) {
  return appendToChain(tx, {
    storeId: row.store_id,
    kind: 'task_result_revision',
    recordId: row.id,
    record: taskResultRevisionContent(row),
  });
}

/**
 * POST /api/device/tasks/:id/result. The task must be the device store's (404). A postponed
 * task cannot be completed (409 'task/postponed'); a task is written only inside its window
 * (409 'task/not-open-yet' before its start less the tolerance, 'task/closed' after the end of
 * its store day), corrections included. A completed task needs a reason (409
 * 'task/already-completed' otherwise) and then gets a new revision. The task's completion
 * time is the server's now at the first completion and never changes (corrections keep it and
 * the first completer); the tablet's time is kept only on the revision (reported_timestamp).
 * A temperature control whose entries are not all ended records its start step: the result
 * and a revision are written, the task stays to complete (see recordTemperatureControl).
 * A refused write writes nothing (task row, revisions, summaries).
 */
export async function submitTaskResult(
  db: Database,
  actor: TaskActor,
  taskId: string,
  body: SubmitResultBody,
  now = new Date(),
  sentAt: Date | null = null,
): Promise<DeviceTask> {
  return keyedWrite(
    db,
    actor.storeId,
    taskId,
    body.idempotency_key,
    (task) => requestHash('result', task.id, body),
    (tx, locked, zone, hash) => writeTaskResult(tx, actor, locked, body, hash, zone, now, sentAt),
    async (revision, zone) =>
      presentDeviceTask(await findStoreTask(db, actor.storeId, revision.task_id), now, zone),
  );
}

/**
 * POST /api/device/tasks/:id/postpone. The new start must be later than now and within the
 * task's store day (400 'task/postpone-in-past', 'task/postpone-outside-day'); a task whose
 * day is over cannot be postponed (409 'task/closed'); only a task of the store's today that
 * is neither completed nor postponed can be postponed (409 'task/postpone-not-allowed'), open
 * or not yet open (postponing is rescheduling, not a record). A copy of the task is created at the new
 * start (its day is the store's local day of that start; no generation key; original_task =
 * the old task) and the old task points to it (status postponed) with the postponing employee
 * and a 'postpone' revision. Answers the new task.
 */
export async function postponeTask(
  db: Database,
  actor: TaskActor,
  taskId: string,
  body: PostponeBody,
  now = new Date(),
): Promise<DeviceTask> {
  const answer = async (revision: RevisionRow, zone: string) => {
    const target = (revision.result as { postponed_task?: string } | null)?.postponed_task;
    const row = await findStoreTask(db, actor.storeId, target ?? revision.task_id);
    return presentDeviceTask(row, now, zone);
  };
  const start = new Date(body.start);
  return keyedWrite(
    db,
    actor.storeId,
    taskId,
    body.idempotency_key,
    (task) => requestHash('postpone', task.id, body),
    async (tx, locked, zone, hash) => {
      if (start.getTime() <= now.getTime()) throw new AppError('task/postpone-in-past');
      const window = taskWindow(locked, zone);
      if (taskWindowState(window, now) === 'closed') throw new AppError('task/closed');
      // The copy belongs to the same store day: postponing cannot carry a check to another day.
      if (start.getTime() >= window.closesAt.getTime())
        throw new AppError('task/postpone-outside-day');
      if (
        locked.completed_timestamp !== null ||
        locked.postponed_task !== null ||
        locked.day !== dayInZone(now, zone)
      ) {
        throw new AppError('task/postpone-not-allowed');
      }
      const [copy] = await tx
        .insert(tasks)
        .values({
          store_id: locked.store_id,
          database_id: locked.database_id,
          configuration_id: locked.configuration_id,
          store_configuration_id: locked.store_configuration_id,
          generation_key: null,
          day: dayInZone(start, zone),
          name: locked.name,
          module: locked.module,
          type_name: locked.type_name,
          type_color: locked.type_color,
          start,
          duration: locked.duration,
          requires_manager: locked.requires_manager,
          notify_late: locked.notify_late,
          elements: locked.elements,
          actions: locked.actions,
          original_task: locked.id,
        })
        .returning();
      const employee = { name: actor.employee.name, surname: actor.employee.surname };
      const revision = locked.revision + 1;
      const [written] = await tx
        .insert(taskResultRevisions)
        .values({
          task_id: locked.id,
          store_id: locked.store_id,
          revision,
          kind: 'postpone',
          result: { postponed_task: copy!.id, start: start.toISOString() },
          completed_timestamp: null,
          employee_id: actor.employee.id,
          employee,
          device_id: actor.deviceId,
          reason: null,
          idempotency_key: body.idempotency_key,
          request_hash: hash,
        })
        .returning();
      await tx
        .update(tasks)
        .set({
          postponed_task: copy!.id,
          completed_employee: actor.employee.id,
          employee,
          revision,
          updated_at: now,
        })
        .where(eq(tasks.id, locked.id));
      await chainTaskResultRevision(tx, written!);
      return presentDeviceTask(copy!, now, zone);
    },
    answer,
  );
}

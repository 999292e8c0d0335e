import {
  type CreateUnscheduledTaskBody,
  unscheduledControlDefaultDurationMinutes,
  unscheduledTraceabilityDurationMinutes,
} from '@mise/shared/device/schemas';
import { dayInZone, madeAtWithinGrace } from '@mise/shared/tasks/rules';
import type { DeviceTask } from '@mise/shared/tasks/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, stores, tasks } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import { findTaskElement, type TaskElement } from '../elements/device-elements';
import { mergeHiddenModules } from '../stores/stores.service';
import { presentDeviceTask } from './present-task';
import {
  findRevisionByKey,
  findStoreTask,
  isUniqueViolation,
  type RevisionRow,
  requestHash,
  type TaskActor,
  writeTaskResult,
} from './task-results.service';

/*
 * POST /api/device/tasks (issue 14): an "unscheduled task" (spec 002 §3: traceability and
 * temperature control are created by the employee when the work happens), created with its
 * first result in one transaction. The tablet chooses the task's id so it can refer to the
 * task offline (the end of a temperature control is then sent to
 * POST /api/device/tasks/:id/result). The result goes through the path of every other
 * result (writeTaskResult): revision row with the key, attribution, anomaly flag.
 */

/** The task's duration (minutes): see docs/decisions.md "unscheduled tasks". */
export function unscheduledDuration(body: CreateUnscheduledTaskBody, element: TaskElement): number {
  if (body.module === 'traceability') return unscheduledTraceabilityDurationMinutes;
  const mode = body.result.entries[0]?.mode;
  const duration = mode === 'reheating' ? element.reheating_duration : element.cooling_duration;
  return duration && duration > 0 ? duration : unscheduledControlDefaultDurationMinutes;
}

/** A key already used: the same request answers its task, another one is a conflict. */
function replayedTask(revision: RevisionRow | undefined, hash: string): string | null {
  if (!revision) return null;
  if (revision.request_hash !== hash) throw new AppError('idempotency/conflict');
  return revision.task_id;
}

/**
 * Creates the task and records its result. Refusals, nothing written: the element is not an
 * active element of the store (404 'task/unknown-element'), its module is off on the element
 * or hidden on the store or its database (409 'task/element-module-inactive'), the result does
 * not match (400 'task/invalid-result'), the id is another task's, of this store or another
 * (409 'task/id-conflict'), the key was used for another request (409 'idempotency/conflict').
 * A retry with the same key and body answers the task as it is now and writes nothing.
 */
export async function createUnscheduledTask(
  db: Database,
  actor: TaskActor,
  body: CreateUnscheduledTaskBody,
  now = new Date(),
  sentAt: Date | null = null,
): Promise<DeviceTask> {
  const hash = requestHash('create', body.id, body);
  // Made offline: the task is of the time the work happened (on the server's clock, within
  // the late-delivery grace), not of its arrival: its day, start and completion.
  const at = madeAtWithinGrace(body.completed_timestamp, sentAt, now);
  const [store] = await db
    .select({
      id: stores.id,
      database_id: stores.database_id,
      timezone_name: stores.timezone_name,
      hidden_modules: stores.hidden_modules,
      database_hidden_modules: databases.hidden_modules,
    })
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(eq(stores.id, actor.storeId))
    .limit(1);
  if (!store) throw notFound();
  const zone = store.timezone_name;
  const answer = async (taskId: string) =>
    presentDeviceTask(await findStoreTask(db, actor.storeId, taskId), now, zone);

  const earlier = replayedTask(
    await findRevisionByKey(db, actor.storeId, body.idempotency_key),
    hash,
  );
  if (earlier) return answer(earlier);
  const [taken] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, body.id));
  if (taken) throw new AppError('task/id-conflict');

  const element = await findTaskElement(db, store, body.element);
  if (!element) throw new AppError('task/unknown-element');
  const isModuleActive =
    body.module === 'traceability'
      ? element.traceability_module_active
      : element.temperature_control_module_active;
  const hidden = mergeHiddenModules(store.hidden_modules, store.database_hidden_modules);
  if (!isModuleActive || hidden.includes(body.module)) {
    throw new AppError('task/element-module-inactive');
  }

  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(tasks)
        .values({
          id: body.id,
          store_id: store.id,
          database_id: store.database_id,
          configuration_id: null,
          store_configuration_id: null,
          generation_key: null,
          day: dayInZone(at, zone),
          name: element.snapshot.name,
          module: body.module,
          type_name: null,
          type_color: null,
          start: at,
          duration: unscheduledDuration(body, element),
          requires_manager: false,
          notify_late: false,
          elements: [element.snapshot],
          actions: [],
        })
        .returning();
      return writeTaskResult(
        tx as Database,
        actor,
        created!,
        {
          idempotency_key: body.idempotency_key,
          result: body.result,
          ...(body.completed_timestamp ? { completed_timestamp: body.completed_timestamp } : {}),
        },
        hash,
        zone,
        at,
      );
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A racing retry won: the same request answers its task; any other is a conflict.
    const stored = replayedTask(
      await findRevisionByKey(db, actor.storeId, body.idempotency_key),
      hash,
    );
    if (stored) return answer(stored);
    throw new AppError('task/id-conflict');
  }
}

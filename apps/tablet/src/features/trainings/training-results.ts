import type { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../shared/i18n/i18n';
import { enqueue } from '../../shared/outbox/outbox';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { currentSession, type EmployeeSession } from '../../shared/session/employee-session';
import {
  allTrainingsKey,
  type DeviceTraining,
  type DeviceTrainings,
  keepDeviceTrainings,
  type TrainingStep,
  trainingResultPath,
  trainingsKey,
} from './trainings-api';

/*
 * An employee's steps through a training (issue 18), each one outbox record ('training-result')
 * with its idempotency key made once when it is queued, as a communication's steps: a retry
 * after a lost answer, or a tap twice, writes once. The lists show the steps still waiting at
 * once (read, put off, completed); the server's answer to a sent step replaces the item.
 */

const labels = {
  view: 'trainings.outboxView',
  skip: 'trainings.outboxSkip',
  complete: 'trainings.outboxComplete',
} as const;

let queued: Promise<unknown> = Promise.resolve();

/** Queues one step: POST /api/device/trainings/:id/result (steps keep the order asked). */
export function queueTrainingStep(
  training: Pick<DeviceTraining, 'id' | 'name'>,
  step: TrainingStep,
  session: EmployeeSession,
): Promise<OutboxRecord> {
  const record = queued
    .catch(() => undefined)
    .then(() =>
      enqueue({
        kind: 'training-result',
        path: trainingResultPath(training.id),
        body: { ...step },
        employee_token: session.token,
        employee_name: `${session.employee.name} ${session.employee.surname}`.trim(),
        label: i18n.t(labels[step.action], { name: training.name }),
        task_id: null,
      }),
    );
  queued = record;
  return record;
}

/** Resolves once every step asked so far is in the outbox (a reader closing queues one). */
export async function trainingStepsQueued(): Promise<void> {
  await queued.catch(() => undefined);
}

/**
 * Keys of the records the server has answered, whose answer is already in the list: between
 * the answer and the outbox's next refresh the record still shows as waiting, and must not be
 * counted twice (a skip would add one more).
 */
const deliveredKeys = new Set<string>();

const isStepOf = (record: OutboxRecord, trainingId: string) =>
  record.kind === 'training-result' &&
  record.path === trainingResultPath(trainingId) &&
  !deliveredKeys.has(record.idempotency_key);

/** The waiting records of a training's steps, in their order. */
export function waitingTrainingSteps(
  records: readonly OutboxRecord[],
  trainingId: string,
): OutboxRecord[] {
  return records.filter((record) => record.state === 'waiting' && isStepOf(record, trainingId));
}

/** The training's last refused step, if any (kept in the outbox with its reason). */
export function refusedTrainingStep(
  records: readonly OutboxRecord[],
  trainingId: string,
): OutboxRecord | undefined {
  return records
    .filter((record) => record.state === 'refused' && isStepOf(record, trainingId))
    .at(-1);
}

export const stepAction = (record: OutboxRecord) => (record.body as { action?: string }).action;

/** The training as it will be once its waiting steps are sent (the server's rules). */
export function withWaitingSteps(
  item: DeviceTraining,
  waiting: readonly OutboxRecord[],
): DeviceTraining {
  let next = item;
  for (const record of waitingTrainingSteps(waiting, item.id)) {
    const action = stepAction(record);
    const isCompleted = next.completed_at !== null;
    next = { ...next, unread: false };
    // A completed training is not put off any more.
    if (action === 'skip' && !isCompleted)
      next = { ...next, skipped_count: next.skipped_count + 1 };
    if (action === 'complete' && !isCompleted)
      next = { ...next, completed_at: new Date(record.created_at).toISOString() };
  }
  return next;
}

/** A required training the employee has not completed: shown first, and asked at identification. */
export const isRequiredToDo = (item: DeviceTraining) => item.required && item.completed_at === null;

/**
 * The server's order: required ones not done, then the others not done, then the done ones;
 * inside each, the server's own order (the newest first) is kept.
 */
export function sortTrainings(items: readonly DeviceTraining[]): DeviceTraining[] {
  const rank = (item: DeviceTraining) => (item.completed_at ? 2 : item.required ? 0 : 1);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

/** The list with the waiting steps applied, in the server's order. */
export function listWithWaitingSteps(
  items: readonly DeviceTraining[],
  waiting: readonly OutboxRecord[],
): DeviceTraining[] {
  return sortTrainings(items.map((item) => withWaitingSteps(item, waiting)));
}

/** Marks a training as read in the identified employee's list, while it is open. */
export function markReadHere(queryClient: QueryClient, employeeId: string, trainingId: string) {
  queryClient.setQueryData<DeviceTrainings>(trainingsKey(employeeId), (old) =>
    old
      ? {
          items: old.items.map((item) =>
            item.id === trainingId ? { ...item, unread: false } : item,
          ),
        }
      : old,
  );
}

/**
 * A step the server accepted: its answer replaces the item in the list of the employee who
 * made it (and in the kept copy). A step of an employee no longer identified here makes the
 * lists read again when next shown.
 */
export function applySentStep(queryClient: QueryClient, record: OutboxRecord, answer: unknown) {
  if (record.kind !== 'training-result') return;
  deliveredKeys.add(record.idempotency_key);
  const sent = (answer as { training?: DeviceTraining } | null)?.training;
  const session = currentSession();
  if (!sent || !session || session.token !== record.employee_token) {
    void queryClient.invalidateQueries({ queryKey: allTrainingsKey });
    return;
  }
  const employeeId = session.employee.id;
  const list = queryClient.setQueryData<DeviceTrainings>(trainingsKey(employeeId), (old) =>
    old ? { items: old.items.map((item) => (item.id === sent.id ? sent : item)) } : old,
  );
  if (list) void keepDeviceTrainings(employeeId, list);
}

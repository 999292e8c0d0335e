import type { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../shared/i18n/i18n';
import { enqueue } from '../../shared/outbox/outbox';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { currentSession, type EmployeeSession } from '../../shared/session/employee-session';
import {
  allCommunicationsKey,
  communicationsKey,
  type DeviceCommunication,
  type DeviceCommunications,
  keepDeviceCommunications,
  type ResultStep,
  resultPath,
} from './communications-api';

/*
 * An employee's steps through a communication (issue 18), each one outbox record
 * ('communication-result') with its idempotency key made once when it is queued: a retry after
 * a lost answer, or a tap twice, writes once. The lists show the steps still waiting at once
 * (read, put off, completed); the server's answer to a sent step replaces the item.
 */

const labels = {
  view: 'communications.outboxView',
  skip: 'communications.outboxSkip',
  complete: 'communications.outboxComplete',
} as const;

let queued: Promise<unknown> = Promise.resolve();

/** Queues one step: POST /api/device/communications/:id/result (steps keep the order asked). */
export function queueResult(
  communication: Pick<DeviceCommunication, 'id' | 'name'>,
  step: ResultStep,
  session: EmployeeSession,
): Promise<OutboxRecord> {
  const record = queued
    .catch(() => undefined)
    .then(() =>
      enqueue({
        kind: 'communication-result',
        path: resultPath(communication.id),
        body: { ...step },
        employee_token: session.token,
        employee_name: `${session.employee.name} ${session.employee.surname}`.trim(),
        label: i18n.t(labels[step.action], { name: communication.name }),
        task_id: null,
      }),
    );
  queued = record;
  return record;
}

/** Resolves once every step asked so far is in the outbox (a screen closing queues one). */
export async function stepsQueued(): Promise<void> {
  await queued.catch(() => undefined);
}

/**
 * Keys of the records the server has answered, whose answer is already in the list: between
 * the answer and the outbox's next refresh the record still shows as waiting, and must not be
 * counted twice (a skip would add one more).
 */
const deliveredKeys = new Set<string>();

const isStepOf = (record: OutboxRecord, communicationId: string) =>
  record.kind === 'communication-result' &&
  record.path === resultPath(communicationId) &&
  !deliveredKeys.has(record.idempotency_key);

/** The waiting records of a communication's steps, in their order. */
export function waitingSteps(
  records: readonly OutboxRecord[],
  communicationId: string,
): OutboxRecord[] {
  return records.filter(
    (record) => record.state === 'waiting' && isStepOf(record, communicationId),
  );
}

/** The communication's last refused step, if any (kept in the outbox with its reason). */
export function refusedStep(
  records: readonly OutboxRecord[],
  communicationId: string,
): OutboxRecord | undefined {
  return records
    .filter((record) => record.state === 'refused' && isStepOf(record, communicationId))
    .at(-1);
}

const actionOf = (record: OutboxRecord) => (record.body as { action?: string }).action;

/** The communication as it will be once its waiting steps are sent. */
export function withWaitingSteps(
  item: DeviceCommunication,
  waiting: readonly OutboxRecord[],
): DeviceCommunication {
  let next = item;
  for (const record of waitingSteps(waiting, item.id)) {
    const action = actionOf(record);
    next = { ...next, unread: false };
    if (action === 'skip') next = { ...next, skipped_count: next.skipped_count + 1 };
    if (action === 'complete' && next.completed_at === null)
      next = { ...next, completed_at: new Date(record.created_at).toISOString() };
  }
  return next;
}

/** The server's order: not completed first, then the newest start first. */
export function sortCommunications(items: DeviceCommunication[]): DeviceCommunication[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        Number(a.item.completed_at !== null) - Number(b.item.completed_at !== null) ||
        Date.parse(b.item.start) - Date.parse(a.item.start) ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}

/** The list with the waiting steps applied, in the server's order. */
export function listWithWaitingSteps(
  items: readonly DeviceCommunication[],
  waiting: readonly OutboxRecord[],
): DeviceCommunication[] {
  return sortCommunications(items.map((item) => withWaitingSteps(item, waiting)));
}

/** Marks a communication as read in the identified employee's list, while it is open. */
export function markReadHere(
  queryClient: QueryClient,
  employeeId: string,
  communicationId: string,
): void {
  queryClient.setQueryData<DeviceCommunications>(communicationsKey(employeeId), (old) =>
    old
      ? {
          items: old.items.map((item) =>
            item.id === communicationId ? { ...item, unread: false } : item,
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
  if (record.kind !== 'communication-result') return;
  deliveredKeys.add(record.idempotency_key);
  const sent = (answer as { communication?: DeviceCommunication } | null)?.communication;
  const session = currentSession();
  if (!sent || !session || session.token !== record.employee_token) {
    void queryClient.invalidateQueries({ queryKey: allCommunicationsKey });
    return;
  }
  const employeeId = session.employee.id;
  const list = queryClient.setQueryData<DeviceCommunications>(
    communicationsKey(employeeId),
    (old) => (old ? { items: old.items.map((item) => (item.id === sent.id ? sent : item)) } : old),
  );
  if (list) void keepDeviceCommunications(employeeId, list);
}

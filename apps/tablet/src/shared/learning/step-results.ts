import type { QueryClient } from '@tanstack/react-query';
import { i18n } from '../i18n/i18n';
import { enqueue } from '../outbox/outbox';
import type { OutboxKind, OutboxRecord } from '../outbox/outbox-types';
import { currentSession, type EmployeeSession } from '../session/employee-session';
import type { DeviceList } from './device-list';

/*
 * An employee's steps through a communication or a training (spec 002, issue 18), each one
 * outbox record with its idempotency key made once when it is queued: a retry after a lost
 * answer, or a tap twice, writes once. The lists show the steps still waiting at once (read,
 * put off, completed); the server's answer to a sent step replaces the item.
 */

/** What the lists and the steps need of an item (a communication, a training). */
export type StepItem = {
  id: string;
  name: string;
  unread: boolean;
  completed_at: string | null;
  skipped_count: number;
};

export type StepAction = 'view' | 'skip' | 'complete';

/** A step as the outbox keeps it (the outbox adds the idempotency key). */
export type Step<Answers> = { action: StepAction; time_spent: number; answers?: Answers };

export type StepResultsConfig<Item extends StepItem> = {
  /** The outbox kind of the steps ('communication-result'). */
  kind: Extract<OutboxKind, 'communication-result' | 'training-result'>;
  /** POST path of an item's steps ('/device/communications/:id/result'). */
  resultPath: (itemId: string) => string;
  /** The field of the server's answer that holds the item ('communication'). */
  answerField: string;
  /** The locale section of the outbox labels (`<section>.outboxView`, …Skip, …Complete). */
  texts: 'communications' | 'trainings';
  /** The employee's list (its query keys and kept copy). */
  list: DeviceList<Item>;
  /** The server's order of the list. */
  sort: (items: readonly Item[]) => Item[];
};

/** The action a step record carries. */
export const stepAction = (record: OutboxRecord) => (record.body as { action?: StepAction }).action;

/** The steps of one kind of item (createStepResults). */
export type StepResults<Item extends StepItem, Answers> = {
  queueStep: (
    item: Pick<Item, 'id' | 'name'>,
    step: Step<Answers>,
    session: EmployeeSession,
  ) => Promise<OutboxRecord>;
  stepsQueued: () => Promise<void>;
  waitingSteps: (records: readonly OutboxRecord[], itemId: string) => OutboxRecord[];
  refusedStep: (records: readonly OutboxRecord[], itemId: string) => OutboxRecord | undefined;
  listWithWaitingSteps: (items: readonly Item[], waiting: readonly OutboxRecord[]) => Item[];
  markReadHere: (queryClient: QueryClient, employeeId: string, itemId: string) => void;
  applySentStep: (queryClient: QueryClient, record: OutboxRecord, answer: unknown) => void;
};

/**
 * The steps of one kind of item: queueing them in order, the ones still waiting or refused, the
 * list as it will be once they are sent, and the server's answers taken into the list.
 */
export function createStepResults<Item extends StepItem, Answers>(
  config: StepResultsConfig<Item>,
): StepResults<Item, Answers> {
  const { kind, resultPath, list } = config;
  const labels = {
    view: `${config.texts}.outboxView`,
    skip: `${config.texts}.outboxSkip`,
    complete: `${config.texts}.outboxComplete`,
  } as const;

  let queued: Promise<unknown> = Promise.resolve();

  /** Queues one step: POST resultPath(item.id) (steps keep the order asked). */
  function queueStep(
    item: Pick<Item, 'id' | 'name'>,
    step: Step<Answers>,
    session: EmployeeSession,
  ): Promise<OutboxRecord> {
    const record = queued
      .catch(() => undefined)
      .then(() =>
        enqueue({
          kind,
          path: resultPath(item.id),
          body: { ...step },
          employee_token: session.token,
          employee_name: `${session.employee.name} ${session.employee.surname}`.trim(),
          label: i18n.t(labels[step.action], { name: item.name }),
          task_id: null,
        }),
      );
    queued = record;
    return record;
  }

  /** Resolves once every step asked so far is in the outbox (a screen closing queues one). */
  async function stepsQueued(): Promise<void> {
    await queued.catch(() => undefined);
  }

  /**
   * Keys of the records the server has answered, whose answer is already in the list: between
   * the answer and the outbox's next refresh the record still shows as waiting, and must not be
   * counted twice (a skip would add one more).
   */
  const deliveredKeys = new Set<string>();

  const isStepOf = (record: OutboxRecord, itemId: string) =>
    record.kind === kind &&
    record.path === resultPath(itemId) &&
    !deliveredKeys.has(record.idempotency_key);

  /** The waiting records of an item's steps, in their order. */
  function waitingSteps(records: readonly OutboxRecord[], itemId: string): OutboxRecord[] {
    return records.filter((record) => record.state === 'waiting' && isStepOf(record, itemId));
  }

  /** The item's last refused step, if any (kept in the outbox with its reason). */
  function refusedStep(records: readonly OutboxRecord[], itemId: string): OutboxRecord | undefined {
    return records
      .filter((record) => record.state === 'refused' && isStepOf(record, itemId))
      .at(-1);
  }

  /** The item as it will be once its waiting steps are sent (the server's rules). */
  function withWaitingSteps(item: Item, waiting: readonly OutboxRecord[]): Item {
    let next = item;
    for (const record of waitingSteps(waiting, item.id)) {
      const action = stepAction(record);
      const isCompleted = next.completed_at !== null;
      next = { ...next, unread: false };
      // A completed item is not put off any more.
      if (action === 'skip' && !isCompleted)
        next = { ...next, skipped_count: next.skipped_count + 1 };
      if (action === 'complete' && !isCompleted)
        next = { ...next, completed_at: new Date(record.created_at).toISOString() };
    }
    return next;
  }

  /** The list with the waiting steps applied, in the server's order. */
  function listWithWaitingSteps(items: readonly Item[], waiting: readonly OutboxRecord[]): Item[] {
    return config.sort(items.map((item) => withWaitingSteps(item, waiting)));
  }

  /** Marks an item as read in the identified employee's list, while it is open. */
  function markReadHere(queryClient: QueryClient, employeeId: string, itemId: string): void {
    queryClient.setQueryData<{ items: Item[] }>(list.key(employeeId), (old) =>
      old
        ? {
            items: old.items.map((item) =>
              item.id === itemId ? { ...item, unread: false } : item,
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
  function applySentStep(queryClient: QueryClient, record: OutboxRecord, answer: unknown) {
    if (record.kind !== kind) return;
    deliveredKeys.add(record.idempotency_key);
    const sent = (answer as Record<string, Item | undefined> | null)?.[config.answerField];
    const session = currentSession();
    if (!sent || !session || session.token !== record.employee_token) {
      void queryClient.invalidateQueries({ queryKey: list.allKey });
      return;
    }
    const employeeId = session.employee.id;
    const kept = queryClient.setQueryData<{ items: Item[] }>(list.key(employeeId), (old) =>
      old ? { items: old.items.map((item) => (item.id === sent.id ? sent : item)) } : old,
    );
    if (kept) void list.keep(employeeId, kept);
  }

  return {
    queueStep,
    stepsQueued,
    waitingSteps,
    refusedStep,
    listWithWaitingSteps,
    markReadHere,
    applySentStep,
  };
}

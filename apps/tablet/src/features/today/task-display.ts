import { taskStatus } from '@mise/shared/tasks/checks';
import type { DeviceTask } from '../../shared/api/types';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';

export type DisplayStatus =
  | 'done'
  | 'done-late'
  | 'late'
  | 'on-time'
  | 'postponed'
  | 'non-finalized'
  | 'not-open'
  | 'closed'
  | 'waiting'
  | 'refused';

/**
 * A task's status on the tablet, live: a record waiting in the outbox or refused by the
 * server first (the employee's work is visible before the server has it), then the spec's
 * statuses (002 §4) on the server's clock, and the completion window (not open yet, closed).
 */
export function displayStatus(
  task: DeviceTask,
  now: Date,
  records: { waiting: readonly OutboxRecord[]; refused: readonly OutboxRecord[] },
): DisplayStatus {
  if (records.refused.some((record) => record.task_id === task.id)) return 'refused';
  if (
    records.waiting.some((record) => record.task_id === task.id && record.kind !== 'task-postpone')
  )
    return 'waiting';
  if (records.waiting.some((record) => record.task_id === task.id)) return 'postponed';
  const completedAt = task.completed_timestamp ? new Date(task.completed_timestamp) : null;
  if (!completedAt && task.status !== 'postponed') {
    if (now.getTime() < Date.parse(task.opens_at)) return 'not-open';
    if (now.getTime() >= Date.parse(task.closes_at)) return 'closed';
  }
  return taskStatus(
    {
      start: new Date(task.start),
      duration: task.duration,
      completedAt,
      postponed: task.status === 'postponed',
    },
    now,
    true,
  );
}

/** Can the employee open it to fill it in now? */
export function isActionable(status: DisplayStatus): boolean {
  return status === 'on-time' || status === 'late' || status === 'refused';
}

/**
 * Groups the day's tasks by task type, in the device's calendar order (type names; types it
 * does not list follow by name, tasks without a type last), each group by start time.
 */
export function groupTasks(
  tasks: readonly DeviceTask[],
  order: readonly string[],
): { type: string | null; color: string | null; tasks: DeviceTask[] }[] {
  const groups = new Map<
    string,
    { type: string | null; color: string | null; tasks: DeviceTask[] }
  >();
  for (const task of tasks) {
    const key = task.type_name ?? '';
    const group = groups.get(key) ?? { type: task.type_name, color: task.type_color, tasks: [] };
    group.tasks.push(task);
    groups.set(key, group);
  }
  const rank = (type: string | null) => {
    if (type === null) return Number.MAX_SAFE_INTEGER;
    const index = order.indexOf(type);
    return index === -1 ? order.length : index;
  };
  return [...groups.values()]
    .map((group) => ({
      ...group,
      tasks: group.tasks.sort(
        (a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name),
      ),
    }))
    .sort((a, b) => rank(a.type) - rank(b.type) || (a.type ?? '').localeCompare(b.type ?? ''));
}

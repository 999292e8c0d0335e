import { dayInZone, taskStatus, taskWindow, taskWindowState } from '@mise/shared/tasks/rules';
import type { DeviceTask, Task } from '@mise/shared/tasks/schemas';
import type { tasks } from '../../db/schema';

export type TaskRow = typeof tasks.$inferSelect;

/**
 * A task as the API sends it, with its status at `now` (spec 002 §4). "Today" is the
 * store's calendar day in its time zone (pass `today` when presenting many rows: it is the
 * same for all).
 */
export function presentTask(
  row: TaskRow,
  now: Date,
  zone: string,
  today: string = dayInZone(now, zone),
): Task {
  return {
    id: row.id,
    store_id: row.store_id,
    name: row.name,
    module: row.module,
    type_name: row.type_name,
    type_color: row.type_color,
    start: row.start.toISOString(),
    day: row.day,
    duration: row.duration,
    requires_manager: row.requires_manager,
    notify_late: row.notify_late,
    elements: row.elements,
    actions: row.actions,
    configuration_id: row.configuration_id,
    store_configuration_id: row.store_configuration_id,
    completed_timestamp: row.completed_timestamp?.toISOString() ?? null,
    completed_employee: row.completed_employee,
    employee: row.employee ?? null,
    result: row.result ?? null,
    revision: row.revision,
    postponed_task: row.postponed_task,
    original_task: row.original_task,
    status: taskStatus(
      {
        start: row.start,
        duration: row.duration,
        completedAt: row.completed_timestamp,
        postponed: row.postponed_task !== null,
      },
      now,
      row.day === today,
    ),
  };
}

/**
 * A task as the tablet gets it: the task with its completion window (opens_at, closes_at)
 * and where `now` stands in it, by the shared rule the device writes apply (`taskWindow`).
 */
export function presentDeviceTask(
  row: TaskRow,
  now: Date,
  zone: string,
  today: string = dayInZone(now, zone),
): DeviceTask {
  const window = taskWindow(row, zone);
  return {
    ...presentTask(row, now, zone, today),
    opens_at: window.opensAt.toISOString(),
    closes_at: window.closesAt.toISOString(),
    window: taskWindowState(window, now),
  };
}

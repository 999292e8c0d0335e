import type { DeviceTask } from '../../shared/api/types';
import { enqueue } from '../../shared/outbox/outbox';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import type { EmployeeSession } from '../../shared/session/employee-session';

const employeeName = (session: EmployeeSession) =>
  `${session.employee.name} ${session.employee.surname}`.trim();

/**
 * Saves a task's result in the outbox at once (it is then "waiting to send") and starts the
 * send: POST /api/device/tasks/:id/result with the record's idempotency key. Pictures in the
 * result are `local:<id>` references from storePicture(); the outbox uploads them first.
 */
export function saveTaskResult(
  task: Pick<DeviceTask, 'id' | 'name'>,
  result: unknown,
  session: EmployeeSession,
  reason?: string,
): Promise<OutboxRecord> {
  return enqueue({
    kind: 'task-result',
    path: `/device/tasks/${task.id}/result`,
    body: {
      result,
      completed_timestamp: new Date().toISOString(),
      ...(reason ? { reason } : {}),
    },
    employee_token: session.token,
    employee_name: employeeName(session),
    label: task.name,
    task_id: task.id,
  });
}

/**
 * An unscheduled task (traceability, temperature control) made when the work happens:
 * POST /api/device/tasks with an id chosen here, so its later steps can name it offline.
 */
export function saveUnscheduledTask(
  input: {
    id: string;
    module: 'traceability' | 'temperature_control';
    element: string;
    label: string;
    result: unknown;
  },
  session: EmployeeSession,
): Promise<OutboxRecord> {
  return enqueue({
    kind: 'task-create',
    path: '/device/tasks',
    body: {
      id: input.id,
      module: input.module,
      element: input.element,
      result: input.result,
      completed_timestamp: new Date().toISOString(),
    },
    employee_token: session.token,
    employee_name: employeeName(session),
    label: input.label,
    task_id: input.id,
  });
}

/** Postpones a task to a later time of its day (the server's rules decide). */
export function savePostponement(
  task: Pick<DeviceTask, 'id' | 'name'>,
  start: Date,
  session: EmployeeSession,
): Promise<OutboxRecord> {
  return enqueue({
    kind: 'task-postpone',
    path: `/device/tasks/${task.id}/postpone`,
    body: { start: start.toISOString() },
    employee_token: session.token,
    employee_name: employeeName(session),
    label: task.name,
    task_id: task.id,
  });
}

import type { TaskModule } from '../tasks/constants';
import type { HistoryTask } from './schemas';

/*
 * Builders of history tasks for the tests of the shared rules, the server's PDF and CSV
 * renderers (pure, no I/O): a done task of 22/11/2026 08:00 (Paris) with nothing else set.
 */

export type TaskElement = HistoryTask['elements'][number];

export function taskElement(
  id: string,
  name: string,
  values: Partial<TaskElement> = {},
): TaskElement {
  return {
    id,
    name,
    minimum_temperature: null,
    maximum_temperature: null,
    maximum_polarity: null,
    reheating_temperature: null,
    cooling_temperature: null,
    ...values,
  };
}

export function buildHistoryTask(
  module: TaskModule,
  values: Partial<HistoryTask> = {},
): HistoryTask {
  return {
    id: 'task-1',
    store_id: 'store-1',
    name: 'Relevé',
    module,
    type_name: null,
    type_color: null,
    start: '2026-11-22T07:00:00Z',
    day: '2026-11-22',
    duration: 60,
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    configuration_id: null,
    store_configuration_id: null,
    completed_timestamp: '2026-11-22T07:20:00Z',
    completed_employee: 'employee-1',
    employee: { name: 'Anna', surname: 'Nowak' },
    result: null,
    revision: 1,
    postponed_task: null,
    original_task: null,
    status: 'done',
    anomalies: [],
    is_anomaly: false,
    postponed_to: null,
    ...values,
  };
}

import type { FieldState } from '@mise/shared/catalogue/rules';
import {
  defaultTaskConfigurationLocks,
  type TaskConfigurationFieldKey,
  taskConfigurationFieldKeys,
} from '@mise/shared/tasks/constants';
import type {
  Task,
  TaskConfiguration,
  TaskConfigurationListItem,
} from '@mise/shared/tasks/schemas';
import { buildId } from '../../../test/factories';

export function taskFieldStates(
  state: FieldState,
  overrides: Partial<Record<TaskConfigurationFieldKey, FieldState>> = {},
): Record<TaskConfigurationFieldKey, FieldState> {
  return {
    ...(Object.fromEntries(taskConfigurationFieldKeys.map((key) => [key, state])) as Record<
      TaskConfigurationFieldKey,
      FieldState
    >),
    ...overrides,
  };
}

/** A database configuration as GET /api/taskConfigurations/:id answers it. */
export function buildTaskConfiguration(
  overrides: Partial<TaskConfiguration> = {},
): TaskConfiguration {
  return {
    id: buildId(),
    level: 'database',
    database_id: buildId(),
    store_id: null,
    origin_id: null,
    is_remote: false,
    module: 'temperatures',
    name: 'Relevé des frigos',
    description: '',
    type_id: null,
    type_name: null,
    type_color: null,
    active: true,
    recurrence: 'FREQ=DAILY;INTERVAL=1',
    starts: [480],
    durations: [60],
    requires_manager: false,
    notify_late: false,
    configuration: { temperature_elements: [], is_delivery: false, automatic: false },
    locks: { ...defaultTaskConfigurationLocks },
    field_states: taskFieldStates('own'),
    element_names: {},
    hidden_modules: [],
    editable: true,
    version: 2,
    updated_at: '2026-11-20T08:00:00Z',
    ...overrides,
  };
}

export function buildTaskConfigurationItem(
  overrides: Partial<TaskConfigurationListItem> = {},
): TaskConfigurationListItem {
  const id = overrides.id === undefined ? buildId() : overrides.id;
  return {
    key: id ?? `origin:${overrides.origin_id}`,
    id,
    origin_id: null,
    is_remote: false,
    name: 'Relevé des frigos',
    module: 'temperatures',
    active: true,
    type_id: null,
    type_name: null,
    type_color: null,
    recurrence: 'FREQ=DAILY;INTERVAL=1',
    starts: [480],
    durations: [60],
    requires_manager: false,
    item_count: 2,
    ...overrides,
  };
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  return {
    id: buildId(),
    store_id: buildId(),
    name: 'Relevé des frigos',
    module: 'temperatures',
    type_name: null,
    type_color: null,
    start: '2026-11-22T08:00:00Z',
    day: '2026-11-22',
    duration: 60,
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    configuration_id: buildId(),
    store_configuration_id: null,
    completed_timestamp: null,
    completed_employee: null,
    employee: null,
    result: null,
    revision: 0,
    postponed_task: null,
    original_task: null,
    status: 'on-time',
    ...overrides,
  };
}

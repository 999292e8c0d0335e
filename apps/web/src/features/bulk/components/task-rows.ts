import type {
  BulkTaskConfigurationRow,
  BulkTaskConfigurationWrite,
} from '@mise/shared/catalogue/bulk';
import type { BulkLevel, BulkTaskFilter, BulkWrite } from '@mise/shared/catalogue/bulk-rules';
import { bulkTaskFilters } from '@mise/shared/catalogue/bulk-rules';
import type { FieldState } from '@mise/shared/catalogue/rules';
import {
  type ConfigurationModule,
  defaultRecurrence,
  taskConfigurationFieldKeys,
} from '@mise/shared/tasks/constants';
import {
  formatMinutes,
  type ScheduleWindow,
  validateSchedules,
  windowsFromLists,
} from '@mise/shared/tasks/rules';
import type { TaskConfigurationContent } from '@mise/shared/tasks/schemas';
import type { TFunction } from 'i18next';
import type { BulkColumn, SelectOption } from './bulk-columns';
import type { GridRow, RowIssue } from './bulk-row';

/** A task configuration's values as the grid edits them (`schedule`: its windows). */
export type TaskGridValues = {
  name: string;
  description: string;
  type_id: string | null;
  active: boolean;
  recurrence: string;
  schedule: ScheduleWindow[];
  requires_manager: boolean;
  notify_late: boolean;
  configuration: TaskConfigurationContent;
};

export type TaskRowInfo = {
  module: ConfigurationModule;
  type_name: string | null;
  type_color: string | null;
};

export type TaskGridRow = GridRow<TaskGridValues, TaskRowInfo>;

const byStart = (left: ScheduleWindow, right: ScheduleWindow) =>
  left.start - right.start || left.end - right.end;

export function taskGridRow(row: BulkTaskConfigurationRow): TaskGridRow {
  const locks: Record<string, boolean> = {};
  const states: Record<string, FieldState> = {};
  for (const key of taskConfigurationFieldKeys) {
    locks[key] = row.locks[key] ?? false;
    states[key] = row.field_states[key] ?? 'own';
  }
  return {
    key: row.key,
    id: row.id,
    origin_id: row.origin_id,
    version: row.id === null ? null : row.version,
    values: {
      name: row.name,
      description: row.description ?? '',
      type_id: row.type_id,
      active: row.active,
      recurrence: row.recurrence || defaultRecurrence,
      schedule: windowsFromLists(row.starts, row.durations).sort(byStart),
      requires_manager: row.requires_manager,
      notify_late: row.notify_late,
      configuration: row.configuration,
    },
    locks,
    states,
    info: { module: row.module, type_name: row.type_name, type_color: row.type_color },
  };
}

/** The content of a new configuration of a module (an Action task starts with its first action). */
export function newContent(
  module: ConfigurationModule,
  firstAction: string,
): TaskConfigurationContent {
  if (module === 'temperatures')
    return { temperature_elements: [], is_delivery: false, automatic: false };
  if (module === 'oils') return { oil_elements: [] };
  return { actions: [{ name: firstAction.trim(), requires_picture: false, attachments: [] }] };
}

/** A new configuration added on the grid: daily, no schedule, locked at database level. */
export function newTaskGridRow(
  key: string,
  input: { name: string; module: ConfigurationModule; firstAction: string },
  level: BulkLevel,
): TaskGridRow {
  return {
    key,
    id: null,
    origin_id: null,
    version: null,
    values: {
      name: input.name,
      description: '',
      type_id: null,
      active: true,
      recurrence: defaultRecurrence,
      schedule: [],
      requires_manager: false,
      notify_late: false,
      configuration: newContent(input.module, input.firstAction),
    },
    locks: Object.fromEntries(taskConfigurationFieldKeys.map((key) => [key, level === 'database'])),
    states: Object.fromEntries(
      taskConfigurationFieldKeys.map((field) => [field, 'own' as FieldState]),
    ),
    info: { module: input.module, type_name: null, type_color: null },
  };
}

/**
 * A duplicate's content: the same elements or actions, without the actions' attached files
 * (their stored objects are never shared between configurations; docs/decisions.md).
 */
export function duplicatedContent(content: TaskConfigurationContent): TaskConfigurationContent {
  if ('actions' in content)
    return { actions: content.actions.map((action) => ({ ...action, attachments: [] })) };
  return content;
}

/** A write of the shared rules as the task bulk save takes it (`schedule` goes as `schedules`). */
export function taskWrite(
  write: BulkWrite,
  row: TaskGridRow,
  isNew: boolean,
  level: BulkLevel,
): BulkTaskConfigurationWrite {
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(write.values)) {
    if (field === 'schedule') {
      values.schedules = [...(value as ScheduleWindow[])]
        .sort(byStart)
        .map(({ start, end }) => ({ start, end }));
    } else if (field === 'name') {
      values.name = (value as string).trim();
    } else {
      values[field] = value;
    }
  }
  if (isNew) values.module = row.info.module;
  return {
    key: write.key,
    id: write.id,
    ...(write.origin_id ? { origin_id: write.origin_id } : {}),
    ...(write.version !== undefined ? { version: write.version } : {}),
    values: values as BulkTaskConfigurationWrite['values'],
    ...(level === 'database' && write.locks ? { locks: write.locks } : {}),
  };
}

/* ---------- Filters and columns (spec 001 §2.9, §9) ---------- */

export const taskChips = [
  { name: 'general', filter: bulkTaskFilters.general, module: null },
  { name: 'actions', filter: bulkTaskFilters.actions, module: 'actions' },
  { name: 'temperatures', filter: bulkTaskFilters.temperatures, module: 'temperatures' },
  { name: 'oils', filter: bulkTaskFilters.oils, module: 'oils' },
] as const satisfies readonly {
  name: string;
  filter: BulkTaskFilter;
  module: ConfigurationModule | null;
}[];

/** Number of elements (temperatures, oils) or sub-tasks (actions) of a configuration. */
export function itemCount(content: TaskConfigurationContent): number {
  if ('actions' in content) return content.actions.length;
  if ('temperature_elements' in content) return content.temperature_elements.length;
  return content.oil_elements.length;
}

/** Schedules as "08:00–09:00, 14:00–15:30" (24 h). */
export function formatSchedules(windows: readonly ScheduleWindow[]): string {
  return [...windows]
    .sort(byStart)
    .map((window) => `${formatMinutes(window.start)}–${formatMinutes(window.end)}`)
    .join(', ');
}

type ColumnContext = {
  t: TFunction;
  typeOptions: SelectOption[];
  describe: (rule: string) => string;
};

export function taskNameColumn(t: TFunction): BulkColumn {
  return {
    field: 'name',
    label: t('taskConfiguration.fields.name'),
    kind: 'text',
    width: 220,
    maxLength: 200,
    isLockable: true,
    check: (value) =>
      typeof value === 'string' && value.trim() !== '' ? null : 'task-configuration/invalid-name',
  };
}

/** The columns of a task filter (the name column is always first). */
export function taskFilterColumns(filter: BulkTaskFilter, context: ColumnContext): BulkColumn[] {
  const { t } = context;
  const active: BulkColumn = {
    field: 'active',
    label: t('common.active'),
    kind: 'boolean',
    width: 110,
    isLockable: true,
  };
  if (filter !== bulkTaskFilters.general) {
    return [
      active,
      {
        field: 'item_count',
        label:
          filter === bulkTaskFilters.actions
            ? t('bulk.columns.actionCount')
            : t('bulk.columns.elementCount'),
        kind: 'summary',
        width: 150,
        isLockable: false,
        format: (row) => {
          const count = itemCount((row as TaskGridRow).values.configuration);
          return filter === bulkTaskFilters.actions
            ? t('taskConfiguration.actionCount', { count })
            : t('taskConfiguration.elementCount', { count });
        },
      },
    ];
  }
  return [
    active,
    {
      field: 'requires_manager',
      label: t('bulk.columns.manager'),
      kind: 'boolean',
      width: 130,
      isLockable: true,
    },
    {
      field: 'recurrence',
      label: t('taskConfiguration.sections.recurrence'),
      kind: 'modal',
      width: 240,
      isLockable: true,
      format: (row) => context.describe((row as TaskGridRow).values.recurrence),
    },
    {
      field: 'type_id',
      label: t('taskConfiguration.fields.type_id'),
      kind: 'select',
      width: 200,
      options: context.typeOptions,
      emptyLabel: t('bulk.noType'),
      isLockable: true,
      format: (row) => {
        const typed = row as TaskGridRow;
        if (!typed.values.type_id) return t('bulk.noType');
        return (
          context.typeOptions.find((option) => option.value === typed.values.type_id)?.label ??
          typed.info.type_name ??
          '…'
        );
      },
      colorOf: (row) => {
        const typed = row as TaskGridRow;
        if (!typed.values.type_id) return null;
        return (
          context.typeOptions.find((option) => option.value === typed.values.type_id)?.color ??
          typed.info.type_color
        );
      },
    },
    {
      // The lock key of the starts and durations together.
      field: 'schedule',
      label: t('taskConfiguration.sections.schedules'),
      kind: 'modal',
      width: 220,
      isLockable: true,
      format: (row) => formatSchedules((row as TaskGridRow).values.schedule) || t('schedule.empty'),
    },
  ];
}

/**
 * The task screen's checks on a row (spec 001 §5): name required, an Action task needs one
 * action, every schedule coherent.
 */
export function taskRowIssues(row: TaskGridRow): RowIssue[] {
  const issues: RowIssue[] = [];
  if (row.values.name.trim() === '')
    issues.push({ field: 'name', code: 'task-configuration/invalid-name' });
  const content = row.values.configuration;
  if (
    row.info.module === 'actions' &&
    'actions' in content &&
    content.actions.every((action) => action.name.trim() === '')
  )
    issues.push({ field: 'item_count', code: 'task-action-required' });
  if (validateSchedules(row.values.schedule))
    issues.push({ field: 'schedule', code: 'schedule-incoherent' });
  return issues;
}

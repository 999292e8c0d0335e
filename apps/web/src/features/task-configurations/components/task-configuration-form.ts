import type { FieldState } from '@mise/shared/catalogue/rules';
import {
  type ConfigurationModule,
  defaultRecurrence,
  defaultTaskConfigurationLocks,
  type TaskConfigurationFieldKey,
  taskConfigurationFieldKeys,
} from '@mise/shared/tasks/constants';
import { type ScheduleWindow, validateSchedule } from '@mise/shared/tasks/rules';
import type {
  TaskConfiguration,
  TaskConfigurationContent,
  TaskConfigurationInput,
} from '@mise/shared/tasks/schemas';
import type { TaskConfigurationLevel } from '../api/task-configuration-query-keys';

/**
 * The configuration screen's editable state and the pure rules that turn it into a request
 * body (what is sent, what never is), kept free of React.
 */

type ActionAttachment = { name: string; path: string };
export type ActionDraft = {
  key: string;
  name: string;
  requires_picture: boolean;
  attachments: ActionAttachment[];
};

/** The module's content, one shape for the three modules (only the module's part is sent). */
export type ContentDraft = {
  elementIds: string[];
  isDelivery: boolean;
  isAutomatic: boolean;
  actions: ActionDraft[];
};

export type TaskConfigurationValuesDraft = {
  name: string;
  description: string;
  type_id: string | null;
  active: boolean;
  recurrence: string;
  schedule: ScheduleWindow[];
  requires_manager: boolean;
  notify_late: boolean;
  configuration: ContentDraft;
};

export type TaskConfigurationDraft = {
  module: ConfigurationModule | null;
  values: TaskConfigurationValuesDraft;
  /** Per field: own, locked, overridden or inherited. */
  states: Record<TaskConfigurationFieldKey, FieldState>;
  /** Database level: the configuration's locks. Store level: the origin's (read only). */
  locks: Record<TaskConfigurationFieldKey, boolean>;
};

export type TaskConfigurationValidationError =
  | 'task-configuration/invalid-name'
  | 'task-configuration.select-module'
  | 'task-action-required'
  | 'schedule-incoherent';

let actionSequence = 0;
export function nextActionKey(): string {
  actionSequence += 1;
  return `action-${actionSequence}`;
}

function allStates(state: FieldState): Record<TaskConfigurationFieldKey, FieldState> {
  return Object.fromEntries(taskConfigurationFieldKeys.map((key) => [key, state])) as Record<
    TaskConfigurationFieldKey,
    FieldState
  >;
}

function emptyContent(): ContentDraft {
  return { elementIds: [], isDelivery: false, isAutomatic: false, actions: [] };
}

export function contentDraft(content: TaskConfigurationContent | null | undefined): ContentDraft {
  const draft = emptyContent();
  if (!content) return draft;
  if ('temperature_elements' in content) {
    draft.elementIds = [...content.temperature_elements];
    draft.isDelivery = content.is_delivery;
    draft.isAutomatic = content.automatic;
  } else if ('oil_elements' in content) {
    draft.elementIds = [...content.oil_elements];
  } else if ('actions' in content) {
    draft.actions = content.actions.map((action) => ({
      key: nextActionKey(),
      name: action.name,
      requires_picture: action.requires_picture,
      attachments: action.attachments ?? [],
    }));
  }
  return draft;
}

/** A new configuration: no module yet, daily, no schedule, locked at database level. */
export function newTaskConfigurationDraft(level: TaskConfigurationLevel): TaskConfigurationDraft {
  return {
    module: null,
    values: {
      name: '',
      description: '',
      type_id: null,
      active: true,
      recurrence: defaultRecurrence,
      schedule: [],
      requires_manager: false,
      notify_late: false,
      configuration: emptyContent(),
    },
    states: allStates('own'),
    locks:
      level === 'database'
        ? { ...defaultTaskConfigurationLocks }
        : (Object.fromEntries(taskConfigurationFieldKeys.map((key) => [key, false])) as Record<
            TaskConfigurationFieldKey,
            boolean
          >),
  };
}

export function draftFromTaskConfiguration(
  configuration: TaskConfiguration,
): TaskConfigurationDraft {
  const draft = newTaskConfigurationDraft(configuration.level);
  for (const key of taskConfigurationFieldKeys) {
    draft.states[key] = configuration.field_states[key] ?? 'own';
    draft.locks[key] = configuration.locks[key] ?? draft.locks[key];
  }
  return {
    ...draft,
    module: configuration.module,
    values: {
      name: configuration.name,
      description: configuration.description ?? '',
      type_id: configuration.type_id,
      active: configuration.active,
      recurrence: configuration.recurrence || defaultRecurrence,
      schedule: configuration.starts.map((start, index) => ({
        start,
        end: start + (configuration.durations[index] ?? 0),
      })),
      requires_manager: configuration.requires_manager,
      notify_late: configuration.notify_late,
      configuration: contentDraft(configuration.configuration),
    },
  };
}

/** At store level a field the database locks is read-only and never sent. */
export function isFieldLocked(
  draft: TaskConfigurationDraft,
  key: TaskConfigurationFieldKey,
  level: TaskConfigurationLevel,
): boolean {
  return level === 'store' && draft.states[key] === 'locked';
}

/** The actions worth keeping: blank names are ignored (spec 001 §5). */
function keptActions(actions: readonly ActionDraft[]) {
  return actions
    .filter((action) => action.name.trim() !== '')
    .map((action) => ({
      name: action.name.trim(),
      requires_picture: action.requires_picture,
      attachments: action.attachments,
    }));
}

/** The content the API takes for a module. */
export function contentInput(
  module: ConfigurationModule,
  content: ContentDraft,
): TaskConfigurationContent {
  if (module === 'temperatures')
    return {
      temperature_elements: [...content.elementIds],
      is_delivery: content.isDelivery,
      automatic: content.isAutomatic,
    };
  if (module === 'oils') return { oil_elements: [...content.elementIds] };
  return { actions: keptActions(content.actions) };
}

function sortedWindows(windows: readonly ScheduleWindow[]): ScheduleWindow[] {
  return [...windows].sort((left, right) => left.start - right.start || left.end - right.end);
}

/** A field's value as the API takes it (the key `schedule` goes as `schedules`). */
function fieldInput(draft: TaskConfigurationDraft, key: TaskConfigurationFieldKey): unknown {
  const values = draft.values;
  switch (key) {
    case 'name':
      return values.name.trim();
    case 'schedule':
      return sortedWindows(values.schedule).map(({ start, end }) => ({ start, end }));
    case 'configuration':
      return draft.module ? contentInput(draft.module, values.configuration) : null;
    default:
      return values[key];
  }
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Fields whose sent value or inheritance state differs from what was loaded. */
export function changedFieldKeys(
  draft: TaskConfigurationDraft,
  baseline: TaskConfigurationDraft,
): TaskConfigurationFieldKey[] {
  return taskConfigurationFieldKeys.filter(
    (key) =>
      !same(fieldInput(draft, key), fieldInput(baseline, key)) ||
      draft.states[key] !== baseline.states[key],
  );
}

export function changedLockKeys(
  draft: TaskConfigurationDraft,
  baseline: TaskConfigurationDraft,
): TaskConfigurationFieldKey[] {
  return taskConfigurationFieldKeys.filter((key) => draft.locks[key] !== baseline.locks[key]);
}

export function isDraftDirty(
  draft: TaskConfigurationDraft,
  baseline: TaskConfigurationDraft,
): boolean {
  return (
    draft.module !== baseline.module ||
    !same(draft.values, baseline.values) ||
    changedFieldKeys(draft, baseline).length > 0 ||
    changedLockKeys(draft, baseline).length > 0
  );
}

/**
 * The fields of a save. Creating sends every field; otherwise only what changed. At store
 * level an inherited field goes as null (follow the database again) and a locked field is
 * never sent.
 */
export function buildTaskConfigurationInput(
  draft: TaskConfigurationDraft,
  baseline: TaskConfigurationDraft,
  level: TaskConfigurationLevel,
  isCreation: boolean,
): TaskConfigurationInput {
  const keys = isCreation ? taskConfigurationFieldKeys : changedFieldKeys(draft, baseline);
  const input: Record<string, unknown> = {};
  for (const key of keys) {
    if (isFieldLocked(draft, key, level)) continue;
    const inputKey = key === 'schedule' ? 'schedules' : key;
    input[inputKey] =
      level === 'store' && draft.states[key] === 'inherited' ? null : fieldInput(draft, key);
  }
  return input as TaskConfigurationInput;
}

/** Database level: the locks to send (all when creating, else those that changed). */
export function buildLocksInput(
  draft: TaskConfigurationDraft,
  baseline: TaskConfigurationDraft,
  isCreation: boolean,
): Partial<Record<TaskConfigurationFieldKey, boolean>> | undefined {
  const keys = isCreation ? taskConfigurationFieldKeys : changedLockKeys(draft, baseline);
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((key) => [key, draft.locks[key]]));
}

/**
 * The spec's checks before a save, in its order (spec 001 §5): name required, a module
 * selected, an Action task needs one action (blank names ignored), every schedule coherent.
 */
export function validateTaskConfiguration(
  draft: TaskConfigurationDraft,
): TaskConfigurationValidationError | null {
  if (draft.values.name.trim() === '') return 'task-configuration/invalid-name';
  if (!draft.module) return 'task-configuration.select-module';
  if (draft.module === 'actions' && keptActions(draft.values.configuration.actions).length === 0)
    return 'task-action-required';
  if (draft.values.schedule.some((window) => validateSchedule(window) !== null))
    return 'schedule-incoherent';
  return null;
}

/** "HH:MM" (24 h) as minutes of the day; null when not a time. */
export function parseTime(value: string): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(value.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

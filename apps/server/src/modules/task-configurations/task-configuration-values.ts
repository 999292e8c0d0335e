import { type FieldState, resolveInheritance } from '@mise/shared/catalogue/rules';
import {
  type ConfigurationModule,
  defaultRecurrence,
  defaultTaskConfigurationLocks,
  type TaskConfigurationFieldKey,
  taskConfigurationFieldKeys,
} from '@mise/shared/tasks/constants';
import type { TaskConfigurationContent, TaskConfigurationValues } from '@mise/shared/tasks/schemas';
import type { storeTaskConfigurations, taskConfigurations } from '../../db/schema';
import { AppError } from '../../platform/errors';

export type DatabaseConfigurationRow = typeof taskConfigurations.$inferSelect;
export type StoreConfigurationRow = typeof storeTaskConfigurations.$inferSelect;
export type Locks = Record<TaskConfigurationFieldKey, boolean>;
export type Schedule = { starts: number[]; durations: number[] };
export type FieldValues = Partial<Record<TaskConfigurationFieldKey, unknown>>;

/** The columns behind each inherited field ('schedule' is starts and durations together). */
type ConfigurationColumns = {
  active: boolean | null;
  configuration: unknown;
  description: string | null;
  name: string | null;
  recurrence: string | null;
  requires_manager: boolean | null;
  type_id: string | null;
  notify_late: boolean | null;
  starts: number[] | null;
  durations: number[] | null;
};

export function locksOf(row: Pick<DatabaseConfigurationRow, 'locks'>): Locks {
  return { ...defaultTaskConfigurationLocks, ...row.locks };
}

export const noLocks: Locks = Object.fromEntries(
  taskConfigurationFieldKeys.map((key) => [key, false]),
) as Locks;

/** A row's inherited fields (null = unset, at store level "follow the origin"). */
export function fieldsOf(row: Partial<ConfigurationColumns>): FieldValues {
  return {
    active: row.active ?? null,
    configuration: row.configuration ?? null,
    description: row.description ?? null,
    schedule: row.starts && row.durations ? { starts: row.starts, durations: row.durations } : null,
    name: row.name ?? null,
    recurrence: row.recurrence ?? null,
    requires_manager: row.requires_manager ?? null,
    type_id: row.type_id ?? null,
    notify_late: row.notify_late ?? null,
  };
}

/** The module a configuration content is written for. */
export function moduleOfContent(content: unknown): ConfigurationModule | null {
  if (!content || typeof content !== 'object') return null;
  if ('temperature_elements' in content) return 'temperatures';
  if ('oil_elements' in content) return 'oils';
  if ('actions' in content) return 'actions';
  return null;
}

/** The content of a new configuration of a module (no elements, no actions). */
export function emptyContent(module: ConfigurationModule): TaskConfigurationContent {
  if (module === 'temperatures')
    return { temperature_elements: [], is_delivery: false, automatic: false };
  if (module === 'oils') return { oil_elements: [] };
  return { actions: [] };
}

/** Element ids a content references (temperatures and oils), in its order. */
export function elementIdsOf(content: unknown): string[] {
  if (!content || typeof content !== 'object') return [];
  if ('temperature_elements' in content)
    return (content as { temperature_elements: string[] }).temperature_elements;
  if ('oil_elements' in content) return (content as { oil_elements: string[] }).oil_elements;
  return [];
}

/** Number of elements (temperatures, oils) or sub-tasks (actions). */
export function itemCountOf(content: unknown): number {
  if (content && typeof content === 'object' && 'actions' in content)
    return (content as { actions: unknown[] }).actions.length;
  return elementIdsOf(content).length;
}

export type Effective = {
  module: ConfigurationModule;
  values: TaskConfigurationValues;
  states: Record<TaskConfigurationFieldKey, FieldState>;
  locks: Locks;
  /** YYYY-MM-DD the effective recurrence counts from. */
  recurrence_anchor: string;
};

/** Every field filled: unset fields take the defaults of a new configuration. */
function completeValues(values: FieldValues, module: ConfigurationModule): TaskConfigurationValues {
  const schedule = (values.schedule as Schedule | null) ?? { starts: [], durations: [] };
  const content = values.configuration as TaskConfigurationContent | null;
  return {
    name: (values.name as string | null) ?? '',
    description: (values.description as string | null) ?? '',
    type_id: (values.type_id as string | null) ?? null,
    active: (values.active as boolean | null) ?? true,
    recurrence: (values.recurrence as string | null) ?? defaultRecurrence,
    starts: schedule.starts,
    durations: schedule.durations,
    requires_manager: (values.requires_manager as boolean | null) ?? false,
    notify_late: (values.notify_late as boolean | null) ?? false,
    configuration: content && moduleOfContent(content) === module ? content : emptyContent(module),
  };
}

const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);

export function effectiveDatabaseConfiguration(row: DatabaseConfigurationRow): Effective {
  const states = Object.fromEntries(
    taskConfigurationFieldKeys.map((key) => [key, 'own']),
  ) as Record<TaskConfigurationFieldKey, FieldState>;
  return {
    module: row.module,
    values: completeValues(fieldsOf(row), row.module),
    states,
    locks: locksOf(row),
    recurrence_anchor: row.recurrence_anchor,
  };
}

/**
 * A store configuration as the store sees it (row null: a database configuration the store
 * has not overridden). The module is the origin's; the anchor is the store's own only while
 * the store overrides the recurrence.
 */
export function effectiveStoreConfiguration(
  row: StoreConfigurationRow | null,
  origin: DatabaseConfigurationRow | null,
): Effective {
  const locks = origin ? locksOf(origin) : noLocks;
  const resolved = resolveInheritance<TaskConfigurationFieldKey, unknown>(
    taskConfigurationFieldKeys,
    row ? fieldsOf(row) : {},
    origin ? { values: fieldsOf(origin), locks } : null,
  );
  const module = origin?.module ?? row?.module ?? moduleOfContent(row?.configuration) ?? 'actions';
  const ownAnchor = row?.recurrence_anchor ?? (row ? dayOf(row.created_at) : null);
  const recurrence_anchor =
    origin && resolved.states.recurrence !== 'overridden'
      ? origin.recurrence_anchor
      : (ownAnchor ?? origin?.recurrence_anchor ?? dayOf(new Date()));
  return {
    module,
    values: completeValues(resolved.values, module),
    states: resolved.states,
    locks,
    recurrence_anchor,
  };
}

/** The body key of each inherited field. */
export const bodyKeyOf: Record<TaskConfigurationFieldKey, string> = {
  active: 'active',
  configuration: 'configuration',
  description: 'description',
  schedule: 'schedules',
  name: 'name',
  recurrence: 'recurrence',
  requires_manager: 'requires_manager',
  type_id: 'type_id',
  notify_late: 'notify_late',
};

/** Store level: any locked field present in the body refuses the whole save (nothing written). */
export function assertNothingLocked(locks: Locks, body: Record<string, unknown>): void {
  const locked = taskConfigurationFieldKeys.filter(
    (key) => locks[key] && body[bodyKeyOf[key]] !== undefined,
  );
  if (locked.length) {
    throw new AppError(
      'task-configuration/field-locked',
      undefined,
      locked.map((key) => ({ path: bodyKeyOf[key], message: 'Locked by the database.' })),
    );
  }
}

export const today = () => dayOf(new Date());

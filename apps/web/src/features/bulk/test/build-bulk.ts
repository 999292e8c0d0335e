import {
  type BulkElementRow,
  type BulkTaskConfigurationRow,
  compactLocksAndStates,
} from '@mise/shared/catalogue/bulk';
import {
  defaultElementLocks,
  type ElementLockKey,
  elementDefaults,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import type { FieldState } from '@mise/shared/catalogue/rules';
import {
  defaultRecurrence,
  defaultTaskConfigurationLocks,
  type TaskConfigurationFieldKey,
  taskConfigurationFieldKeys,
} from '@mise/shared/tasks/constants';
import { buildId } from '../../../test/factories';

function statesOf<K extends string>(
  keys: readonly K[],
  state: FieldState,
  overrides: Partial<Record<K, FieldState>>,
): Record<K, FieldState> {
  return {
    ...(Object.fromEntries(keys.map((key) => [key, state])) as Record<K, FieldState>),
    ...overrides,
  };
}

/**
 * A grid row of GET /api/databases/:id/elements/bulk. `locks` (all locked unless given) and
 * `fieldStates` ('own' unless given) are the row's whole view, sent sparse as the server does.
 */
export function buildBulkElement(
  overrides: Partial<BulkElementRow> & {
    locks?: Partial<Record<ElementLockKey, boolean>>;
    fieldStates?: Partial<Record<ElementLockKey, FieldState>>;
  } = {},
): BulkElementRow {
  const { locks, fieldStates, ...rest } = overrides;
  const id = rest.id === undefined ? buildId() : rest.id;
  const sparse = compactLocksAndStates(
    elementLockKeys,
    { ...defaultElementLocks, ...locks },
    statesOf(elementLockKeys, 'own', fieldStates ?? {}),
    (rest.origin_id ?? null) !== null,
  );
  return {
    key: id ?? `origin:${rest.origin_id}`,
    id,
    name: 'Chambre froide',
    type_id: null,
    active: true,
    illustration_url: null,
    allergens: [],
    allergen_illustration_url: null,
    minimum_temperature: 0,
    maximum_temperature: 4,
    temperature_delivery_item: false,
    temperature_require_picture: false,
    temperature_picture: false,
    maximum_polarity: elementDefaults.maximum_polarity,
    oils_require_picture: false,
    reheating_temperature: elementDefaults.reheating_temperature,
    reheating_duration: elementDefaults.reheating_duration,
    cooling_temperature: elementDefaults.cooling_temperature,
    cooling_duration: elementDefaults.cooling_duration,
    temperatures_module_active: true,
    labels_module_active: false,
    traceability_module_active: false,
    oils_module_active: false,
    temperature_control_module_active: false,
    encyclopedia_extension_active: false,
    mise_display_active: false,
    level: 'database',
    database_id: buildId(),
    store_id: null,
    origin_id: null,
    is_remote: false,
    probe_id: null,
    probe_missing: false,
    type_name: null,
    unlocked: sparse.unlocked,
    states: sparse.states,
    version: 3,
    updated_at: '2026-11-20T08:00:00Z',
    label_count: 0,
    attachment_count: 0,
    ...rest,
  };
}

/** A grid row of GET /api/databases/:id/taskConfigurations/bulk. */
export function buildBulkTask(
  overrides: Partial<BulkTaskConfigurationRow> & {
    states?: Partial<Record<TaskConfigurationFieldKey, FieldState>>;
  } = {},
): BulkTaskConfigurationRow {
  const { states, ...rest } = overrides;
  const id = rest.id === undefined ? buildId() : rest.id;
  return {
    key: id ?? `origin:${rest.origin_id}`,
    id,
    name: 'Relevé du matin',
    description: '',
    type_id: null,
    active: true,
    recurrence: defaultRecurrence,
    starts: [480],
    durations: [60],
    requires_manager: false,
    notify_late: false,
    configuration: { temperature_elements: [], is_delivery: false, automatic: false },
    level: 'database',
    database_id: buildId(),
    store_id: null,
    origin_id: null,
    is_remote: false,
    module: 'temperatures',
    type_name: null,
    type_color: null,
    locks: { ...defaultTaskConfigurationLocks },
    field_states: statesOf(taskConfigurationFieldKeys, 'own', states ?? {}),
    element_names: {},
    version: 2,
    updated_at: '2026-11-20T08:00:00Z',
    item_count: 0,
    ...rest,
  };
}

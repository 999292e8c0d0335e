import {
  defaultElementLocks,
  type ElementLockKey,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import type { FieldState } from '@mise/shared/catalogue/rules';
import type { Element, Label } from '@mise/shared/catalogue/schemas';
import { buildId } from '../../../test/factories';
import { newElementValues } from '../components/element-form';

export function fieldStates(
  state: FieldState,
  overrides: Partial<Record<ElementLockKey, FieldState>> = {},
): Record<ElementLockKey, FieldState> {
  return {
    ...(Object.fromEntries(elementLockKeys.map((key) => [key, state])) as Record<
      ElementLockKey,
      FieldState
    >),
    ...overrides,
  };
}

/** A database element as GET /api/databaseElements/:id answers it. */
export function buildElement(overrides: Partial<Element> = {}): Element {
  return {
    ...newElementValues(),
    name: 'Saumon fumé',
    minimum_temperature: 0,
    maximum_temperature: 4,
    id: buildId(),
    level: 'database',
    database_id: buildId(),
    store_id: null,
    origin_id: null,
    is_remote: false,
    probe_id: null,
    probe: null,
    probe_missing: false,
    type_name: null,
    locks: { ...defaultElementLocks },
    field_states: fieldStates('own'),
    labels: [],
    attachments: [],
    hidden_modules: [],
    editable: true,
    version: 4,
    updated_at: '2026-11-20T08:00:00Z',
    ...overrides,
  };
}

export function buildLabel(overrides: Partial<Label> = {}): Label {
  return {
    id: buildId(),
    origin_id: null,
    index: 0,
    state: 'own',
    active: true,
    name: 'DLC',
    type: 'expiration',
    expiration_duration: 72,
    defrosting_duration: 0,
    expiration_text: null,
    cumulate_expiration_duration: false,
    show_expiration_hour: true,
    show_expiration_weekday: false,
    ...overrides,
  };
}

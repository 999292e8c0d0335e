import {
  defaultElementLocks,
  type ElementFieldKey,
  type ElementLockKey,
  elementDefaults,
  elementFieldKeys,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import { type FieldState, normalizeDuration, normalizeLabel } from '@mise/shared/catalogue/rules';
import type {
  Attachment,
  Element,
  ElementInput,
  ElementValues,
  Label,
  LabelInput,
} from '@mise/shared/catalogue/schemas';
import type { ElementLevel } from '../api/element-query-keys';

/**
 * The element screen's editable state and the pure rules that turn it into a request body.
 * Kept free of React so the save rules (what is sent, what never is) read in one place.
 */

/** A label of the screen: the API's label plus a stable key for new ones. */
export type LabelDraft = Label & { key: string };

export type ElementDraft = {
  values: ElementValues;
  /** Per field (and labels, attachments): own, locked, overridden or inherited. */
  states: Record<ElementLockKey, FieldState>;
  /** Database level: the element's locks. Store level: the origin's (read only). */
  locks: Record<ElementLockKey, boolean>;
  labels: LabelDraft[];
  /** Attachments kept, in display order (inherited ones first at store level). */
  attachments: Attachment[];
  /** Store level: the probeUID of the store probe the element is bound to (spec 001 probe_id). */
  probeId: string | null;
};

/**
 * Fields set through their own endpoints (uploads): the save body only ever clears them
 * (null: removed, or at store level back to the database's).
 */
const imageFields = new Set<ElementFieldKey>(['illustration_url', 'allergen_illustration_url']);
const durationFields = new Set<ElementFieldKey>(['reheating_duration', 'cooling_duration']);

/** A new element's values: the spec's defaults; only the temperatures module is on. */
export function newElementValues(): ElementValues {
  return {
    name: '',
    type_id: null,
    active: true,
    illustration_url: null,
    allergens: [],
    allergen_illustration_url: null,
    minimum_temperature: null,
    maximum_temperature: null,
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
  };
}

function allStates(state: FieldState): Record<ElementLockKey, FieldState> {
  return Object.fromEntries(elementLockKeys.map((key) => [key, state])) as Record<
    ElementLockKey,
    FieldState
  >;
}

let labelSequence = 0;
export function nextLabelKey(): string {
  labelSequence += 1;
  return `new-label-${labelSequence}`;
}

function labelDraft(label: Label): LabelDraft {
  return {
    ...label,
    key: label.id ?? (label.origin_id ? `origin:${label.origin_id}` : nextLabelKey()),
  };
}

/** The state of a new element: defaults, all own, locked at database level (the default). */
export function newElementDraft(level: ElementLevel): ElementDraft {
  return {
    values: newElementValues(),
    states: allStates('own'),
    locks:
      level === 'database'
        ? { ...defaultElementLocks }
        : (Object.fromEntries(elementLockKeys.map((key) => [key, false])) as Record<
            ElementLockKey,
            boolean
          >),
    labels: [],
    attachments: [],
    probeId: null,
  };
}

export function draftFromElement(element: Element): ElementDraft {
  const values = Object.fromEntries(
    elementFieldKeys.map((key) => [key, element[key]]),
  ) as ElementValues;
  const states = allStates('own');
  const locks = { ...newElementDraft(element.level).locks };
  for (const key of elementLockKeys) {
    states[key] = element.field_states[key] ?? 'own';
    locks[key] = element.locks[key] ?? locks[key];
  }
  return {
    values,
    states,
    locks,
    labels: [...element.labels].sort((left, right) => left.index - right.index).map(labelDraft),
    attachments: [...element.attachments].sort((left, right) => {
      if (left.inherited !== right.inherited) return left.inherited ? -1 : 1;
      return left.index - right.index;
    }),
    probeId: element.probe_id,
  };
}

/** At store level a field the database locks is read-only and never sent. */
export function isFieldLocked(
  draft: ElementDraft,
  key: ElementLockKey,
  level: ElementLevel,
): boolean {
  return level === 'store' && draft.states[key] === 'locked';
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Data fields whose value or inheritance state differs from what was loaded. */
export function changedFieldKeys(draft: ElementDraft, baseline: ElementDraft): ElementFieldKey[] {
  return elementFieldKeys.filter((key) => {
    const isChanged =
      !same(draft.values[key], baseline.values[key]) || draft.states[key] !== baseline.states[key];
    if (!imageFields.has(key)) return isChanged;
    // An image counts once removed or reset (it is then sent as null), never for a new URL.
    return isChanged && (draft.values[key] === null || draft.states[key] === 'inherited');
  });
}

/** The element's own image: removed with null (not offered while inherited or locked). */
export function canRemoveImage(
  draft: ElementDraft,
  key: 'illustration_url' | 'allergen_illustration_url',
): boolean {
  return draft.values[key] !== null && draft.states[key] === 'own';
}

export function changedLockKeys(draft: ElementDraft, baseline: ElementDraft): ElementLockKey[] {
  return elementLockKeys.filter((key) => draft.locks[key] !== baseline.locks[key]);
}

/** The label list as the API takes it, in display order (index comes from the position). */
export function labelInputs(labels: readonly LabelDraft[]): LabelInput[] {
  return labels.map((label) => ({
    ...(label.id ? { id: label.id } : {}),
    ...(label.origin_id ? { origin_id: label.origin_id } : {}),
    // What the type does not use is cleared, as the server stores it (normalizeLabel).
    ...normalizeLabel({
      active: label.active,
      name: label.name.trim(),
      type: label.type,
      expiration_duration: label.expiration_duration,
      defrosting_duration: label.defrosting_duration,
      expiration_text: label.expiration_text,
      cumulate_expiration_duration: label.cumulate_expiration_duration,
      show_expiration_hour: label.show_expiration_hour,
      show_expiration_weekday: label.show_expiration_weekday,
    }),
  }));
}

export function labelsChanged(draft: ElementDraft, baseline: ElementDraft): boolean {
  return !same(labelInputs(draft.labels), labelInputs(baseline.labels));
}

/** The element's own attachments as kept, in order with their names. */
export function attachmentInputs(attachments: readonly Attachment[]) {
  return attachments
    .filter((attachment) => !attachment.inherited)
    .map((attachment) => ({ id: attachment.id, name: attachment.name.trim() }));
}

export function attachmentsChanged(draft: ElementDraft, baseline: ElementDraft): boolean {
  return !same(attachmentInputs(draft.attachments), attachmentInputs(baseline.attachments));
}

export function isDraftDirty(draft: ElementDraft, baseline: ElementDraft): boolean {
  return (
    changedFieldKeys(draft, baseline).length > 0 ||
    changedLockKeys(draft, baseline).length > 0 ||
    labelsChanged(draft, baseline) ||
    attachmentsChanged(draft, baseline) ||
    draft.probeId !== baseline.probeId
  );
}

/**
 * Store level: the probe of a save, when it is sent — on creation when one is chosen, on an
 * update when it changed (null unbinds). An unchanged binding is never sent again.
 */
export function buildProbeInput(
  draft: ElementDraft,
  baseline: ElementDraft,
  level: ElementLevel,
  isCreation: boolean,
): { probe_id: string | null } | undefined {
  if (level !== 'store') return undefined;
  if (isCreation) return draft.probeId === null ? undefined : { probe_id: draft.probeId };
  return draft.probeId === baseline.probeId ? undefined : { probe_id: draft.probeId };
}

function fieldValue(draft: ElementDraft, key: ElementFieldKey, level: ElementLevel) {
  if (level === 'store' && draft.states[key] === 'inherited') return null;
  if (imageFields.has(key)) return null;
  const value = draft.values[key];
  if (durationFields.has(key)) return normalizeDuration(value as number | null);
  if (key === 'name') return (value as string).trim();
  return value;
}

/**
 * The element fields of a save. Creating sends every field; otherwise only what changed.
 * At store level an inherited field goes as null (follow the database again) and a locked
 * field is never sent.
 */
export function buildElementInput(
  draft: ElementDraft,
  baseline: ElementDraft,
  level: ElementLevel,
  isCreation: boolean,
): ElementInput {
  const keys = isCreation
    ? elementFieldKeys.filter((key) => !imageFields.has(key))
    : changedFieldKeys(draft, baseline);
  const input: Record<string, unknown> = {};
  for (const key of keys) {
    if (isFieldLocked(draft, key, level)) continue;
    input[key] = fieldValue(draft, key, level);
  }
  return input as ElementInput;
}

/** Database level: the locks that changed. */
export function buildLocksInput(
  draft: ElementDraft,
  baseline: ElementDraft,
  isCreation: boolean,
): Partial<Record<ElementLockKey, boolean>> | undefined {
  const keys = isCreation ? elementLockKeys : changedLockKeys(draft, baseline);
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((key) => [key, draft.locks[key]]));
}

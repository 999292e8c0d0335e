import {
  defaultElementLocks,
  type ElementFieldKey,
  type ElementLockKey,
  elementDefaults,
  elementFieldKeys,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import {
  type FieldState,
  normalizeDuration,
  resolveInheritance,
  validateElement,
} from '@mise/shared/catalogue/rules';
import type { ElementInput, ElementValues } from '@mise/shared/catalogue/schemas';
import type { databaseElements, storeElements } from '../../db/schema';
import { AppError } from '../../platform/errors';

export type DatabaseElementRow = typeof databaseElements.$inferSelect;
export type StoreElementRow = typeof storeElements.$inferSelect;
export type FieldValues = Partial<Record<ElementFieldKey, unknown>>;
export type Locks = Record<ElementLockKey, boolean>;

/** Boolean fields: never null in an effective value (a store's own element falls back to these). */
const booleanDefaults = {
  active: true,
  temperature_delivery_item: false,
  temperature_require_picture: false,
  temperature_picture: false,
  oils_require_picture: false,
  temperatures_module_active: true,
  labels_module_active: false,
  traceability_module_active: false,
  oils_module_active: false,
  temperature_control_module_active: false,
  encyclopedia_extension_active: false,
  mise_display_active: false,
} as const satisfies Partial<Record<ElementFieldKey, boolean>>;

/** The values of a new element of its own (the database columns' defaults, spec 001 §3.2, §9). */
export const newElementValues: FieldValues = {
  ...booleanDefaults,
  allergens: [],
  ...elementDefaults,
};

/** Columns that cannot be null on a database element. */
const requiredAtDatabase = new Set<string>(['name', 'allergens', ...Object.keys(booleanDefaults)]);

export function fieldsOf(row: FieldValues): Record<ElementFieldKey, unknown> {
  return Object.fromEntries(elementFieldKeys.map((key) => [key, row[key] ?? null])) as Record<
    ElementFieldKey,
    unknown
  >;
}

/** An effective value set with every non-null field filled. */
export function completeValues(values: FieldValues): ElementValues {
  const filled = fieldsOf(values) as Record<string, unknown>;
  for (const [key, value] of Object.entries(booleanDefaults)) {
    if (filled[key] === null) filled[key] = value;
  }
  if (filled.name === null) filled.name = '';
  if (filled.allergens === null) filled.allergens = [];
  return filled as ElementValues;
}

export function locksOf(row: Pick<DatabaseElementRow, 'locks'>): Locks {
  return { ...defaultElementLocks, ...row.locks };
}

export const noLocks: Locks = Object.fromEntries(
  elementLockKeys.map((key) => [key, false]),
) as Locks;

/** The body's element fields that are present, durations normalised (0 is stored as null). */
export function fieldChanges(input: ElementInput, level: 'database' | 'store'): FieldValues {
  const changes: FieldValues = {};
  const record = input as Record<string, unknown>;
  for (const key of elementFieldKeys) {
    const value = record[key];
    if (value === undefined) continue;
    if (value === null && level === 'database' && requiredAtDatabase.has(key)) {
      throw new AppError('validation/invalid-input', undefined, [
        { path: key, message: 'A database element needs a value here.' },
      ]);
    }
    changes[key] =
      key === 'reheating_duration' || key === 'cooling_duration'
        ? normalizeDuration(value as number | null)
        : key === 'allergens' && Array.isArray(value)
          ? [...new Set(value)]
          : value;
  }
  return changes;
}

export type Effective = {
  values: ElementValues;
  states: Record<ElementFieldKey, FieldState>;
  locks: Locks;
};

/** A store element as the store sees it: the one inheritance rule over its origin (if any). */
export function effectiveStoreValues(
  own: FieldValues | null,
  origin: DatabaseElementRow | null,
): Effective {
  const locks = origin ? locksOf(origin) : noLocks;
  const resolved = resolveInheritance<ElementFieldKey, unknown>(
    elementFieldKeys,
    own ?? {},
    origin ? { values: origin, locks } : null,
  );
  return { values: completeValues(resolved.values), states: resolved.states, locks };
}

export function effectiveDatabaseValues(row: DatabaseElementRow): Effective {
  const states = Object.fromEntries(elementFieldKeys.map((key) => [key, 'own'])) as Record<
    ElementFieldKey,
    FieldState
  >;
  return { values: completeValues(row), states, locks: locksOf(row) };
}

/**
 * The spec's element checks on effective values (spec 001 §5, §8). At store level the type
 * check is skipped when the origin locks type_id: the store cannot choose one, so a database
 * element without a type can still be overridden.
 */
export function assertValidElement(
  values: ElementValues,
  level: 'database' | 'store',
  locks?: Pick<Locks, 'type_id'>,
): void {
  const error = validateElement(values, isTypeRequired(level, locks) ? 'store' : 'database');
  if (error) throw new AppError(error);
}

/** A store must have a type unless its origin locks type_id (docs/decisions.md). */
export function isTypeRequired(
  level: 'database' | 'store',
  locks?: Pick<Locks, 'type_id'> | null,
): boolean {
  return level === 'store' && !locks?.type_id;
}

/** Store level: any locked field present in the body refuses the whole save (nothing written). */
export function assertNothingLocked(
  locks: Locks,
  body: Record<string, unknown>,
  keys: readonly ElementLockKey[] = elementLockKeys,
): void {
  const locked = keys.filter((key) => locks[key] && body[key] !== undefined);
  if (locked.length) {
    throw new AppError(
      'element/field-locked',
      undefined,
      locked.map((path) => ({ path, message: 'Locked by the database.' })),
    );
  }
}

/** Where an effective image comes from, to copy or serve its file. */
export function effectivePath(
  state: FieldState,
  own: { path: string | null },
  origin: { path: string | null } | null,
): string | null {
  return state === 'locked' || state === 'inherited' ? (origin?.path ?? null) : own.path;
}

export function extensionOf(path: string): string {
  return path.split('.').pop() ?? 'bin';
}

import type { ConfigurationModule } from '../tasks/constants';
import { copySuffix } from './constants';
import type { FieldState } from './rules';

/*
 * Expert mode (spec 001 §2.9, §4, §5, §9; issue 19): the pure rules of the bulk grids. A grid
 * keeps every row as edited and, beside it, the last saved copy of each row; what is sent,
 * reverted and applied is decided here, the same for elements and task configurations.
 */

export type BulkLevel = 'database' | 'store';

/** One row of a bulk grid as edited. Values and locks are keyed by field. */
export type BulkRow<V extends object = Record<string, unknown>> = {
  /** The row id, `origin:<id>` for a database row a store has not overridden, or a local key. */
  key: string;
  id: string | null;
  /** Store level: the database row it follows. */
  origin_id: string | null;
  /** The version read; null for a row never saved. */
  version: number | null;
  values: V;
  /** Database level: the row's locks. Store level: the origin's (read only). */
  locks: Record<string, boolean>;
  /** Where each field's value comes from; 'locked' fields are read-only at store level. */
  states: Record<string, FieldState>;
};

/** The last saved copy of each row, by key. A row without one is new (added locally). */
export type SavedRows<V extends object = Record<string, unknown>> = ReadonlyMap<string, BulkRow<V>>;

/** Structural equality of two field values (numbers, strings, lists, plain objects). */
export function isSameValue(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object')
    return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return (
      left.length === right.length && left.every((item, index) => isSameValue(item, right[index]))
    );
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return (
    leftKeys.length === rightKeys.length &&
    leftKeys.every((key) => isSameValue(leftRecord[key], rightRecord[key]))
  );
}

/** Whether a field is read-only because the origin locks it (store level only). */
export function isLockedAtOrigin(row: BulkRow<object>, field: string, level: BulkLevel): boolean {
  return level === 'store' && row.states[field] === 'locked';
}

/* ---------- The dirty-row diff ---------- */

/** Fields whose value differs from the last saved copy (every field of a new row). */
export function changedFields<V extends object>(row: BulkRow<V>, saved: BulkRow<V> | undefined) {
  const values = row.values as Record<string, unknown>;
  if (!saved) return Object.keys(values);
  const savedValues = saved.values as Record<string, unknown>;
  return Object.keys(values).filter((field) => !isSameValue(values[field], savedValues[field]));
}

/** Locks that differ from the last saved copy. */
export function changedLocks(row: BulkRow<object>, saved: BulkRow<object> | undefined): string[] {
  if (!saved) return Object.keys(row.locks);
  return Object.keys(row.locks).filter((field) => row.locks[field] !== saved.locks[field]);
}

/** A new row, or a row whose values (or, at database level, locks) changed since saved. */
export function isRowDirty<V extends object>(
  row: BulkRow<V>,
  saved: BulkRow<V> | undefined,
  level: BulkLevel,
): boolean {
  if (!saved) return true;
  // A row never edited is its saved copy itself.
  if (row === saved) return false;
  if (changedFields(row, saved).length > 0) return true;
  return level === 'database' && changedLocks(row, saved).length > 0;
}

/** The rows a save writes: new ones and changed ones, in grid order. */
export function dirtyRows<V extends object>(
  rows: readonly BulkRow<V>[],
  saved: SavedRows<V>,
  level: BulkLevel,
): BulkRow<V>[] {
  return rows.filter((row) => isRowDirty(row, saved.get(row.key), level));
}

/** One row of a bulk save body (packages/shared/src/catalogue/bulk.ts). */
export type BulkWrite = {
  key: string;
  id: string | null;
  origin_id?: string | null;
  version?: number;
  values: Record<string, unknown>;
  locks?: Record<string, boolean>;
};

/**
 * The rows of a save (spec 001 §4: only new or changed rows versus the last saved copy). A new
 * row goes whole (and, at database level, with all its locks); a changed row with only its
 * changed fields and locks, plus the version read. At store level a field the origin locks is
 * never sent and locks are never sent; a row the store has not overridden yet goes with its
 * origin_id (the save creates the override).
 */
export function buildBulkWrites<V extends object>(
  rows: readonly BulkRow<V>[],
  saved: SavedRows<V>,
  level: BulkLevel,
): BulkWrite[] {
  const writes: BulkWrite[] = [];
  for (const row of rows) {
    const savedRow = saved.get(row.key);
    if (!isRowDirty(row, savedRow, level)) continue;
    const allValues = row.values as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const field of changedFields(row, savedRow)) {
      if (isLockedAtOrigin(row, field, level)) continue;
      values[field] = allValues[field];
    }
    const write: BulkWrite = { key: row.key, id: row.id, values };
    if (row.origin_id) write.origin_id = row.origin_id;
    if (savedRow && row.id !== null && row.version !== null) write.version = row.version;
    if (level === 'database') {
      const locks = changedLocks(row, savedRow);
      if (locks.length > 0)
        write.locks = Object.fromEntries(locks.map((field) => [field, row.locks[field] ?? false]));
    }
    writes.push(write);
  }
  return writes;
}

/* ---------- Revert, apply, duplicate ---------- */

/**
 * Revert restores a column from the last saved copy (spec 001 §4): the field's value and, at
 * database level, its lock — for the rows given (the checked ones) or, without any, for every
 * row. New rows have no saved copy and keep their value. Untouched rows keep their identity.
 */
export function revertColumn<V extends object>(
  rows: readonly BulkRow<V>[],
  saved: SavedRows<V>,
  field: string,
  keys?: ReadonlySet<string>,
): BulkRow<V>[] {
  const isTargeted = (key: string) => !keys || keys.size === 0 || keys.has(key);
  return rows.map((row) => {
    const savedRow = saved.get(row.key);
    if (!savedRow || !isTargeted(row.key)) return row;
    const value = (savedRow.values as Record<string, unknown>)[field];
    const isValueSame = isSameValue((row.values as Record<string, unknown>)[field], value);
    const isLockSame = row.locks[field] === savedRow.locks[field];
    const isStateSame = row.states[field] === savedRow.states[field];
    if (isValueSame && isLockSame && isStateSame) return row;
    const next: BulkRow<V> = { ...row, values: { ...row.values, [field]: value } };
    const savedLock = savedRow.locks[field];
    const savedState = savedRow.states[field];
    if (savedLock !== undefined) next.locks = { ...row.locks, [field]: savedLock };
    if (savedState !== undefined) next.states = { ...row.states, [field]: savedState };
    return next;
  });
}

/** One field of one row set to a value; at store level an inherited field becomes overridden. */
export function setRowValue<V extends object>(
  row: BulkRow<V>,
  field: string,
  value: unknown,
  level: BulkLevel,
): BulkRow<V> {
  const next: BulkRow<V> = { ...row, values: { ...row.values, [field]: value } };
  if (level === 'store' && row.states[field] === 'inherited')
    next.states = { ...row.states, [field]: 'overridden' };
  return next;
}

/**
 * A bulk edit applies a value to every checked row (spec 001 §4); at store level the rows whose
 * origin locks the field are skipped and reported.
 */
export function applyToChecked<V extends object>(
  rows: readonly BulkRow<V>[],
  checked: ReadonlySet<string>,
  field: string,
  value: unknown,
  level: BulkLevel,
): { rows: BulkRow<V>[]; applied: string[]; skipped: string[] } {
  const applied: string[] = [];
  const skipped: string[] = [];
  const next = rows.map((row) => {
    if (!checked.has(row.key)) return row;
    if (isLockedAtOrigin(row, field, level)) {
      skipped.push(row.key);
      return row;
    }
    applied.push(row.key);
    if (isSameValue((row.values as Record<string, unknown>)[field], value)) return row;
    return setRowValue(row, field, value, level);
  });
  return { rows: next, applied, skipped };
}

/** A database-level lock set for the checked rows (a column's lock applied in bulk). */
export function applyLockToChecked<V extends object>(
  rows: readonly BulkRow<V>[],
  checked: ReadonlySet<string>,
  field: string,
  isLocked: boolean,
): BulkRow<V>[] {
  return rows.map((row) =>
    checked.has(row.key) && row.locks[field] !== isLocked
      ? { ...row, locks: { ...row.locks, [field]: isLocked } }
      : row,
  );
}

/** Name of a duplicate (spec 001 §9). */
export function duplicateName(name: string): string {
  return `${name}${copySuffix}`;
}

/**
 * Duplicate creates a new local row (spec 001 §4): the row's effective values with the name
 * suffixed ' (Copy)', no id, no origin (at store level a store's own row), saved only on Save.
 * At database level the copy keeps the locks; at store level it has none.
 */
export function duplicateRow<V extends { name: string }>(
  row: BulkRow<V>,
  key: string,
  level: BulkLevel,
): BulkRow<V> {
  const states = Object.fromEntries(Object.keys(row.states).map((field) => [field, 'own']));
  const locks =
    level === 'database'
      ? { ...row.locks }
      : Object.fromEntries(Object.keys(row.locks).map((field) => [field, false]));
  return {
    key,
    id: null,
    origin_id: null,
    version: null,
    values: { ...row.values, name: duplicateName(row.values.name) },
    locks,
    states: states as Record<string, FieldState>,
  };
}

/* ---------- Export (spec 001 §5) ---------- */

export type BulkExportKind = 'elements' | 'tasks';

/** The locale keys of the export checks (under `bulk.export`). */
export type BulkExportError =
  | 'bulk.export.noTargetDatabase'
  | 'bulk.export.noTargetStore'
  | 'bulk.export.sameDatabase'
  | 'bulk.export.sameStore'
  | 'bulk.export.noElementChecked'
  | 'bulk.export.noTaskChecked';

/**
 * The export checks in the spec's order: a target chosen, a target other than the database or
 * store being edited, at least one row checked.
 */
export function validateExport(input: {
  kind: BulkExportKind;
  level: BulkLevel;
  currentId: string;
  targetId: string | null;
  checkedCount: number;
}): BulkExportError | null {
  const isDatabase = input.level === 'database';
  if (!input.targetId)
    return isDatabase ? 'bulk.export.noTargetDatabase' : 'bulk.export.noTargetStore';
  if (input.targetId === input.currentId)
    return isDatabase ? 'bulk.export.sameDatabase' : 'bulk.export.sameStore';
  if (input.checkedCount < 1)
    return input.kind === 'elements' ? 'bulk.export.noElementChecked' : 'bulk.export.noTaskChecked';
  return null;
}

/**
 * The ids an export copies: the checked rows' ids. At store level a database row the store has
 * not overridden has no store id: it goes by its origin's id, for the server to copy the
 * store's view of it (docs/decisions.md). Rows never saved have neither and are left out.
 */
export function exportObjectIds(
  rows: readonly BulkRow<object>[],
  checked: ReadonlySet<string>,
): string[] {
  const ids: string[] = [];
  for (const row of rows) {
    if (!checked.has(row.key)) continue;
    const id = row.id ?? row.origin_id;
    if (id) ids.push(id);
  }
  return ids;
}

/* ---------- Task filters (spec 001 §2.9, §9) ---------- */

/** Bulk task filters: General 0, Actions 1, Temperatures 2, Oils 3. */
export const bulkTaskFilters = { general: 0, actions: 1, temperatures: 2, oils: 3 } as const;
export type BulkTaskFilterName = keyof typeof bulkTaskFilters;
export type BulkTaskFilter = (typeof bulkTaskFilters)[BulkTaskFilterName];

/** The module a task filter shows (General shows every task). */
export function taskFilterModule(filter: BulkTaskFilter): ConfigurationModule | null {
  switch (filter) {
    case bulkTaskFilters.actions:
      return 'actions';
    case bulkTaskFilters.temperatures:
      return 'temperatures';
    case bulkTaskFilters.oils:
      return 'oils';
    default:
      return null;
  }
}

/** Whether a task of a module shows under a filter. */
export function isInTaskFilter(module: ConfigurationModule, filter: BulkTaskFilter): boolean {
  const shown = taskFilterModule(filter);
  return shown === null || shown === module;
}

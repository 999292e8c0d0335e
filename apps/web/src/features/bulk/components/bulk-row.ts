import type { BulkLevel, BulkRow } from '@mise/shared/catalogue/bulk-rules';

/**
 * A grid row: the shared rules' row (values, locks, field states, version) plus what the grid
 * shows but never writes (type name, counts, module), in `info`.
 */
export type GridRow<V extends object = Record<string, unknown>, I = unknown> = BulkRow<V> & {
  info: I;
};

/** Any grid row, as the generic grid reads it. */
export type AnyGridRow = GridRow<object, unknown>;

/** A row's value of a field. */
export function readValue(row: AnyGridRow, field: string): unknown {
  return (row.values as Record<string, unknown>)[field];
}

/** The name a row shows (every grid row has one). */
export function nameOf(row: AnyGridRow): string {
  const name = readValue(row, 'name');
  return typeof name === 'string' ? name : '';
}

let localSequence = 0;
/** The key of a row added on this screen (new or duplicated), unique for the session. */
export function nextLocalKey(): string {
  localSequence += 1;
  return `new-${localSequence}`;
}

/** One issue of a row: the field it concerns and the locale key of its message (`errors.*`). */
export type RowIssue = { field: string; code: string };

/** The matching single screen of a bulk screen (opening it keeps the grid's edits). */
export const detailPathnames: Record<'elements' | 'tasks', Record<BulkLevel, string>> = {
  elements: { database: '/databaseElement', store: '/storeElement' },
  tasks: { database: '/taskConf', store: '/storeTaskConf' },
};

/**
 * Where a row opens: the database row, the store's own row, or — for a database row the store
 * has not overridden yet — the store screen on its origin (as the lists do).
 */
export function detailPath(
  kind: 'elements' | 'tasks',
  level: BulkLevel,
  ownerId: string,
  row: AnyGridRow,
): string {
  const pathname = detailPathnames[kind][level];
  if (row.id) return `${pathname}?id=${encodeURIComponent(row.id)}`;
  const query = new URLSearchParams({ store: ownerId, origin: row.origin_id ?? '' });
  return `${pathname}?${query.toString()}`;
}

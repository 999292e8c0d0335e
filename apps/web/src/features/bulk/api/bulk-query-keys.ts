import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';

export type BulkKind = 'elements' | 'tasks';

/** Every query of the bulk screens lives under this key. */
export const bulkQueryKey = ['bulk'] as const;

/**
 * The grid starts from rows read at most this long ago: rows prefetched alongside the screen's
 * chunk are used as they arrive, an older cache is read again first (its saved copy must be
 * the server's).
 */
export const bulkRowsFreshMs = 5_000;

export const bulkRowsQueryKey = (kind: BulkKind, level: BulkLevel, ownerId: string) =>
  [...bulkQueryKey, kind, level, ownerId] as const;

export const bulkOwnerQueryKey = (level: BulkLevel, ownerId: string) =>
  [...bulkQueryKey, 'owner', level, ownerId] as const;

/** REST path of a grid's owner (`/databases/:id` or `/stores/:id`). */
export function ownerPath(level: BulkLevel, ownerId: string): string {
  return `/${level === 'database' ? 'databases' : 'stores'}/${encodeURIComponent(ownerId)}`;
}

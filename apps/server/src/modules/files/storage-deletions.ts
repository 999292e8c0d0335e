import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { storageDeletions } from '../../db/schema';
import type { Storage } from '../../platform/storage';

type Executor = Pick<Database, 'insert'>;

/**
 * Queues storage keys for deletion inside the transaction that stops referencing them; the
 * files are removed once it has committed (`deleteQueuedFiles`), or by `flushStorageDeletions`
 * at the next start when the process died in between.
 */
export async function queueStorageDeletions(tx: Executor, paths: readonly string[]): Promise<void> {
  const unique = [...new Set(paths.filter(Boolean))];
  if (unique.length === 0) return;
  await tx
    .insert(storageDeletions)
    .values(unique.map((path) => ({ path })))
    .onConflictDoNothing();
}

/** Removes queued files after their transaction committed; a failure is retried at next start. */
export async function deleteQueuedFiles(
  db: Database,
  storage: Storage,
  paths: readonly string[],
): Promise<void> {
  const unique = [...new Set(paths.filter(Boolean))];
  if (unique.length === 0) return;
  const deleted: string[] = [];
  for (const path of unique) {
    try {
      await storage.delete(path);
      deleted.push(path);
    } catch {
      // Left queued: flushStorageDeletions retries it.
    }
  }
  if (deleted.length) {
    await db.delete(storageDeletions).where(inArray(storageDeletions.path, deleted));
  }
}

/** Carries out every queued deletion (call once at start, after migrations). */
export async function flushStorageDeletions(db: Database, storage: Storage): Promise<number> {
  const rows = await db.select({ path: storageDeletions.path }).from(storageDeletions);
  await deleteQueuedFiles(
    db,
    storage,
    rows.map((row) => row.path),
  );
  return rows.length;
}

import { dayInZone } from '@mise/shared/tasks/rules';
import type { Task } from '@mise/shared/tasks/schemas';
import { and, asc, desc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { taskGenerationEvents, tasks } from '../../db/schema';
import { AppError, forbidden } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findStoreInScope } from '../stores/stores.service';
import { type GenerationOptions, generateStoreDay } from './generation.service';
import { presentTask } from './present-task';

/** Longest range of the admin's event search (spec 002 §5, §9): 31 days. */
export const maxSearchRangeDays = 31;
/** Events answered by one search, newest first. */
export const maxSearchEvents = 1000;

/**
 * A store's tasks of one local calendar day (default: the store's today), ordered by start,
 * each with its status at `now` (spec 002 §4). Anyone who sees the store; else 404.
 */
export async function listStoreTasks(
  db: Database,
  scope: Scope,
  storeId: string,
  day: string | undefined,
  now: Date = new Date(),
): Promise<{ day: string; items: Task[] }> {
  const store = await findStoreInScope(db, scope, storeId);
  const wanted = day ?? dayInZone(now, store.timezone_name);
  const rows = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.store_id, store.id), eq(tasks.day, wanted)))
    .orderBy(asc(tasks.start), asc(tasks.name));
  return { day: wanted, items: rows.map((row) => presentTask(row, now, store.timezone_name)) };
}

function requireAdmin(scope: Scope): void {
  if (scope.role !== 'admin') throw forbidden();
}

/**
 * The admin technical screen's event search (spec 002 §2, §5, §7): admin only (403), a store
 * is required ('task-generation/select-store'), the range is at most 31 days
 * ('date-range-too-long'). Events of that store, and the store-less "program starting" and
 * error events of the same period, newest first, at most 1000 (`truncated: true` when more
 * matched).
 */
export async function searchGenerationEvents(
  db: Database,
  scope: Scope,
  body: { start: string; end: string; storeId?: string | null },
) {
  requireAdmin(scope);
  if (!body.storeId) throw new AppError('task-generation/select-store');
  const start = new Date(body.start);
  const end = new Date(body.end);
  if (end.getTime() < start.getTime()) throw new AppError('validation/invalid-input');
  if (end.getTime() - start.getTime() > maxSearchRangeDays * 86_400_000) {
    throw new AppError('date-range-too-long');
  }
  const store = await findStoreInScope(db, scope, body.storeId);
  const rows = await db
    .select()
    .from(taskGenerationEvents)
    .where(
      and(
        or(eq(taskGenerationEvents.store_id, store.id), isNull(taskGenerationEvents.store_id)),
        gte(taskGenerationEvents.created_at, start),
        lte(taskGenerationEvents.created_at, end),
      ),
    )
    .orderBy(desc(taskGenerationEvents.created_at))
    .limit(maxSearchEvents + 1);
  const truncated = rows.length > maxSearchEvents;
  return {
    truncated,
    items: rows.slice(0, maxSearchEvents).map((row) => ({
      id: row.id,
      type: row.type,
      store_id: row.store_id,
      message: row.message,
      details: row.details ?? null,
      timestamp: row.created_at.toISOString(),
    })),
  };
}

/**
 * The admin's "generate now" for one store and day (default the store's today): forced, so a
 * day already generated gets the tasks of configurations added since, and nothing twice.
 */
export async function runGeneration(
  db: Database,
  scope: Scope,
  body: { storeId: string; day?: string },
  options: Omit<GenerationOptions, 'force'> = {},
): Promise<{ day: string; created: number }> {
  requireAdmin(scope);
  const store = await findStoreInScope(db, scope, body.storeId);
  const now = options.now ?? new Date();
  const day = body.day ?? dayInZone(now, store.timezone_name);
  const result = await generateStoreDay(db, store, day, { ...options, now, force: true });
  return { day, created: result.created };
}

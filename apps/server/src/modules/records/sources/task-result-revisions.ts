import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { taskResultRevisions } from '../../../db/schema';
import type { ChainSource } from './types';

type TaskResultRevisionRow = typeof taskResultRevisions.$inferSelect;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids per statement (each a parameter). */
const idsPerQuery = 5000;

/**
 * A task result revision (completion, correction, postponement; scheduled or unscheduled task):
 * every column of its row, named one by one so a column added later does not change the hash of
 * the records already chained. Instants as ISO text, the result and employee as stored (jsonb).
 */
export function taskResultRevisionContent(row: TaskResultRevisionRow) {
  return {
    id: row.id,
    task_id: row.task_id,
    store_id: row.store_id,
    revision: row.revision,
    kind: row.kind,
    result: row.result ?? null,
    completed_timestamp: row.completed_timestamp?.toISOString() ?? null,
    reported_timestamp: row.reported_timestamp?.toISOString() ?? null,
    employee_id: row.employee_id ?? null,
    employee: row.employee ?? null,
    device_id: row.device_id ?? null,
    reason: row.reason ?? null,
    idempotency_key: row.idempotency_key,
    request_hash: row.request_hash,
    created_at: row.created_at.toISOString(),
  };
}

export const taskResultRevisionSource: ChainSource<TaskResultRevisionRow> = {
  kind: 'task_result_revision',
  contentOf: taskResultRevisionContent,
  async load(db, storeId, recordIds) {
    const found = new Map<string, TaskResultRevisionRow>();
    const ids = recordIds.filter((id) => uuidPattern.test(id));
    for (let index = 0; index < ids.length; index += idsPerQuery) {
      const rows = await db
        .select()
        .from(taskResultRevisions)
        .where(
          and(
            eq(taskResultRevisions.store_id, storeId),
            inArray(taskResultRevisions.id, ids.slice(index, index + idsPerQuery)),
          ),
        );
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  },
  async list(db, storeId, from, to) {
    const rows = await db
      .select({ id: taskResultRevisions.id })
      .from(taskResultRevisions)
      .where(
        and(
          eq(taskResultRevisions.store_id, storeId),
          gte(taskResultRevisions.created_at, from),
          lt(taskResultRevisions.created_at, to),
        ),
      );
    return rows.map((row) => row.id);
  },
};

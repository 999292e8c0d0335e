import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { punchEntryRevisions } from '../../../db/schema';
import type { ChainSource } from './types';

type PunchEntryRevisionRow = typeof punchEntryRevisions.$inferSelect;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids per statement (each a parameter). */
const idsPerQuery = 5000;

/**
 * A punch entry revision (clocking from a tablet, creation, correction or removal from the
 * back-office): every column of its row, named one by one; the entry's state before and after
 * as stored (jsonb), instants as ISO text.
 */
export function punchEntryRevisionContent(row: PunchEntryRevisionRow) {
  return {
    id: row.id,
    entry_id: row.entry_id,
    store_id: row.store_id,
    action: row.action,
    before: row.before ?? null,
    after: row.after ?? null,
    user_id: row.user_id ?? null,
    employee_id: row.employee_id ?? null,
    device_id: row.device_id ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export const punchEntryRevisionSource: ChainSource<PunchEntryRevisionRow> = {
  kind: 'punch_entry_revision',
  contentOf: punchEntryRevisionContent,
  async load(db, storeId, recordIds) {
    const found = new Map<string, PunchEntryRevisionRow>();
    const ids = recordIds.filter((id) => uuidPattern.test(id));
    for (let index = 0; index < ids.length; index += idsPerQuery) {
      const rows = await db
        .select()
        .from(punchEntryRevisions)
        .where(
          and(
            eq(punchEntryRevisions.store_id, storeId),
            inArray(punchEntryRevisions.id, ids.slice(index, index + idsPerQuery)),
          ),
        );
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  },
  async list(db, storeId, from, to) {
    const rows = await db
      .select({ id: punchEntryRevisions.id })
      .from(punchEntryRevisions)
      .where(
        and(
          eq(punchEntryRevisions.store_id, storeId),
          gte(punchEntryRevisions.created_at, from),
          lt(punchEntryRevisions.created_at, to),
        ),
      );
    return rows.map((row) => row.id);
  },
};

import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { auditResults } from '../../../db/schema';
import { appendToChain } from '../chain';
import type { ChainSource } from './types';

/*
 * Audit results in the records chain (issue 21, docs/decisions.md "Records chain: audit
 * results"). A result in progress is the auditor's draft (answers replaced as they go); the
 * record is the submitted result, stamped, scored and never changed again (audits module). So
 * one entry per result, record id = the result's id, appended in the submission's transaction.
 */

type AuditResultRow = typeof auditResults.$inferSelect;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids per statement (each a parameter). */
const idsPerQuery = 5000;

/**
 * A submitted result: every column that states the record, named one by one (instants as ISO
 * text, answers and section scores as stored). Left out: the stored PDF's key (rendered later
 * from the record), and the row's version and updated_at (bookkeeping of the draft's saves).
 */
export function auditResultContent(row: AuditResultRow) {
  return {
    id: row.id,
    audit_id: row.audit_id,
    audit_version: row.audit_version,
    database_id: row.database_id,
    store_id: row.store_id,
    source: row.source,
    auditor_user_id: row.auditor_user_id ?? null,
    auditor_employee_id: row.auditor_employee_id ?? null,
    auditor_name: row.auditor_name,
    status: row.status,
    start_date: row.start_date.toISOString(),
    end_date: row.end_date?.toISOString() ?? null,
    answers: row.answers,
    score: row.score ?? null,
    max_score: row.max_score ?? null,
    section_scores: row.section_scores,
    created_at: row.created_at.toISOString(),
  };
}

export const auditResultSource: ChainSource<AuditResultRow> = {
  kind: 'audit_result',
  contentOf: auditResultContent,
  async load(db, storeId, recordIds) {
    const found = new Map<string, AuditResultRow>();
    const ids = [...new Set(recordIds.filter((id) => uuidPattern.test(id)))];
    for (let index = 0; index < ids.length; index += idsPerQuery) {
      const rows = await db
        .select()
        .from(auditResults)
        .where(
          and(
            eq(auditResults.store_id, storeId),
            inArray(auditResults.id, ids.slice(index, index + idsPerQuery)),
          ),
        );
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  },
  async list(db, storeId, from, to) {
    const rows = await db
      .select({ id: auditResults.id })
      .from(auditResults)
      .where(
        and(
          eq(auditResults.store_id, storeId),
          eq(auditResults.status, 'submitted'),
          gte(auditResults.end_date, from),
          lt(auditResults.end_date, to),
        ),
      );
    return rows.map((row) => row.id);
  },
};

/** Appends a result just submitted (the row as stored) to its store's chain, in `tx`. */
export async function chainAuditResult(
  tx: Database,
  row: AuditResultRow,
  now: Date = new Date(),
): Promise<void> {
  await appendToChain(
    tx,
    {
      storeId: row.store_id,
      kind: 'audit_result',
      recordId: row.id,
      record: auditResultContent(row),
    },
    now,
  );
}

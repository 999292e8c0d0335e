import { randomUUID } from 'node:crypto';
import {
  effectiveRetentionMonths,
  type RetentionRecordType,
  type RetentionResponse,
  retentionBelowMinimum,
  retentionCutoffDay,
  retentionRecordTypes,
  retentionRules,
  type UpdateRetentionBody,
} from '@mise/shared/records/retention';
import { dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import {
  auditResults,
  punchEntries,
  punchEntryRevisions,
  recordChainEntries,
  retentionSettings,
  stores,
  taskResultRevisions,
  tasks,
} from '../../db/schema';
import { AppError, forbidden } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { appendToChain, type ChainKind, entriesCovering } from './chain';
import { recordsSigningKey, signRecord } from './signing';
import { seqRanges, type TombstoneSummary, tombstoneSummaryOf } from './tombstones';

/*
 * Retention of records (issue 21; docs/decisions.md "Retention of records"). A database sets how
 * long each type of record is kept (packages/shared/src/records/retention.ts: defaults and legal
 * minimums); a daily job removes, store by store, what is older, each type in its own
 * transaction, and appends to the store's records chain a tombstone signed with the records key:
 * which type, before which store day, how many rows, and the seqs of the chain entries whose
 * records went. The verifier accepts those records' absence, and only theirs.
 */

/** The settings' column of each type. */
const columnOf = {
  task_results: 'task_results_months',
  punch_cards: 'punch_cards_months',
  probe_readings: 'probe_readings_months',
  audit_results: 'audit_results_months',
  documents: 'documents_months',
} as const satisfies Record<RetentionRecordType, keyof typeof retentionSettings.$inferSelect>;

/** The chain kind whose entries cover a type's records (documents are not chained). */
export const chainKindOfType: Record<RetentionRecordType, ChainKind | null> = {
  task_results: 'task_result_revision',
  punch_cards: 'punch_entry_revision',
  probe_readings: 'probe_readings_day',
  audit_results: 'audit_result',
  documents: null,
};

type SettingsRow = typeof retentionSettings.$inferSelect;

/** A type's default, the deployment's PROBE_RETENTION_MONTHS for probe readings. */
const defaultOf = (type: RetentionRecordType, config: Pick<Config, 'PROBE_RETENTION_MONTHS'>) =>
  type === 'probe_readings' ? config.PROBE_RETENTION_MONTHS : retentionRules[type].defaultMonths;

/* ---------- Tombstones ---------- */

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

async function appendTombstone(tx: Tx, key: Buffer, summary: TombstoneSummary): Promise<void> {
  await appendToChain(tx, {
    storeId: summary.store_id,
    kind: 'tombstone',
    recordId: `retention:${summary.type}:${summary.before}:${randomUUID()}`,
    record: summary,
    details: { ...summary, signature: signRecord(key, summary) },
  });
}

/** The seqs of a store's chain entries of a kind covering these record ids. */
async function entrySeqs(tx: Tx, storeId: string, kind: ChainKind, recordIds: string[]) {
  return (await entriesCovering(tx, storeId, kind, recordIds)).map((entry) => entry.seq);
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Storage keys written in a JSON value (pictures of results) under a prefix. */
function keysUnder(value: unknown, prefix: string): string[] {
  const keys: string[] = [];
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const match of JSON.stringify(value ?? null).matchAll(
    new RegExp(`${escaped}[A-Za-z0-9_./-]+`, 'g'),
  )) {
    keys.push(match[0]);
  }
  return keys;
}

/* ---------- The removal of one type in one store ---------- */

/** Records removed per run, store and type at most (the next day's run goes on). */
const maxRowsPerRun = 5000;

type StoreTarget = { id: string; timezone_name: string };
type Removal = { removed: number; files: string[] };

/** Removes one type's records of a store before `before` (a store day), with its tombstone. */
async function removeStoreRecords(
  db: Database,
  key: Buffer,
  store: StoreTarget,
  type: Exclude<RetentionRecordType, 'documents'>,
  before: string,
): Promise<Removal> {
  const cutoff = localMinuteToInstant(before, 0, store.timezone_name);
  const kind = chainKindOfType[type]!;
  return db.transaction(async (tx) => {
    let removed = 0;
    let seqs: number[] = [];
    const files: string[] = [];
    if (type === 'task_results') {
      const taskRows = rowsOf<{ id: string; result: unknown }>(
        await tx.execute(sql`select id, result from tasks
           where store_id = ${store.id} and day < ${before}::date
           order by day, id limit ${maxRowsPerRun} for update`),
      );
      if (taskRows.length === 0) return { removed: 0, files: [] };
      const ids = taskRows.map((row) => row.id);
      const revisions = await tx
        .select({ id: taskResultRevisions.id, result: taskResultRevisions.result })
        .from(taskResultRevisions)
        .where(inArray(taskResultRevisions.task_id, ids));
      seqs = await entrySeqs(
        tx,
        store.id,
        kind,
        revisions.map((row) => row.id),
      );
      const prefix = `stores/${store.id}/tasks/`;
      for (const row of [...taskRows, ...revisions]) files.push(...keysUnder(row.result, prefix));
      await tx.delete(tasks).where(inArray(tasks.id, ids));
      removed = taskRows.length + revisions.length;
    } else if (type === 'punch_cards') {
      const entries = rowsOf<{ id: string }>(
        await tx.execute(sql`select id from punch_entries
           where store_id = ${store.id} and day < ${before}::date
           order by day, id limit ${maxRowsPerRun} for update`),
      );
      if (entries.length === 0) return { removed: 0, files: [] };
      const ids = entries.map((row) => row.id);
      const revisions = await tx
        .select({ id: punchEntryRevisions.id })
        .from(punchEntryRevisions)
        .where(inArray(punchEntryRevisions.entry_id, ids));
      seqs = await entrySeqs(
        tx,
        store.id,
        kind,
        revisions.map((row) => row.id),
      );
      await tx.delete(punchEntries).where(inArray(punchEntries.id, ids));
      removed = entries.length + revisions.length;
    } else if (type === 'audit_results') {
      const results = rowsOf<{ id: string; pdf_key: string | null; answers: unknown }>(
        await tx.execute(sql`select id, pdf_key, answers from audit_results
           where store_id = ${store.id} and status = 'submitted'
             and end_date < ${cutoff.toISOString()}::timestamptz
           order by end_date, id limit ${maxRowsPerRun} for update`),
      );
      if (results.length === 0) return { removed: 0, files: [] };
      const ids = results.map((row) => row.id);
      seqs = await entrySeqs(tx, store.id, kind, ids);
      for (const row of results) {
        if (row.pdf_key) files.push(row.pdf_key);
        files.push(...keysUnder(row.answers, `audit-results/${row.id}/`));
      }
      await tx.delete(auditResults).where(inArray(auditResults.id, ids));
      removed = results.length;
    } else {
      // Probe readings: the store's probes' readings before the cutoff, their hourly rollup,
      // and the chain's probe days before `before` not covered by an earlier tombstone.
      const [latest] = rowsOf<{ before: string }>(
        await tx.execute(sql`select details->>'before' as before from record_chain_entries
           where store_id = ${store.id} and kind = 'tombstone'
             and details->>'type' = 'probe_readings'
           order by seq desc limit 1`),
      );
      const from = latest?.before ?? '0001-01-01';
      const dayEntries = rowsOf<{ seq: string | number }>(
        await tx.execute(sql`select seq from record_chain_entries
           where store_id = ${store.id} and kind = 'probe_readings_day'
             and split_part(record_id, ':', 2) >= ${from}
             and split_part(record_id, ':', 2) < ${before}`),
      );
      seqs = dayEntries.map((row) => Number(row.seq));
      const probeIds = sql`(select id from probes where store_id = ${store.id})`;
      const readings = rowsOf<{ count: string | number }>(
        await tx.execute(sql`with gone as (
            delete from probe_readings
             where probe_id in ${probeIds} and "timestamp" < ${cutoff.toISOString()}::timestamptz
            returning 1)
          select count(*) as count from gone`),
      );
      await tx.execute(sql`delete from probe_readings_hourly
         where probe_id in ${probeIds} and hour < ${cutoff.toISOString()}::timestamptz`);
      removed = Number(readings[0]?.count ?? 0);
      if (removed === 0 && seqs.length === 0) return { removed: 0, files: [] };
    }
    await appendTombstone(tx, key, {
      store_id: store.id,
      type,
      chain_kind: kind,
      before,
      removed,
      seqs: seqRanges(seqs),
    });
    return { removed, files };
  });
}

/** A database's documents (its own and its stores') unchanged since before the cutoff. */
async function removeDocuments(db: Database, databaseId: string, cutoff: Date): Promise<Removal> {
  const rows = rowsOf<{ storage_key: string | null }>(
    await db.execute(sql`delete from documents
       where type = 'file' and locked = false and updated_at < ${cutoff.toISOString()}::timestamptz
         and (database_id = ${databaseId}
              or store_id in (select id from stores where database_id = ${databaseId}))
       returning storage_key`),
  );
  return {
    removed: rows.length,
    files: rows.flatMap((row) => (row.storage_key ? [row.storage_key] : [])),
  };
}

export type RetentionRunSummary = {
  /** Rows removed per type. */
  removed: Record<RetentionRecordType, number>;
  /** Tombstones appended. */
  tombstones: number;
  /** Stored files removed. */
  files: number;
  /** Failures (a store and type that will be tried again at the next run). */
  failures: number;
};

/**
 * One pass of the retention job over every store: each type's records older than its
 * database's retention (never less than the legal minimum, whatever is stored) are removed in a
 * transaction of their own, with their tombstone; then the files they referenced. Readings of
 * probes that belong to no store go after the deployment's PROBE_RETENTION_MONTHS (no chain).
 */
export async function runRetention(
  deps: { db: Database; storage: Storage; config: Config },
  now: Date,
  log?: { warn(object: object, message: string): void },
): Promise<RetentionRunSummary> {
  const { db, storage, config } = deps;
  const key = recordsSigningKey(config);
  const summary: RetentionRunSummary = {
    removed: Object.fromEntries(retentionRecordTypes.map((type) => [type, 0])) as Record<
      RetentionRecordType,
      number
    >,
    tombstones: 0,
    files: 0,
    failures: 0,
  };
  const settingsRows = await db.select().from(retentionSettings);
  const settingsOf = new Map(settingsRows.map((row) => [row.database_id, row]));
  const monthsOf = (databaseId: string | null, type: RetentionRecordType) => {
    const row: SettingsRow | undefined = databaseId ? settingsOf.get(databaseId) : undefined;
    return effectiveRetentionMonths(type, row?.[columnOf[type]], defaultOf(type, config));
  };
  const files: string[] = [];

  const storeRows = await db
    .select({ id: stores.id, database_id: stores.database_id, timezone_name: stores.timezone_name })
    .from(stores);
  for (const store of storeRows) {
    const today = dayInZone(now, store.timezone_name);
    for (const type of retentionRecordTypes) {
      if (type === 'documents') continue;
      const months = monthsOf(store.database_id, type);
      if (months === null) continue;
      try {
        const removal = await removeStoreRecords(
          db,
          key,
          store,
          type,
          retentionCutoffDay(today, months),
        );
        summary.removed[type] += removal.removed;
        if (removal.removed > 0 || removal.files.length > 0) summary.tombstones += 1;
        files.push(...removal.files);
      } catch (error) {
        summary.failures += 1;
        log?.warn({ err: error, storeId: store.id, type }, 'retention: removal failed');
      }
    }
  }

  // Documents, per database (a database's own and its stores').
  for (const row of settingsRows) {
    const months = effectiveRetentionMonths('documents', row.documents_months);
    if (months === null) continue;
    const cutoffDay = retentionCutoffDay(now.toISOString().slice(0, 10), months);
    try {
      const removal = await removeDocuments(
        db,
        row.database_id,
        new Date(`${cutoffDay}T00:00:00Z`),
      );
      summary.removed.documents += removal.removed;
      files.push(...removal.files);
    } catch (error) {
      summary.failures += 1;
      log?.warn({ err: error, databaseId: row.database_id }, 'retention: documents failed');
    }
  }

  // Readings of probes that belong to no store (no chain to mark).
  const unowned = new Date(
    `${retentionCutoffDay(now.toISOString().slice(0, 10), Math.max(24, config.PROBE_RETENTION_MONTHS))}T00:00:00Z`,
  ).toISOString();
  await db.execute(sql`delete from probe_readings
     where probe_id in (select id from probes where store_id is null)
       and "timestamp" < ${unowned}::timestamptz`);
  await db.execute(sql`delete from probe_readings_hourly
     where probe_id in (select id from probes where store_id is null)
       and hour < ${unowned}::timestamptz`);

  // The files, once their rows are gone for good (a failure only logged: the unreferenced
  // uploads sweep does not cover these folders, so it is said).
  for (const file of new Set(files)) {
    try {
      await storage.delete(file);
      summary.files += 1;
    } catch (error) {
      log?.warn({ err: error, key: file }, 'retention: a file could not be removed');
    }
  }
  return summary;
}

/* ---------- Settings (GET and PUT /api/databases/:id/retention) ---------- */

/** A database's retention settings, with the job's latest removals in its stores. */
export async function readRetention(
  db: Database,
  config: Config,
  scope: Scope,
  databaseId: string,
): Promise<RetentionResponse> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  const [row] = await db
    .select()
    .from(retentionSettings)
    .where(eq(retentionSettings.database_id, database.id));
  const removals = await db
    .select({
      store_id: recordChainEntries.store_id,
      store_name: stores.name,
      details: recordChainEntries.details,
      at: recordChainEntries.created_at,
    })
    .from(recordChainEntries)
    .innerJoin(stores, eq(stores.id, recordChainEntries.store_id))
    .where(
      and(
        eq(stores.database_id, database.id),
        eq(recordChainEntries.kind, 'tombstone'),
        // Customers see their own stores' removals only.
        ...(scope.role === 'customer'
          ? [scope.ownedStoreIds.length > 0 ? inArray(stores.id, scope.ownedStoreIds) : sql`false`]
          : []),
      ),
    )
    .orderBy(desc(recordChainEntries.created_at))
    .limit(20);
  return {
    database_id: database.id,
    editable: scope.role !== 'customer',
    types: Object.fromEntries(
      retentionRecordTypes.map((type) => {
        const months = row?.[columnOf[type]] ?? null;
        const defaultMonths = defaultOf(type, config);
        return [
          type,
          {
            months,
            defaultMonths,
            minimum: retentionRules[type].minimum,
            effective: effectiveRetentionMonths(type, months, defaultMonths),
          },
        ];
      }),
    ) as RetentionResponse['types'],
    updated_at: row?.updated_at.toISOString() ?? null,
    removals: removals.flatMap((removal) => {
      const summary = tombstoneSummaryOf(removal.details);
      return summary
        ? [
            {
              store_id: removal.store_id,
              store_name: removal.store_name,
              type: summary.type,
              before: summary.before,
              count: summary.removed,
              at: removal.at.toISOString(),
            },
          ]
        : [];
    }),
  };
}

/**
 * Changes a database's retention (admin, its distributor, its managers; customers 403). A
 * value below its type's legal minimum answers 400 'retention/below-minimum', writing nothing.
 */
export async function updateRetention(
  db: Database,
  config: Config,
  scope: Scope,
  databaseId: string,
  body: UpdateRetentionBody,
): Promise<RetentionResponse> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (scope.role === 'customer') throw forbidden();
  const below = retentionBelowMinimum(body);
  if (below) {
    throw new AppError('retention/below-minimum', undefined, [
      {
        path: below,
        message: `At least ${retentionRules[below].minimum} months.`,
      },
    ]);
  }
  const changes: Partial<SettingsRow> = {};
  for (const type of retentionRecordTypes) {
    if (body[type] !== undefined) (changes as Record<string, unknown>)[columnOf[type]] = body[type];
  }
  const updatedBy = scope.userId;
  await db
    .insert(retentionSettings)
    .values({ database_id: database.id, ...changes, updated_by: updatedBy, updated_at: new Date() })
    .onConflictDoUpdate({
      target: retentionSettings.database_id,
      set: { ...changes, updated_by: updatedBy, updated_at: new Date() },
    });
  return readRetention(db, config, scope, database.id);
}

import type { ChainProblem, VerifyRecordsResult } from '@mise/shared/records/schemas';
import { addDays, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, asc, desc, eq, gte, lt, lte, max, min } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { recordChainCheckpoints, recordChainEntries, recordChainHeads } from '../../db/schema';
import {
  type ChainEntry,
  type ChainKind,
  entriesCovering,
  entryHashOf,
  genesisHash,
  recordHashOf,
} from './chain';
import { chainSources } from './sources';
import type { ChainSource } from './sources/types';
import { isValidTombstone, type TombstoneSummary } from './tombstones';

/*
 * The verifier of a store's records chain (issue 21, docs/decisions.md "Records chain"). It
 * walks the entries in seq order, a batch at a time, and checks that each follows its
 * predecessor (seq + 1, prev_hash), that its own hash is right, that it agrees with the
 * published checkpoints, and that the record it covers, reloaded through its kind's source,
 * still has the hash it was chained with. Then every revision of a covered kind written in the
 * period must be covered by an entry. The answer is "intact" with counts, or the first break.
 */

type Reader = Pick<Database, 'select' | 'execute'>;
type Problem = Extract<VerifyRecordsResult, { status: 'broken' }>['first'];

export type VerifyChainOptions = {
  /** Entries created at or after this instant (default: the chain's start). */
  from?: Date;
  /** Entries created before this instant (default: the store's head when the walk starts). */
  to?: Date;
  /** Entries read per query (and records reloaded per kind and query). */
  batchSize?: number;
  /** The sources of each kind (default: the registry). */
  sources?: Partial<Record<string, ChainSource<never>>>;
  /**
   * The records key (recordsSigningKey): retention tombstones signed with it cover the records
   * they name. Without it every tombstone is invalid.
   */
  signingKey?: Buffer;
};

/** The seqs the valid tombstones of a store cover, per chain kind, with each tombstone's seq. */
type Coverage = Map<string, { seq: number; ranges: [number, number][] }[]>;

function coveredBy(coverage: Coverage, kind: string, seq: number): boolean {
  return (coverage.get(kind) ?? []).some(
    (tombstone) =>
      tombstone.seq > seq && tombstone.ranges.some(([first, last]) => seq >= first && seq <= last),
  );
}

/** The end of an open period (a time PostgreSQL reads). */
const latest = new Date('9999-12-31T00:00:00Z');

/** Verifies one store's chain over [from, to) (see the file's comment). Reads only. */
export async function verifyRecordsChain(
  db: Reader,
  storeId: string,
  options: VerifyChainOptions = {},
): Promise<VerifyRecordsResult> {
  const batchSize = options.batchSize ?? 5000;
  const sources: Partial<Record<string, ChainSource<never>>> = options.sources ?? chainSources;
  const period = {
    store_id: storeId,
    from: options.from?.toISOString() ?? null,
    to: options.to?.toISOString() ?? null,
  };
  let walked = 0;
  const broken = (first: Problem): VerifyRecordsResult => ({
    status: 'broken',
    ...period,
    entries: walked,
    first,
  });
  const entryProblem = (
    entry: { seq: number; kind: string; record_id: string } | null,
    seq: number,
    problem: ChainProblem,
    expected: string | null,
    found: string | null,
  ) =>
    broken({
      seq,
      kind: entry?.kind ?? null,
      record_id: entry?.record_id ?? null,
      problem,
      expected,
      found,
    });

  // The head first: entries appended while the walk runs are left for the next verification.
  const [head] = await db
    .select({ seq: recordChainHeads.seq, head_hash: recordChainHeads.head_hash })
    .from(recordChainHeads)
    .where(eq(recordChainHeads.store_id, storeId));
  const headSeq = head?.seq ?? 0;
  if (!head) {
    // No head: the store never appended, so no entry may exist.
    const [any] = await db
      .select({ seq: recordChainEntries.seq, kind: recordChainEntries.kind })
      .from(recordChainEntries)
      .where(eq(recordChainEntries.store_id, storeId))
      .orderBy(desc(recordChainEntries.seq))
      .limit(1);
    if (any) return entryProblem(null, any.seq, 'link-broken', null, null);
  }

  // The range of seqs: the first entry created at or after `from`, the last before `to`.
  let startSeq = 1;
  if (options.from) {
    const [first] = await db
      .select({ seq: min(recordChainEntries.seq) })
      .from(recordChainEntries)
      .where(
        and(
          eq(recordChainEntries.store_id, storeId),
          gte(recordChainEntries.created_at, options.from),
        ),
      );
    startSeq = first?.seq === null || first?.seq === undefined ? headSeq + 1 : Number(first.seq);
  }
  let endSeq = headSeq;
  if (options.to) {
    const [last] = await db
      .select({ seq: max(recordChainEntries.seq) })
      .from(recordChainEntries)
      .where(
        and(
          eq(recordChainEntries.store_id, storeId),
          lt(recordChainEntries.created_at, options.to),
        ),
      );
    endSeq = Math.min(headSeq, Number(last?.seq ?? 0));
  }
  const reachesHead = endSeq === headSeq;
  // An empty range (entries' times a little out of seq order around a bound) ends at endSeq.
  startSeq = Math.min(startSeq, endSeq + 1);

  // The anchor: the entry before the range (its hash is the first entry's prev_hash).
  let prevHash = genesisHash;
  if (startSeq > 1) {
    const [anchor] = await db
      .select({ seq: recordChainEntries.seq, entry_hash: recordChainEntries.entry_hash })
      .from(recordChainEntries)
      .where(and(eq(recordChainEntries.store_id, storeId), lt(recordChainEntries.seq, startSeq)))
      .orderBy(desc(recordChainEntries.seq))
      .limit(1);
    if (anchor?.seq !== startSeq - 1) {
      return entryProblem(
        null,
        startSeq - 1,
        'gap',
        String(startSeq - 1),
        anchor ? String(anchor.seq) : null,
      );
    }
    prevHash = anchor.entry_hash;
  }

  // The published checkpoints of the range: the entry at their seq must still carry their hash.
  const checkpoints = new Map<number, string[]>();
  const checkpointRows = await db
    .select({ seq: recordChainCheckpoints.seq, head_hash: recordChainCheckpoints.head_hash })
    .from(recordChainCheckpoints)
    .where(
      and(eq(recordChainCheckpoints.store_id, storeId), gte(recordChainCheckpoints.seq, startSeq)),
    );
  for (const row of checkpointRows) {
    checkpoints.set(row.seq, [...(checkpoints.get(row.seq) ?? []), row.head_hash]);
  }

  // The retention tombstones after the range's start: the records of the entries they name may
  // be gone (a later tombstone covers earlier entries, so those beyond the range count too).
  const coverage: Coverage = new Map();
  const tombstoneRows = await db
    .select({
      store_id: recordChainEntries.store_id,
      seq: recordChainEntries.seq,
      details: recordChainEntries.details,
    })
    .from(recordChainEntries)
    .where(
      and(
        eq(recordChainEntries.store_id, storeId),
        eq(recordChainEntries.kind, 'tombstone'),
        gte(recordChainEntries.seq, startSeq),
        lte(recordChainEntries.seq, headSeq),
      ),
    );
  for (const row of tombstoneRows) {
    const summary: TombstoneSummary | null = options.signingKey
      ? isValidTombstone(options.signingKey, row)
      : null;
    if (!summary?.chain_kind) continue;
    coverage.set(summary.chain_kind, [
      ...(coverage.get(summary.chain_kind) ?? []),
      { seq: row.seq, ranges: summary.seqs },
    ]);
  }

  const counts: Record<string, number> = {};
  const skipped: Record<string, number> = {};
  const removed: Record<string, number> = {};
  let expectedSeq = startSeq;
  let lastHash = prevHash;
  while (expectedSeq <= endSeq) {
    const entries = (await db
      .select()
      .from(recordChainEntries)
      .where(
        and(
          eq(recordChainEntries.store_id, storeId),
          gte(recordChainEntries.seq, expectedSeq),
          lte(recordChainEntries.seq, endSeq),
        ),
      )
      .orderBy(asc(recordChainEntries.seq))
      .limit(batchSize)) as ChainEntry[];
    if (entries.length === 0) break;
    const records = await loadRecords(db, storeId, entries, sources);
    for (const entry of entries) {
      if (entry.seq !== expectedSeq) {
        return entryProblem(entry, expectedSeq, 'gap', String(expectedSeq), String(entry.seq));
      }
      if (entry.prev_hash !== lastHash) {
        return entryProblem(entry, entry.seq, 'link-broken', lastHash, entry.prev_hash);
      }
      const entryHash = entryHashOf(entry);
      if (entryHash !== entry.entry_hash) {
        return entryProblem(entry, entry.seq, 'entry-changed', entry.entry_hash, entryHash);
      }
      const published = checkpoints.get(entry.seq)?.find((hash) => hash !== entry.entry_hash);
      if (published) {
        return entryProblem(entry, entry.seq, 'entry-changed', published, entry.entry_hash);
      }
      const source = sources[entry.kind];
      if (entry.kind === 'tombstone') {
        // A tombstone is the job's: signed with the records key, its record its summary.
        const summary = options.signingKey ? isValidTombstone(options.signingKey, entry) : null;
        if (!summary || recordHashOf(summary) !== entry.record_hash) {
          return entryProblem(entry, entry.seq, 'tombstone-invalid', entry.record_hash, null);
        }
        skipped[entry.kind] = (skipped[entry.kind] ?? 0) + 1;
      } else if (!source) {
        skipped[entry.kind] = (skipped[entry.kind] ?? 0) + 1;
      } else {
        const row = records.get(entry.kind)?.get(entry.record_id);
        const recordHash = row === undefined ? null : recordHashOf(source.contentOf(row));
        if (recordHash === entry.record_hash) {
          counts[entry.kind] = (counts[entry.kind] ?? 0) + 1;
        } else if (coveredBy(coverage, entry.kind, entry.seq)) {
          // Removed by the retention job (a probe day's count then reads 0: changed, not gone).
          removed[entry.kind] = (removed[entry.kind] ?? 0) + 1;
        } else if (recordHash === null) {
          return entryProblem(entry, entry.seq, 'record-deleted', entry.record_hash, null);
        } else {
          return entryProblem(entry, entry.seq, 'record-changed', entry.record_hash, recordHash);
        }
      }
      walked += 1;
      expectedSeq += 1;
      lastHash = entry.entry_hash;
    }
  }
  if (expectedSeq <= endSeq) {
    // Entries missing at the end of the range.
    return entryProblem(null, expectedSeq, 'gap', String(endSeq), String(expectedSeq - 1));
  }
  if (reachesHead && head && lastHash !== head.head_hash) {
    return entryProblem(null, headSeq, 'link-broken', head.head_hash, lastHash);
  }
  if (reachesHead) {
    // A checkpoint beyond the head: entries published once are gone.
    const beyond = checkpointRows.find((row) => row.seq > headSeq);
    if (beyond) return entryProblem(null, beyond.seq, 'gap', beyond.head_hash, null);
  }

  // Every revision of a covered kind written in the period is covered by an entry.
  for (const [kind, source] of Object.entries(sources)) {
    if (!source) continue;
    const ids = await source.list(db, storeId, options.from ?? new Date(0), options.to ?? latest);
    for (let index = 0; index < ids.length; index += batchSize) {
      const batch = ids.slice(index, index + batchSize);
      const covered = await entriesCovering(db, storeId, kind as ChainKind, batch);
      const coveredIds = new Set(covered.map((row) => row.record_id));
      const inserted = batch.find((id) => !coveredIds.has(id));
      if (inserted !== undefined) {
        const row = (await source.load(db, storeId, [inserted])).get(inserted);
        return broken({
          seq: null,
          kind,
          record_id: inserted,
          problem: 'record-inserted',
          expected: null,
          found: row === undefined ? null : recordHashOf(source.contentOf(row)),
        });
      }
    }
  }

  return {
    status: 'intact',
    ...period,
    entries: walked,
    counts,
    skipped,
    removed,
    head: { seq: expectedSeq - 1, hash: lastHash },
  };
}

/** The records the entries cover, by kind then record id (one load per kind present). */
async function loadRecords(
  db: Reader,
  storeId: string,
  entries: readonly ChainEntry[],
  sources: Partial<Record<string, ChainSource<never>>>,
): Promise<Map<string, Map<string, never>>> {
  const idsByKind = new Map<string, string[]>();
  for (const entry of entries) {
    if (!sources[entry.kind] || entry.kind === 'tombstone') continue;
    const ids = idsByKind.get(entry.kind);
    if (ids) ids.push(entry.record_id);
    else idsByKind.set(entry.kind, [entry.record_id]);
  }
  const records = new Map<string, Map<string, never>>();
  for (const [kind, ids] of idsByKind) {
    records.set(kind, await sources[kind]!.load(db, storeId, ids));
  }
  return records;
}

/**
 * A store's chain over a period of its calendar days (both included): from the start of `from`
 * to the start of the day after `to`, in the store's time zone.
 */
export function verifyStorePeriod(
  db: Reader,
  store: { id: string; timezone_name: string },
  period: { from?: string; to?: string },
  signingKey: Buffer,
): Promise<VerifyRecordsResult> {
  const zone = store.timezone_name;
  return verifyRecordsChain(db, store.id, {
    signingKey,
    from: period.from ? localMinuteToInstant(period.from, 0, zone) : undefined,
    to: period.to ? localMinuteToInstant(addDays(period.to, 1), 0, zone) : undefined,
  });
}

import type { RetentionRecordType } from '@mise/shared/records/retention';
import type { ChainKind } from './chain';
import { isSignedBy } from './signing';

/*
 * Retention tombstones in the records chain (issue 21; records/retention.ts writes them, the
 * verifier reads them).
 */

/** What a tombstone states (its record, signed; the signature travels beside it in details). */
export type TombstoneSummary = {
  store_id: string;
  type: RetentionRecordType;
  chain_kind: ChainKind | null;
  /** Records of store days before this day were removed. */
  before: string;
  /** Rows removed (revisions included). */
  removed: number;
  /** The seqs of the chain entries whose records were removed, as [first, last] ranges. */
  seqs: [number, number][];
};

/** Sorted seqs as [first, last] ranges of consecutive numbers. */
export function seqRanges(seqs: readonly number[]): [number, number][] {
  const sorted = [...new Set(seqs)].sort((left, right) => left - right);
  const ranges: [number, number][] = [];
  for (const seq of sorted) {
    const last = ranges.at(-1);
    if (last && seq === last[1] + 1) last[1] = seq;
    else ranges.push([seq, seq]);
  }
  return ranges;
}

/** The summary of a tombstone entry's details, or null when they are not one. */
export function tombstoneSummaryOf(
  details: Record<string, unknown> | null,
): TombstoneSummary | null {
  if (!details || typeof details !== 'object') return null;
  const { signature: _signature, ...summary } = details;
  const value = summary as Partial<TombstoneSummary>;
  if (
    typeof value.store_id !== 'string' ||
    typeof value.type !== 'string' ||
    typeof value.before !== 'string' ||
    typeof value.removed !== 'number' ||
    !Array.isArray(value.seqs)
  ) {
    return null;
  }
  return summary as TombstoneSummary;
}

/**
 * Whether a tombstone entry is one the job wrote: its details carry a summary, signed with the
 * key, that is also the record the entry hashed.
 */
export function isValidTombstone(
  key: Buffer,
  entry: { store_id: string; details: Record<string, unknown> | null },
): TombstoneSummary | null {
  const summary = tombstoneSummaryOf(entry.details);
  if (!summary || summary.store_id !== entry.store_id) return null;
  return isSignedBy(key, summary, entry.details?.signature) ? summary : null;
}

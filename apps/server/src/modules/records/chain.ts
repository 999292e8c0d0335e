import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { recordChainEntries, recordChainHeads } from '../../db/schema';
import { canonicalHash } from '../../platform/canonical-json';

/*
 * The per-store hash chain of HACCP record revisions (issue 21, docs/decisions.md). Each
 * revision is appended in the transaction that writes it: a rolled-back write leaves no entry.
 * The head row of the store is locked FOR UPDATE, so appends of one store are serialised and
 * the sequence has no gap; stores do not wait on each other.
 */

/** The kinds of record revision the chain covers. */
export const chainKinds = [
  /** A task result revision (task_result_revisions: completion, correction, postponement). */
  'task_result_revision',
  /** A punch entry revision (punch_entry_revisions: create, update, delete). */
  'punch_entry_revision',
  /** A probe alert episode opened, escalated, resolved or acknowledged (one entry per change). */
  'alert_episode',
  /** An audit result recorded or corrected. */
  'audit_result',
  /** One probe's readings of one store day, appended once the day is over. */
  'probe_readings_day',
  /** A range removed by retention: its summary and signature (the verifier checks it). */
  'tombstone',
] as const;
export type ChainKind = (typeof chainKinds)[number];

/** The previous hash of a store's first entry. */
export const genesisHash = '0'.repeat(64);

type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type ChainEntryInput = {
  storeId: string;
  kind: ChainKind;
  /** The revision covered (its row id; for a probe day `<probe id>:<day>`). */
  recordId: string;
  /** The revision's content as the verifier rebuilds it from the stored rows. */
  record: unknown;
  details?: Record<string, unknown> | null;
};

export type ChainEntry = {
  store_id: string;
  seq: number;
  kind: string;
  record_id: string;
  record_hash: string;
  prev_hash: string;
  entry_hash: string;
  details: Record<string, unknown> | null;
  created_at: Date;
};

/** The hash of an entry: everything it states, its predecessor's hash included. */
export function entryHashOf(entry: Omit<ChainEntry, 'entry_hash'>): string {
  return canonicalHash({
    store_id: entry.store_id,
    seq: entry.seq,
    kind: entry.kind,
    record_id: entry.record_id,
    record_hash: entry.record_hash,
    prev_hash: entry.prev_hash,
    details: entry.details ?? null,
    created_at: entry.created_at.toISOString(),
  });
}

/** The hash of a record revision's content (sha256 of its canonical JSON). */
export const recordHashOf = (record: unknown) => canonicalHash(record);

/**
 * Appends revisions to their stores' chains, in the caller's transaction (call it with the
 * transaction that writes the revisions). Entries of one call are appended in order.
 */
export async function appendToChain(
  tx: Executor,
  inputs: ChainEntryInput | readonly ChainEntryInput[],
  now: Date = new Date(),
): Promise<ChainEntry[]> {
  const list = Array.isArray(inputs) ? inputs : [inputs as ChainEntryInput];
  if (list.length === 0) return [];
  const appended: ChainEntry[] = [];
  const byStore = new Map<string, ChainEntryInput[]>();
  for (const input of list) {
    byStore.set(input.storeId, [...(byStore.get(input.storeId) ?? []), input]);
  }
  // Stores in a fixed order: two transactions touching the same stores never deadlock.
  for (const storeId of [...byStore.keys()].sort()) {
    await tx
      .insert(recordChainHeads)
      .values({ store_id: storeId, seq: 0, head_hash: genesisHash })
      .onConflictDoNothing();
    const [head] = await tx
      .select({ seq: recordChainHeads.seq, head_hash: recordChainHeads.head_hash })
      .from(recordChainHeads)
      .where(eq(recordChainHeads.store_id, storeId))
      .for('update');
    let seq = head!.seq;
    let prevHash = head!.head_hash;
    const rows: ChainEntry[] = [];
    for (const input of byStore.get(storeId)!) {
      seq += 1;
      const partial = {
        store_id: storeId,
        seq,
        kind: input.kind,
        record_id: input.recordId,
        record_hash: recordHashOf(input.record),
        prev_hash: prevHash,
        details: input.details ?? null,
        created_at: now,
      };
      const entry = { ...partial, entry_hash: entryHashOf(partial) };
      rows.push(entry);
      prevHash = entry.entry_hash;
    }
    await tx.insert(recordChainEntries).values(rows);
    await tx
      .update(recordChainHeads)
      .set({ seq, head_hash: prevHash, updated_at: sql`now()` })
      .where(eq(recordChainHeads.store_id, storeId));
    appended.push(...rows);
  }
  return appended;
}

/** The chain's head of a store as it stood at `at` (seq 0 and the genesis hash before any). */
export async function chainHeadAt(
  db: Pick<Database, 'select'>,
  storeId: string,
  at: Date,
): Promise<{ seq: number; head_hash: string }> {
  const [entry] = await db
    .select({ seq: recordChainEntries.seq, entry_hash: recordChainEntries.entry_hash })
    .from(recordChainEntries)
    .where(and(eq(recordChainEntries.store_id, storeId), lte(recordChainEntries.created_at, at)))
    .orderBy(desc(recordChainEntries.seq))
    .limit(1);
  return entry
    ? { seq: entry.seq, head_hash: entry.entry_hash }
    : { seq: 0, head_hash: genesisHash };
}

import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
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

/** One entry as a row of a VALUES list. */
const entryValues = (entry: ChainEntry) =>
  sql`(${entry.store_id}::uuid, ${entry.seq}::bigint, ${entry.kind}, ${entry.record_id},
       ${entry.record_hash}, ${entry.prev_hash}, ${entry.entry_hash},
       ${entry.details === null ? null : JSON.stringify(entry.details)}::jsonb,
       ${entry.created_at.toISOString()}::timestamptz)`;

/** Entries per INSERT statement (9 parameters each, well under PostgreSQL's 65 535). */
const insertBatchSize = 1000;

/**
 * The store's head, locked FOR UPDATE until the transaction ends (created at the genesis on the
 * store's first append). One round trip once the head exists.
 */
async function lockHead(
  tx: Executor,
  storeId: string,
): Promise<{ seq: number; head_hash: string }> {
  const read = () =>
    tx
      .select({ seq: recordChainHeads.seq, head_hash: recordChainHeads.head_hash })
      .from(recordChainHeads)
      .where(eq(recordChainHeads.store_id, storeId))
      .for('update');
  const [head] = await read();
  if (head) return head;
  await tx
    .insert(recordChainHeads)
    .values({ store_id: storeId, seq: 0, head_hash: genesisHash })
    .onConflictDoNothing();
  const [created] = await read();
  return created!;
}

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
    const group = byStore.get(input.storeId);
    if (group) group.push(input);
    else byStore.set(input.storeId, [input]);
  }
  // Stores in a fixed order: two transactions touching the same stores never deadlock.
  for (const storeId of [...byStore.keys()].sort()) {
    const group = byStore.get(storeId)!;
    if (group.length === 1 && !group[0]!.details) {
      const entry = await appendOne(tx, group[0]!, now);
      if (entry) {
        appended.push(entry);
        continue;
      }
    }
    const head = await lockHead(tx, storeId);
    let seq = head.seq;
    let prevHash = head.head_hash;
    const rows: ChainEntry[] = [];
    for (const input of group) {
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
    // The last statement writes its entries and moves the head at once (one round trip for
    // the usual single entry: with the head's lock, an append is two round trips).
    const lastBatch = Math.floor((rows.length - 1) / insertBatchSize) * insertBatchSize;
    for (let index = 0; index < lastBatch; index += insertBatchSize) {
      await tx.insert(recordChainEntries).values(rows.slice(index, index + insertBatchSize));
    }
    await tx.execute(sql`
      with appended as (
        insert into ${recordChainEntries} (store_id, seq, kind, record_id, record_hash,
               prev_hash, entry_hash, details, created_at)
        values ${sql.join(rows.slice(lastBatch).map(entryValues), sql`, `)}
      )
      update ${recordChainHeads} set seq = ${seq}, head_hash = ${prevHash}, updated_at = now()
       where store_id = ${storeId}`);
    appended.push(...rows);
  }
  return appended;
}

/**
 * The usual append, one revision without details, in one round trip: the head locked, the
 * entry written and the head moved by one statement. The entry's hash is computed by
 * PostgreSQL over the same canonical JSON as entryHashOf (keys in order, strings escaped by
 * to_json like JSON.stringify; the verifier recomputes it in JavaScript). Null when the store
 * has no head yet (its first append takes the general path).
 */
async function appendOne(
  tx: Executor,
  input: ChainEntryInput,
  now: Date,
): Promise<ChainEntry | null> {
  const recordHash = recordHashOf(input.record);
  const createdAt = now.toISOString();
  const result = (await tx.execute(sql`
    with head as (
      select seq, head_hash from ${recordChainHeads}
       where store_id = ${input.storeId}::uuid
         for update
    ), entry as (
      select head.seq + 1 as seq, head.head_hash as prev_hash,
             encode(sha256(convert_to(
               '{"created_at":' || to_json(${createdAt}::text)::text ||
               ',"details":null,"kind":' || to_json(${input.kind}::text)::text ||
               ',"prev_hash":' || to_json(head.head_hash)::text ||
               ',"record_hash":' || to_json(${recordHash}::text)::text ||
               ',"record_id":' || to_json(${input.recordId}::text)::text ||
               ',"seq":' || (head.seq + 1)::text ||
               ',"store_id":' || to_json(${input.storeId}::text)::text || '}',
             'UTF8')), 'hex') as entry_hash
        from head
    ), appended as (
      insert into ${recordChainEntries} (store_id, seq, kind, record_id, record_hash,
             prev_hash, entry_hash, details, created_at)
      select ${input.storeId}::uuid, seq, ${input.kind}, ${input.recordId}, ${recordHash},
             prev_hash, entry_hash, null, ${createdAt}::timestamptz
        from entry
    )
    update ${recordChainHeads}
       set seq = entry.seq, head_hash = entry.entry_hash, updated_at = now()
      from entry
     where ${recordChainHeads.store_id} = ${input.storeId}::uuid
    returning entry.seq, entry.prev_hash, entry.entry_hash`)) as unknown as {
    rows: { seq: string | number | bigint; prev_hash: string; entry_hash: string }[];
  };
  const [row] = result.rows;
  if (!row) return null;
  return {
    store_id: input.storeId,
    seq: Number(row.seq),
    kind: input.kind,
    record_id: input.recordId,
    record_hash: recordHash,
    prev_hash: row.prev_hash,
    entry_hash: row.entry_hash,
    details: null,
    created_at: now,
  };
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

/** A store's chain entries of a kind that cover these record ids (retention, the verifier). */
export async function entriesCovering(
  db: Pick<Database, 'select'>,
  storeId: string,
  kind: ChainKind,
  recordIds: string[],
): Promise<{ seq: number; record_id: string }[]> {
  if (recordIds.length === 0) return [];
  const rows = await db
    .select({ seq: recordChainEntries.seq, record_id: recordChainEntries.record_id })
    .from(recordChainEntries)
    .where(
      and(
        eq(recordChainEntries.store_id, storeId),
        eq(recordChainEntries.kind, kind),
        inArray(recordChainEntries.record_id, recordIds),
      ),
    );
  return rows.map((row) => ({ seq: Number(row.seq), record_id: row.record_id }));
}

import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordChainCheckpoints, recordChainEntries, recordChainHeads } from '../../db/schema';
import { canonicalJson } from '../../platform/canonical-json';
import { buildStore, buildTwoTenants } from '../../test/factories';
import { useTestApp } from '../../test/harness';
import {
  appendToChain,
  type ChainEntryInput,
  chainHeadAt,
  entryHashOf,
  genesisHash,
  recordHashOf,
} from './chain';
import { signRecord } from './signing';
import type { ChainSource } from './sources/types';
import { verifyRecordsChain } from './verify';

/*
 * The records chain's mechanics (issue 21) on a source kept in memory: canonical form, entry
 * hashes and links, the verifier's answers on untouched and damaged chains, periods, rollback.
 */

const context = useTestApp();
let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
});

/** Audit results kept in a Map (the verifier reloads them through `load` and `list`). */
type MemoryRow = { id: string; storeId: string; at: Date; body: Record<string, unknown> };
function memorySource() {
  const rows = new Map<string, MemoryRow>();
  const source: ChainSource<MemoryRow> = {
    kind: 'audit_result',
    contentOf: (row) => ({ id: row.id, at: row.at.toISOString(), body: row.body }),
    load: async (_db, storeId, ids) =>
      new Map(
        ids
          .filter((id) => rows.get(id)?.storeId === storeId)
          .map((id) => [id, rows.get(id)!] as const),
      ),
    list: async (_db, storeId, from, to) =>
      [...rows.values()]
        .filter((row) => row.storeId === storeId && row.at >= from && row.at < to)
        .map((row) => row.id),
  };
  const add = (
    storeId: string,
    id: string,
    at: Date,
    body: Record<string, unknown>,
  ): ChainEntryInput => {
    const row = { id, storeId, at, body };
    rows.set(id, row);
    return { storeId, kind: 'audit_result', recordId: id, record: source.contentOf(row) };
  };
  return { rows, source, add, sources: { audit_result: source as ChainSource<never> } };
}

async function newStore() {
  return buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
  });
}

async function entriesOf(storeId: string) {
  return context.db
    .select()
    .from(recordChainEntries)
    .where(eq(recordChainEntries.store_id, storeId))
    .orderBy(asc(recordChainEntries.seq));
}

describe('canonical form', () => {
  it('is the same whatever the order of keys, at every depth; arrays keep their order', () => {
    const left = { b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'é' }, e: null };
    const right = { e: null, a: { c: 'é', d: [1, { x: 1, y: 2 }] }, b: 1 };
    expect(canonicalJson(left)).toBe(canonicalJson(right));
    expect(canonicalJson(left)).toBe('{"a":{"c":"é","d":[1,{"x":1,"y":2}]},"b":1,"e":null}');
    expect(recordHashOf(left)).toBe(recordHashOf(right));
    expect(recordHashOf(left)).toMatch(/^[0-9a-f]{64}$/);
    expect(recordHashOf({ list: [1, 2] })).not.toBe(recordHashOf({ list: [2, 1] }));
  });

  it('writes dates as ISO text and leaves undefined members out', () => {
    const at = new Date('2026-11-24T10:00:00.123Z');
    expect(canonicalJson({ at, skipped: undefined })).toBe('{"at":"2026-11-24T10:00:00.123Z"}');
    expect(recordHashOf({ at })).toBe(recordHashOf({ at: '2026-11-24T10:00:00.123Z' }));
    // A value changed anywhere changes the hash.
    expect(recordHashOf({ a: { b: 1 } })).not.toBe(recordHashOf({ a: { b: 1.5 } }));
  });
});

describe('appending', () => {
  it('links each entry to the previous one, from the genesis, and moves the head', async () => {
    const store = await newStore();
    const memory = memorySource();
    const inputs = ['r1', 'r2', 'r3'].map((id, index) =>
      memory.add(store.id, id, new Date(), { score: index }),
    );
    const appended = await appendToChain(context.db, inputs.slice(0, 2));
    await appendToChain(context.db, inputs[2]!);
    const entries = await entriesOf(store.id);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(entries.map((entry) => entry.record_id)).toEqual(['r1', 'r2', 'r3']);
    expect(entries[0]!.prev_hash).toBe(genesisHash);
    expect(entries[1]!.prev_hash).toBe(entries[0]!.entry_hash);
    expect(entries[2]!.prev_hash).toBe(entries[1]!.entry_hash);
    for (const [index, entry] of entries.entries()) {
      expect(entry.entry_hash).toBe(entryHashOf(entry));
      expect(entry.record_hash).toBe(recordHashOf(inputs[index]!.record));
    }
    expect(appended.map((entry) => entry.entry_hash)).toEqual(
      entries.slice(0, 2).map((entry) => entry.entry_hash),
    );
    const [head] = await context.db
      .select()
      .from(recordChainHeads)
      .where(eq(recordChainHeads.store_id, store.id));
    expect(head).toMatchObject({ seq: 3, head_hash: entries[2]!.entry_hash });
    expect(await chainHeadAt(context.db, store.id, new Date())).toEqual({
      seq: 3,
      head_hash: entries[2]!.entry_hash,
    });
    expect(await chainHeadAt(context.db, store.id, new Date(0))).toEqual({
      seq: 0,
      head_hash: genesisHash,
    });

    const answer = await verifyRecordsChain(context.db, store.id, { sources: memory.sources });
    expect(answer).toMatchObject({
      status: 'intact',
      entries: 3,
      counts: { audit_result: 3 },
      skipped: {},
      head: { seq: 3, hash: entries[2]!.entry_hash },
    });
  });

  it('keeps each store its own chain, and appends a large batch in one call', async () => {
    const [first, second] = [await newStore(), await newStore()];
    const memory = memorySource();
    const inputs = Array.from({ length: 2500 }, (_, index) =>
      memory.add(index % 2 === 0 ? first.id : second.id, `big-${index}`, new Date(), { index }),
    );
    await appendToChain(context.db, inputs);
    const own = await verifyRecordsChain(context.db, first.id, {
      sources: memory.sources,
      batchSize: 300,
    });
    expect(own).toMatchObject({ status: 'intact', entries: 1250, head: { seq: 1250 } });
    const entries = await entriesOf(second.id);
    expect(entries[0]!.record_id).toBe('big-1');
    expect(entries.at(-1)!.seq).toBe(1250);
  });

  it('hashes a single append in the database exactly as entryHashOf does', async () => {
    const store = await newStore();
    const memory = memorySource();
    // The first append creates the head; the next ones take the one-statement path.
    await appendToChain(context.db, memory.add(store.id, 'first', new Date(), {}));
    const awkward = ['p:"quoted"\\é\n\t\u0001', 'ünïcødé 🍳', '</script>'];
    for (const id of awkward) {
      const [entry] = await appendToChain(context.db, memory.add(store.id, id, new Date(), {}));
      expect(entry!.entry_hash).toBe(entryHashOf(entry!));
    }
    const entries = await entriesOf(store.id);
    expect(entries.map((entry) => entry.record_id)).toEqual(['first', ...awkward]);
    for (const entry of entries) expect(entry.entry_hash).toBe(entryHashOf(entry));
    expect(
      await verifyRecordsChain(context.db, store.id, { sources: memory.sources }),
    ).toMatchObject({ status: 'intact', entries: 4 });
  });

  it('gives appends of one store racing in their own transactions consecutive seqs', async () => {
    const store = await newStore();
    const memory = memorySource();
    await appendToChain(context.db, memory.add(store.id, 'head', new Date(), {}));
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        context.db.transaction(async (tx) => {
          await appendToChain(tx, memory.add(store.id, `racer-${index}`, new Date(), { index }));
          await tx.execute(sql`select pg_sleep(0.01)`);
        }),
      ),
    );
    const entries = await entriesOf(store.id);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(
      await verifyRecordsChain(context.db, store.id, { sources: memory.sources }),
    ).toMatchObject({ status: 'intact', entries: 9 });
  });

  it('leaves no entry and the head unchanged when the transaction rolls back', async () => {
    const store = await newStore();
    const memory = memorySource();
    await appendToChain(context.db, memory.add(store.id, 'kept', new Date(), {}));
    const failure = context.db.transaction(async (tx) => {
      await appendToChain(tx, memory.add(store.id, 'lost', new Date(), {}));
      throw new Error('refused after the append');
    });
    await expect(failure).rejects.toThrow('refused after the append');
    memory.rows.delete('lost');
    expect((await entriesOf(store.id)).map((entry) => entry.record_id)).toEqual(['kept']);
    const [head] = await context.db
      .select()
      .from(recordChainHeads)
      .where(eq(recordChainHeads.store_id, store.id));
    expect(head!.seq).toBe(1);
    const answer = await verifyRecordsChain(context.db, store.id, { sources: memory.sources });
    expect(answer.status).toBe('intact');
  });
});

describe('verifying', () => {
  /** A store with five entries appended one a minute (2026-11-24 10:00 … 10:04 UTC). */
  async function chainOfFive() {
    const store = await newStore();
    const memory = memorySource();
    for (let index = 0; index < 5; index += 1) {
      const at = new Date(Date.UTC(2026, 10, 24, 10, index));
      await appendToChain(context.db, memory.add(store.id, `r${index + 1}`, at, { index }), at);
    }
    return { store, memory, entries: await entriesOf(store.id) };
  }
  const verify = (storeId: string, memory: ReturnType<typeof memorySource>, options = {}) =>
    verifyRecordsChain(context.db, storeId, { sources: memory.sources, batchSize: 2, ...options });

  it('verifies a period from the entry before it, and finds what the period holds', async () => {
    const { store, memory, entries } = await chainOfFive();
    const answer = await verify(store.id, memory, {
      from: new Date(Date.UTC(2026, 10, 24, 10, 2)),
      to: new Date(Date.UTC(2026, 10, 24, 10, 4)),
    });
    expect(answer).toMatchObject({
      status: 'intact',
      entries: 2,
      counts: { audit_result: 2 },
      head: { seq: 4, hash: entries[3]!.entry_hash },
    });
    // A period with no entry answers the head at its end.
    const empty = await verify(store.id, memory, {
      from: new Date(Date.UTC(2026, 10, 25)),
      to: new Date(Date.UTC(2026, 10, 26)),
    });
    expect(empty).toMatchObject({ status: 'intact', entries: 0, head: { seq: 5 } });
  });

  it('finds a changed record, a deleted one and one no entry covers', async () => {
    const { store, memory } = await chainOfFive();
    memory.rows.get('r3')!.body.index = 30;
    expect(await verify(store.id, memory)).toMatchObject({
      status: 'broken',
      entries: 2,
      first: { seq: 3, kind: 'audit_result', record_id: 'r3', problem: 'record-changed' },
    });
    memory.rows.get('r3')!.body.index = 2;
    memory.rows.delete('r2');
    expect(await verify(store.id, memory)).toMatchObject({
      status: 'broken',
      entries: 1,
      first: { seq: 2, record_id: 'r2', problem: 'record-deleted', found: null },
    });
    memory.add(store.id, 'r2', new Date(Date.UTC(2026, 10, 24, 10, 1)), { index: 1 });
    memory.add(store.id, 'sneaked', new Date(Date.UTC(2026, 10, 24, 10, 2)), { index: 99 });
    expect(await verify(store.id, memory)).toMatchObject({
      status: 'broken',
      entries: 5,
      first: { seq: null, record_id: 'sneaked', problem: 'record-inserted' },
    });
    // Outside the period verified, the inserted record is not this period's concern.
    expect(
      await verify(store.id, memory, {
        from: new Date(Date.UTC(2026, 10, 24, 10, 3)),
      }),
    ).toMatchObject({ status: 'intact', entries: 2 });
  });

  it('finds a changed entry, a broken link, a gap, a truncated end and a changed checkpoint', async () => {
    const { store, memory, entries } = await chainOfFive();
    const where = (seq: number) =>
      sql`${recordChainEntries.store_id} = ${store.id} and ${recordChainEntries.seq} = ${seq}`;
    await context.db
      .update(recordChainEntries)
      .set({ record_hash: 'f'.repeat(64) })
      .where(where(2));
    expect(await verify(store.id, memory)).toMatchObject({
      status: 'broken',
      first: {
        seq: 2,
        problem: 'entry-changed',
        expected: entries[1]!.entry_hash,
      },
    });
    // An entry rewritten with its hash recomputed: the next entry no longer links to it.
    const forged = { ...entries[1]!, details: { note: 'rewritten' } };
    await context.db
      .update(recordChainEntries)
      .set({
        record_hash: entries[1]!.record_hash,
        details: forged.details,
        entry_hash: entryHashOf(forged),
      })
      .where(where(2));
    expect(await verify(store.id, memory)).toMatchObject({
      status: 'broken',
      first: {
        seq: 3,
        problem: 'link-broken',
        expected: entryHashOf(forged),
        found: entries[1]!.entry_hash,
      },
    });
    await context.db
      .update(recordChainEntries)
      .set({ details: null, entry_hash: entries[1]!.entry_hash })
      .where(where(2));
    expect((await verify(store.id, memory)).status).toBe('intact');

    // A published checkpoint disagreeing with the entry at its seq.
    await context.db
      .insert(recordChainCheckpoints)
      .values({ store_id: store.id, day: '2026-11-24', seq: 4, head_hash: 'a'.repeat(64) });
    expect(await verify(store.id, memory)).toMatchObject({
      first: { seq: 4, problem: 'entry-changed', expected: 'a'.repeat(64) },
    });
    await context.db
      .update(recordChainCheckpoints)
      .set({ head_hash: entries[3]!.entry_hash })
      .where(eq(recordChainCheckpoints.store_id, store.id));
    expect((await verify(store.id, memory)).status).toBe('intact');

    // An entry deleted in the middle, then the last one.
    await context.db.delete(recordChainEntries).where(where(3));
    expect(await verify(store.id, memory)).toMatchObject({
      first: { seq: 3, problem: 'gap', expected: '3', found: '4' },
    });
    await context.db.insert(recordChainEntries).values(entries[2]!);
    await context.db.delete(recordChainEntries).where(where(5));
    expect(await verify(store.id, memory)).toMatchObject({
      first: { seq: 5, problem: 'gap' },
    });
    // The head moved back as well: the record no entry covers any more is found.
    await context.db
      .update(recordChainHeads)
      .set({ seq: 4, head_hash: entries[3]!.entry_hash })
      .where(eq(recordChainHeads.store_id, store.id));
    expect(await verify(store.id, memory)).toMatchObject({
      first: { seq: null, record_id: 'r5', problem: 'record-inserted' },
    });
  });

  it('counts signed tombstones and kinds with no source as skipped, still linked', async () => {
    const store = await newStore();
    const memory = memorySource();
    const key = Buffer.from('a records key of this deployment, 32+');
    const summary = {
      store_id: store.id,
      type: 'audit_results',
      chain_kind: 'audit_result',
      before: '2020-02-01',
      removed: 0,
      seqs: [],
    };
    await appendToChain(context.db, [
      memory.add(store.id, 'a', new Date(), {}),
      {
        storeId: store.id,
        kind: 'tombstone',
        recordId: 'range',
        record: summary,
        details: { ...summary, signature: signRecord(key, summary) },
      },
      { storeId: store.id, kind: 'probe_readings_day', recordId: 'p:2026-11-24', record: {} },
    ]);
    expect(await verify(store.id, memory, { signingKey: key })).toMatchObject({
      status: 'intact',
      entries: 3,
      counts: { audit_result: 1 },
      skipped: { tombstone: 1, probe_readings_day: 1 },
      removed: {},
    });
    // Without the key (or with another one), no tombstone is trusted.
    for (const options of [
      {},
      { signingKey: Buffer.from('another key of 32 characters, or more') },
    ]) {
      expect(await verify(store.id, memory, options)).toMatchObject({
        status: 'broken',
        first: { seq: 2, problem: 'tombstone-invalid' },
      });
    }
  });
});

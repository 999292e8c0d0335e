import { addDays, dayInZone, localMinuteToInstant } from '@mise/shared/tasks/rules';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditResults,
  audits,
  documents,
  punchEntries,
  recordChainEntries,
  retentionSettings,
  taskResultRevisions,
  tasks,
} from '../../db/schema';
import {
  buildDatabase,
  buildEmployee,
  buildStore,
  buildTask,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { asDevice, buildDevice, employeeToken, newKey } from '../device/test-support';
import { appendToChain } from './chain';
import { runRetention } from './retention';
import { recordsSigningKey, signRecord } from './signing';
import { chainAuditResult } from './sources/audit-results';
import { chainProbeReadingDays } from './sources/probe-readings-days';
import { seqRanges } from './tombstones';
import { verifyRecordsChain } from './verify';

/*
 * Issue 21, retention: a database's retention per record type (legal minimums refused below),
 * the daily job removing what passed it, store by store, with a signed tombstone in the store's
 * records chain, so the verifier still answers intact; a forged tombstone or a record deleted
 * behind the application is still found.
 */

const context = useTestApp();
const zone = 'Europe/Paris';
const monthMs = 31 * 24 * 3600_000;
/** The job's clock `months` months from now (the records written today are then that old). */
const later = (months: number) => new Date(Date.now() + months * monthMs);

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let manager: Agent;
let customer: Agent;
let otherManager: Agent;

const key = () => recordsSigningKey(context.app.deps.config);
const verify = (storeId: string) => verifyRecordsChain(context.db, storeId, { signingKey: key() });
const run = (now: Date) => runRetention(context.app.deps, now);
const today = () => dayInZone(new Date(), zone);

/** The latest store day the hourly job chains at `now` (ended at least 1 h 10 min before). */
function latestSealedDay(now: Date): string {
  for (let day = addDays(dayInZone(now, zone), -1); ; day = addDays(day, -1)) {
    if (localMinuteToInstant(addDays(day, 1), 0, zone).getTime() + 70 * 60_000 <= now.getTime())
      return day;
  }
}

function entriesOf(storeId: string, kind?: string) {
  return context.db
    .select()
    .from(recordChainEntries)
    .where(
      and(
        eq(recordChainEntries.store_id, storeId),
        ...(kind ? [eq(recordChainEntries.kind, kind)] : []),
      ),
    )
    .orderBy(asc(recordChainEntries.seq));
}

async function count(
  table: typeof tasks | typeof punchEntries | typeof auditResults,
  storeId: string,
) {
  const [row] = await context.db
    .select({ count: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.store_id, storeId));
  return Number(row!.count);
}

/**
 * A store of `databaseId` with records of today: a temperature task completed then corrected
 * (with a picture) and a clocking in and out from its tablet, a probe's readings of yesterday
 * chained by the hourly job, a submitted audit result.
 */
async function storeWithRecords(databaseId: string, distributorId: string) {
  const store = await buildStore(context.db, {
    distributor_id: distributorId,
    database_id: databaseId,
    timezone_name: zone,
  });
  const { token } = await buildDevice(context.db, store.id);
  const employee = await buildEmployee(context.db, { storeIds: [store.id] });
  const call = asDevice(context.app, token, await employeeToken(context.app, token, employee.id));
  const picture = `stores/${store.id}/tasks/${today().slice(0, 7)}/${'a'.repeat(32)}.jpg`;
  await context.app.deps.storage.put(picture, Buffer.from('jpeg'));
  const task = await buildTask(context.db, {
    store_id: store.id,
    day: today(),
    start: new Date(Date.now() - 10 * 60_000),
  });
  for (const temperature of [3, 5]) {
    const response = await call({
      method: 'POST',
      url: `/api/device/tasks/${task.id}/result`,
      payload: {
        idempotency_key: newKey(),
        ...(temperature === 5 ? { reason: 'Wrong fridge' } : {}),
        result: {
          entries: task.elements.map((element) => ({
            element: element.id,
            temperature,
            first_temperature: null,
            control_temperature: null,
            comment: '',
            pictures:
              temperature === 3
                ? [{ path: picture, timestamp: Math.floor(Date.now() / 1000) }]
                : [],
            timestamp: Math.floor(Date.now() / 1000),
          })),
        },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
  for (const isIn of [true, false]) {
    const response = await call({
      method: 'POST',
      url: '/api/device/punches',
      payload: { idempotency_key: newKey(), is_in: isIn },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  // A probe of the store with readings of its latest sealed day, chained on the real clock (the
  // chain's entries stay in time order).
  const registered = await admin.inject({
    method: 'POST',
    url: '/api/probes',
    payload: { probeUID: `R-${store.id.slice(0, 8)}`, name: 'Cold room', storeId: store.id },
  });
  expect(registered.statusCode, registered.body).toBe(200);
  const sealedDay = latestSealedDay(new Date());
  const posted = await context.app.inject({
    method: 'POST',
    url: `/api/probes/readings/R-${store.id.slice(0, 8)}`,
    headers: { authorization: `Bearer ${registered.json().secret}` },
    payload: {
      readings: [8, 12, 16].map((hour) => ({
        timestamp: localMinuteToInstant(sealedDay, hour * 60, zone).toISOString(),
        temperature: 3.5,
        batteryLevel: 80,
      })),
    },
  });
  expect(posted.statusCode, posted.body).toBe(200);
  // (Readings of a sealed day are chained by their ingestion; the job then finds nothing left.)
  await chainProbeReadingDays(context.db, new Date());
  expect(await entriesOf(store.id, 'probe_readings_day')).toHaveLength(1);

  // A submitted audit result, chained as the audits module does.
  const [audit] = await context.db
    .insert(audits)
    .values({ database_id: databaseId, name: 'Hygiene' })
    .returning();
  await context.db.transaction(async (tx) => {
    const [result] = await tx
      .insert(auditResults)
      .values({
        audit_id: audit!.id,
        audit_version: 1,
        database_id: databaseId,
        store_id: store.id,
        source: 'web',
        auditor_name: 'Ada',
        status: 'submitted',
        end_date: new Date(),
        score: 8,
        max_score: 10,
      })
      .returning();
    await chainAuditResult(tx as never, result!);
  });
  return { store, picture };
}

let first: Awaited<ReturnType<typeof storeWithRecords>>;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  otherManager = await signIn(context.app, tenants.b.users.manager.email, testPassword);
  first = await storeWithRecords(tenants.a.database.id, tenants.a.distributor.id);
});

describe('GET and PUT /api/databases/:id/retention', () => {
  const url = () => `/api/databases/${tenants.a.database.id}/retention`;

  it('answers the documented defaults and legal minimums to whoever sees the database', async () => {
    for (const agent of [admin, manager, customer]) {
      const response = await agent.inject({ method: 'GET', url: url() });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().types).toEqual({
        task_results: { months: null, defaultMonths: 36, minimum: 24, effective: 36 },
        punch_cards: { months: null, defaultMonths: 60, minimum: 24, effective: 60 },
        probe_readings: { months: null, defaultMonths: 36, minimum: 24, effective: 36 },
        audit_results: { months: null, defaultMonths: 60, minimum: 24, effective: 60 },
        documents: { months: null, defaultMonths: null, minimum: 12, effective: null },
      });
    }
    expect((await manager.inject({ method: 'GET', url: url() })).json().editable).toBe(true);
    expect((await customer.inject({ method: 'GET', url: url() })).json().editable).toBe(false);
  });

  it('refuses a value below the legal minimum, writing nothing', async () => {
    const response = await manager.inject({
      method: 'PUT',
      url: url(),
      payload: { punch_cards: 30, task_results: 12 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'retention/below-minimum',
      message: 'A retention cannot be shorter than the legal minimum of its records.',
      issues: [{ path: 'task_results', message: 'At least 24 months.' }],
    });
    const [row] = await context.db
      .select()
      .from(retentionSettings)
      .where(eq(retentionSettings.database_id, tenants.a.database.id));
    expect(row).toBeUndefined();
  });

  it('refuses malformed bodies, customers and another tenant', async () => {
    for (const payload of [{}, { task_results: 2.5 }, { task_results: 241 }, { other: 30 }]) {
      const response = await manager.inject({ method: 'PUT', url: url(), payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const byCustomer = await customer.inject({
      method: 'PUT',
      url: url(),
      payload: { punch_cards: 30 },
    });
    expect(byCustomer.statusCode).toBe(403);
    for (const method of ['GET', 'PUT'] as const) {
      const response = await otherManager.inject({
        method,
        url: url(),
        ...(method === 'PUT' ? { payload: { punch_cards: 30 } } : {}),
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await context.app.inject({ method: 'GET', url: url() })).statusCode).toBe(401);
  });

  it('stores a change and answers what is stored; null goes back to the default', async () => {
    const set = await manager.inject({
      method: 'PUT',
      url: url(),
      payload: { audit_results: 48, documents: 24 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().types.audit_results).toMatchObject({ months: 48, effective: 48 });
    expect(set.json().types.documents).toMatchObject({ months: 24, effective: 24 });
    const reset = await manager.inject({
      method: 'PUT',
      url: url(),
      payload: { audit_results: null },
    });
    expect(reset.json().types.audit_results).toMatchObject({ months: null, effective: 60 });
    const read = await admin.inject({ method: 'GET', url: url() });
    expect(read.json().types.documents).toMatchObject({ months: 24, effective: 24 });
    expect(read.json().updated_at).toEqual(expect.any(String));
  });
});

describe('the retention job', () => {
  it('removes nothing younger than the retention', async () => {
    const before = await entriesOf(first.store.id);
    const summary = await run(new Date());
    expect(summary.tombstones).toBe(0);
    expect(await entriesOf(first.store.id)).toHaveLength(before.length);
    expect(await verify(first.store.id)).toMatchObject({ status: 'intact', removed: {} });
  });

  it('removes task results and probe readings past their 36 months with signed tombstones; the verifier stays intact', async () => {
    const entriesBefore = await entriesOf(first.store.id);
    const summary = await run(later(40));
    // Punch cards (60 months) and audit results (60) stay.
    expect(summary.removed).toMatchObject({
      task_results: 3,
      probe_readings: 3,
      punch_cards: 0,
      audit_results: 0,
    });
    expect(await count(tasks, first.store.id)).toBe(0);
    const revisions = await context.db
      .select()
      .from(taskResultRevisions)
      .where(eq(taskResultRevisions.store_id, first.store.id));
    expect(revisions).toEqual([]);
    expect(await count(punchEntries, first.store.id)).toBe(2);
    expect(await count(auditResults, first.store.id)).toBe(1);
    // The task's picture went with it.
    expect(await context.app.deps.storage.stat(first.picture)).toBeNull();

    // Two tombstones, each naming the seqs of the entries whose records went, signed.
    const tombstones = await entriesOf(first.store.id, 'tombstone');
    expect(tombstones).toHaveLength(2);
    const revisionSeqs = entriesBefore
      .filter((entry) => entry.kind === 'task_result_revision')
      .map((entry) => entry.seq);
    const taskTombstone = tombstones.find((entry) => entry.details?.type === 'task_results')!;
    expect(taskTombstone.details).toMatchObject({
      store_id: first.store.id,
      chain_kind: 'task_result_revision',
      removed: 3,
      seqs: seqRanges(revisionSeqs),
      signature: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
    });

    expect(await verify(first.store.id)).toMatchObject({
      status: 'intact',
      removed: { task_result_revision: 2, probe_readings_day: 1 },
      skipped: { tombstone: 2 },
    });
  });

  it('is idempotent: a second run removes and appends nothing', async () => {
    const summary = await run(later(40));
    expect(summary.tombstones).toBe(0);
    expect(await entriesOf(first.store.id, 'tombstone')).toHaveLength(2);
  });

  it('applies a database setting: punch cards kept 24 months go, audit results stay', async () => {
    const response = await manager.inject({
      method: 'PUT',
      url: `/api/databases/${tenants.a.database.id}/retention`,
      payload: { punch_cards: 24 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const summary = await run(later(30));
    expect(summary.removed).toMatchObject({ punch_cards: 4, audit_results: 0 });
    expect(await count(punchEntries, first.store.id)).toBe(0);
    expect(await count(auditResults, first.store.id)).toBe(1);
    expect(await verify(first.store.id)).toMatchObject({
      status: 'intact',
      removed: { punch_entry_revision: 2 },
    });
    // The screen lists the removals, newest first.
    const read = await manager.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/retention`,
    });
    expect(
      read
        .json()
        .removals.map((removal: { type: string }) => removal.type)
        .sort(),
    ).toEqual(['probe_readings', 'punch_cards', 'task_results']);
    expect(read.json().removals[0]).toMatchObject({
      store_id: first.store.id,
      store_name: first.store.name,
      count: expect.any(Number),
      before: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('never removes what the legal minimum protects, whatever is stored', async () => {
    const database = await buildDatabase(context.db, {
      name: 'Short-lived',
      distributor_id: tenants.a.distributor.id,
    });
    const { store } = await storeWithRecords(database.id, tenants.a.distributor.id);
    // Stored behind the API's check: one month for everything.
    await context.db.insert(retentionSettings).values({
      database_id: database.id,
      task_results_months: 1,
      punch_cards_months: 1,
      probe_readings_months: 1,
      audit_results_months: 1,
    });
    await run(later(13));
    expect(await count(tasks, store.id)).toBe(1);
    expect(await count(punchEntries, store.id)).toBe(2);
    expect(await count(auditResults, store.id)).toBe(1);
    expect(await entriesOf(store.id, 'tombstone')).toEqual([]);
    // Past the 24 months of the minimum, they go.
    await run(later(25));
    expect(await count(tasks, store.id)).toBe(0);
    expect(await count(auditResults, store.id)).toBe(0);
    expect(await verify(store.id)).toMatchObject({ status: 'intact' });
  });

  it("removes a database's documents unchanged for longer than its setting; locked ones stay", async () => {
    const key = `databases/${tenants.a.database.id}/documents/old.pdf`;
    await context.app.deps.storage.put(key, Buffer.from('%PDF'));
    const old = new Date(Date.now() - 30 * monthMs);
    const [removed, locked] = await context.db
      .insert(documents)
      .values(
        ['Old procedure.pdf', 'Locked procedure.pdf'].map((name, index) => ({
          owner_kind: 'database' as const,
          owner_id: tenants.a.database.id,
          database_id: tenants.a.database.id,
          name,
          type: 'file' as const,
          storage_key: index === 0 ? key : null,
          locked: index === 1,
          updated_at: old,
          created_at: old,
        })),
      )
      .returning();
    const summary = await run(new Date());
    expect(summary.removed.documents).toBe(1);
    const left = await context.db.select({ id: documents.id }).from(documents);
    expect(left.map((row) => row.id)).toContain(locked!.id);
    expect(left.map((row) => row.id)).not.toContain(removed!.id);
    expect(await context.app.deps.storage.stat(key)).toBeNull();
  });
});

describe('the verifier and tombstones', () => {
  it('finds a record deleted behind the application despite the tombstones', async () => {
    const [result] = await context.db
      .select()
      .from(auditResults)
      .where(eq(auditResults.store_id, first.store.id));
    await context.db.execute(sql`delete from audit_results where id = ${result!.id}`);
    expect(await verify(first.store.id)).toMatchObject({
      status: 'broken',
      first: { problem: 'record-deleted', kind: 'audit_result', record_id: result!.id },
    });
  });

  it('refuses a tombstone not signed with the records key, and one whose summary was edited', async () => {
    const [entry] = (await entriesOf(first.store.id, 'audit_result')).slice(-1);
    const summary = {
      store_id: first.store.id,
      type: 'audit_results',
      chain_kind: 'audit_result',
      before: today(),
      removed: 1,
      seqs: [[entry!.seq, entry!.seq]],
    };
    const forged = Buffer.from('another key, not the deployment one!!');
    const [tombstone] = await context.db.transaction((tx) =>
      appendToChain(tx, {
        storeId: first.store.id,
        kind: 'tombstone',
        recordId: 'retention:forged',
        record: summary,
        details: { ...summary, signature: signRecord(forged, summary) },
      }),
    );
    expect(await verify(first.store.id)).toMatchObject({
      status: 'broken',
      first: { problem: 'record-deleted', kind: 'audit_result' },
    });
    // The walk reaching the forged tombstone itself: verified from its seq on.
    const from = await verifyRecordsChain(context.db, first.store.id, {
      signingKey: key(),
      from: tombstone!.created_at,
    });
    expect(from).toMatchObject({
      status: 'broken',
      first: { problem: 'tombstone-invalid', seq: tombstone!.seq },
    });

    // A tombstone of the job whose covered seqs were widened afterwards.
    const [genuine] = await entriesOf(first.store.id, 'tombstone');
    await context.db.execute(sql`update record_chain_entries
       set details = jsonb_set(details, '{seqs}', '[[1, 999]]'::jsonb)
       where store_id = ${first.store.id} and seq = ${genuine!.seq}`);
    const widened = await verifyRecordsChain(context.db, first.store.id, {
      signingKey: key(),
      from: genuine!.created_at,
    });
    expect(widened).toMatchObject({
      status: 'broken',
      first: { problem: 'entry-changed', seq: genuine!.seq },
    });
  });
});

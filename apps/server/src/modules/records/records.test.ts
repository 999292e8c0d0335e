import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dayInZone } from '@mise/shared/tasks/rules';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import {
  punchEntryRevisions,
  recordChainEntries,
  recordChainHeads,
  taskResultRevisions,
} from '../../db/schema';
import {
  buildEmployee,
  buildStore,
  buildStoreElement,
  buildTask,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { noonZone } from '../../test/zones';
import { asDevice, buildDevice, employeeToken, newKey } from '../device/test-support';
import { findStoreTask, writeTaskResult } from '../tasks/task-results.service';
import { recordHashOf } from './chain';
import { taskResultRevisionContent } from './sources/task-result-revisions';
import { verifyRecordsChain } from './verify';

/*
 * The records chain through the application (issue 21): task results and their corrections,
 * unscheduled tasks, clocking and punch-card edits are chained in their own transaction; the
 * verifier (service, admin API, command line) finds what was changed behind the application.
 */

const context = useTestApp();
const zone = noonZone();
const isPg = process.env.TEST_DB === 'pg';

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let customer: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

const today = () => dayInZone(new Date(), zone);
const temperatures = (task: { elements: { id: string }[] }, temperature: number) => ({
  entries: task.elements.map((element) => ({
    element: element.id,
    temperature,
    first_temperature: null,
    control_temperature: null,
    comment: '',
    pictures: [],
    timestamp: Math.floor(Date.now() / 1000),
  })),
});

/**
 * A store with its records written through the API: a task completed and corrected (device),
 * an unscheduled traceability task, an employee clocked in and out (device), the exit
 * corrected on the punch-card screen (back-office).
 */
async function storeWithRecords() {
  const store = await buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
    timezone_name: zone,
  });
  const { device, token } = await buildDevice(context.db, store.id);
  const employee = await buildEmployee(context.db, { storeIds: [store.id] });
  const session = await employeeToken(context.app, token, employee.id);
  const call = asDevice(context.app, token, session);
  const task = await buildTask(context.db, {
    store_id: store.id,
    day: today(),
    start: new Date(Date.now() - 10 * 60_000),
  });
  const submit = (payload: object) =>
    call({ method: 'POST', url: `/api/device/tasks/${task.id}/result`, payload });
  const completed = await submit({ idempotency_key: newKey(), result: temperatures(task, 3) });
  expect(completed.statusCode, completed.body).toBe(200);
  const corrected = await submit({
    idempotency_key: newKey(),
    result: temperatures(task, 5),
    reason: 'Read on the wrong fridge',
  });
  expect(corrected.statusCode, corrected.body).toBe(200);
  const soup = await buildStoreElement(context.db, {
    store_id: store.id,
    name: 'Soup',
    active: true,
    traceability_module_active: true,
  });
  const unscheduled = await call({
    method: 'POST',
    url: '/api/device/tasks',
    payload: {
      id: randomUUID(),
      idempotency_key: newKey(),
      module: 'traceability',
      element: soup.id,
      result: { entries: [{ element: soup.id, pictures: [] }] },
    },
  });
  expect(unscheduled.statusCode, unscheduled.body).toBe(200);
  for (const isIn of [true, false]) {
    const punched = await call({
      method: 'POST',
      url: '/api/device/punches',
      payload: { idempotency_key: newKey(), is_in: isIn },
    });
    expect(punched.statusCode, punched.body).toBe(200);
  }
  const url = `/api/stores/${store.id}/punchCards`;
  const cards = await admin.inject({
    method: 'GET',
    url: `${url}?start=${today()}&end=${today()}`,
  });
  const entries = cards.json().entries as {
    id: string;
    employee_id: string;
    is_in: boolean;
    timestamp: string;
    version: number;
  }[];
  expect(entries).toHaveLength(2);
  const saved = await admin.inject({
    method: 'PUT',
    url,
    payload: {
      start: today(),
      end: today(),
      entries: entries.map((entry) => ({
        id: entry.id,
        version: entry.version,
        employee_id: entry.employee_id,
        is_in: entry.is_in,
        // The exit one minute later (still the store's today: it is about noon there).
        timestamp_modified: entry.is_in
          ? null
          : new Date(Date.parse(entry.timestamp) + 60_000).toISOString(),
      })),
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { store, task, device, employee, call, submit };
}

async function entriesOf(storeId: string) {
  return context.db
    .select()
    .from(recordChainEntries)
    .where(eq(recordChainEntries.store_id, storeId))
    .orderBy(asc(recordChainEntries.seq));
}

const verify = (storeId: string, query = '') =>
  admin.inject({ method: 'GET', url: `/api/records/verify?storeId=${storeId}${query}` });

describe('appending the records of a store', () => {
  it('chains every result, correction, unscheduled task, clocking and punch edit, in order', async () => {
    const { store, task } = await storeWithRecords();
    const entries = await entriesOf(store.id);
    expect(entries.map((entry) => [entry.seq, entry.kind])).toEqual([
      [1, 'task_result_revision'],
      [2, 'task_result_revision'],
      [3, 'task_result_revision'],
      [4, 'punch_entry_revision'],
      [5, 'punch_entry_revision'],
      [6, 'punch_entry_revision'],
    ]);
    // Each entry covers the revision row written with it, as stored.
    const revisions = await context.db
      .select()
      .from(taskResultRevisions)
      .where(eq(taskResultRevisions.task_id, task.id))
      .orderBy(asc(taskResultRevisions.revision));
    expect(revisions.map((revision) => revision.id)).toEqual([
      entries[0]!.record_id,
      entries[1]!.record_id,
    ]);
    expect(entries[1]!.record_hash).toBe(recordHashOf(taskResultRevisionContent(revisions[1]!)));
    const punches = await context.db
      .select({ id: punchEntryRevisions.id, action: punchEntryRevisions.action })
      .from(punchEntryRevisions)
      .where(eq(punchEntryRevisions.store_id, store.id))
      .orderBy(asc(punchEntryRevisions.created_at));
    expect(punches.map((revision) => revision.action)).toEqual(['create', 'create', 'update']);
    expect(entries.slice(3).map((entry) => entry.record_id)).toEqual(
      punches.map((revision) => revision.id),
    );

    const answer = await verify(store.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      status: 'intact',
      store_id: store.id,
      from: null,
      to: null,
      entries: 6,
      counts: { task_result_revision: 3, punch_entry_revision: 3 },
      skipped: {},
      removed: {},
      head: { seq: 6, hash: entries[5]!.entry_hash },
    });
    // Today's period, in the store's days, holds them all; yesterday none.
    const period = await verify(store.id, `&from=${today()}&to=${today()}`);
    expect(period.json()).toMatchObject({ status: 'intact', entries: 6 });
    const yesterday = new Date(Date.now() - 86_400_000);
    const before = dayInZone(yesterday, zone);
    const empty = await verify(store.id, `&from=${before}&to=${before}`);
    expect(empty.json()).toMatchObject({ status: 'intact', entries: 0, head: { seq: 0 } });
  });

  it('leaves no entry for a refused write or a rolled-back transaction', async () => {
    const { store, task, device, employee, submit } = await storeWithRecords();
    const headBefore = (await entriesOf(store.id)).length;
    // A correction without a reason is refused: nothing written, nothing chained.
    const refused = await submit({ idempotency_key: newKey(), result: temperatures(task, 4) });
    expect(refused.statusCode).toBe(409);
    // The result written, then the transaction fails after it: revision and entry both gone.
    const locked = await findStoreTask(context.db, store.id, task.id);
    const failure = context.db.transaction(async (tx) => {
      await writeTaskResult(
        tx as unknown as Database,
        {
          deviceId: device.id,
          storeId: store.id,
          employee: { id: employee.id, name: employee.name, surname: employee.surname },
        },
        locked,
        { idempotency_key: newKey(), result: temperatures(task, 6), reason: 'Again' },
        'hash',
        zone,
        new Date(),
      );
      const inside = await tx
        .select()
        .from(recordChainEntries)
        .where(eq(recordChainEntries.store_id, store.id));
      expect(inside).toHaveLength(headBefore + 1);
      throw new Error('aborted after the write');
    });
    await expect(failure).rejects.toThrow('aborted after the write');
    expect(await entriesOf(store.id)).toHaveLength(headBefore);
    const [head] = await context.db
      .select()
      .from(recordChainHeads)
      .where(eq(recordChainHeads.store_id, store.id));
    expect(head!.seq).toBe(headBefore);
    expect((await verify(store.id)).json().status).toBe('intact');
  });

  it('chains two results of one store sent at once with consecutive seqs', async () => {
    const { store, call } = await storeWithRecords();
    const tasks = await Promise.all(
      [0, 1].map(() =>
        buildTask(context.db, {
          store_id: store.id,
          day: today(),
          start: new Date(Date.now() - 5 * 60_000),
        }),
      ),
    );
    const answers = await Promise.all(
      tasks.map((task) =>
        call({
          method: 'POST',
          url: `/api/device/tasks/${task.id}/result`,
          payload: { idempotency_key: newKey(), result: temperatures(task, 2) },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const entries = await entriesOf(store.id);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(entries.slice(6).map((entry) => entry.kind)).toEqual([
      'task_result_revision',
      'task_result_revision',
    ]);
    expect((await verify(store.id)).json()).toMatchObject({ status: 'intact', entries: 8 });
  });
});

describe('finding what was changed behind the application', () => {
  it('finds a result changed with SQL (record-changed at its seq)', async () => {
    const { store } = await storeWithRecords();
    const entries = await entriesOf(store.id);
    await context.db.execute(
      sql`update task_result_revisions set result = jsonb_set(result, '{entries,0,temperature}', '2') where id = ${entries[0]!.record_id}`,
    );
    const answer = await verify(store.id);
    expect(answer.json()).toMatchObject({
      status: 'broken',
      entries: 0,
      first: {
        seq: 1,
        kind: 'task_result_revision',
        record_id: entries[0]!.record_id,
        problem: 'record-changed',
        expected: entries[0]!.record_hash,
      },
    });
  });

  it('finds a deleted punch revision (record-deleted)', async () => {
    const { store } = await storeWithRecords();
    const entries = await entriesOf(store.id);
    await context.db.execute(
      sql`delete from punch_entry_revisions where id = ${entries[4]!.record_id}`,
    );
    expect((await verify(store.id)).json()).toMatchObject({
      status: 'broken',
      entries: 4,
      first: {
        seq: 5,
        kind: 'punch_entry_revision',
        record_id: entries[4]!.record_id,
        problem: 'record-deleted',
      },
    });
  });

  it('finds a revision inserted with no entry (record-inserted)', async () => {
    const { store, task } = await storeWithRecords();
    const [inserted] = await context.db
      .insert(taskResultRevisions)
      .values({
        task_id: task.id,
        store_id: store.id,
        revision: 9,
        kind: 'result',
        result: temperatures(task, 1),
        completed_timestamp: new Date(),
        idempotency_key: 'behind-the-back',
        request_hash: 'x',
      })
      .returning();
    expect((await verify(store.id)).json()).toMatchObject({
      status: 'broken',
      entries: 6,
      first: {
        seq: null,
        kind: 'task_result_revision',
        record_id: inserted!.id,
        problem: 'record-inserted',
        found: recordHashOf(taskResultRevisionContent(inserted!)),
      },
    });
  });

  it('finds an entry whose record hash was rewritten (entry-changed)', async () => {
    const { store } = await storeWithRecords();
    const entries = await entriesOf(store.id);
    await context.db
      .update(recordChainEntries)
      .set({ record_hash: 'e'.repeat(64) })
      .where(and(eq(recordChainEntries.store_id, store.id), eq(recordChainEntries.seq, 3)));
    expect((await verify(store.id)).json()).toMatchObject({
      status: 'broken',
      entries: 2,
      first: { seq: 3, problem: 'entry-changed', expected: entries[2]!.entry_hash },
    });
    // The same verification without the admin API.
    expect(await verifyRecordsChain(context.db, store.id)).toMatchObject({
      status: 'broken',
      first: { seq: 3, problem: 'entry-changed' },
    });
  });
});

describe('GET /api/records/verify', () => {
  it('answers 401 signed out, 403 to another role, 400 for invalid input, 404 for an unknown store', async () => {
    const store = tenants.a.stores[0]!;
    const anonymous = await context.app.inject({
      method: 'GET',
      url: `/api/records/verify?storeId=${store.id}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const owner = await customer.inject({
      method: 'GET',
      url: `/api/records/verify?storeId=${store.id}`,
    });
    expect(owner.statusCode).toBe(403);
    expect(owner.json().error.code).toBe('permission/denied');
    for (const query of [
      '',
      'storeId=nope',
      `storeId=${store.id}&from=2026-11-10&to=2026-11-01`,
      `storeId=${store.id}&from=10/11/2026`,
      `storeId=${store.id}&extra=1`,
    ]) {
      const invalid = await admin.inject({ method: 'GET', url: `/api/records/verify?${query}` });
      expect(invalid.statusCode, query).toBe(400);
      expect(invalid.json().error.code).toBe('validation/invalid-input');
    }
    const unknown = await verify(randomUUID());
    expect(unknown.statusCode).toBe(404);
    // A store that never recorded anything is intact and empty.
    expect((await verify(store.id)).json()).toMatchObject({
      status: 'intact',
      entries: 0,
      head: { seq: 0, hash: '0'.repeat(64) },
    });
  });
});

/** Runs `npm run verify-records` against this test's PostgreSQL database. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const url = (context.database.pool as unknown as { options: { connectionString: string } })
    .options.connectionString;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/verify-records.ts', ...args],
      { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(isPg)('npm run verify-records', () => {
  it('prints the answer and exits 0 intact, 1 broken, 2 on a usage error', async () => {
    const { store } = await storeWithRecords();
    const intact = await runCli(['--store', store.id, '--from', today(), '--to', today()]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(JSON.parse(intact.stdout)).toMatchObject({
      status: 'intact',
      entries: 6,
      counts: { task_result_revision: 3, punch_entry_revision: 3 },
    });
    const entries = await entriesOf(store.id);
    await context.db.execute(
      sql`update punch_entry_revisions set employee_id = ${randomUUID()} where id = ${entries[3]!.record_id}`,
    );
    const broken = await runCli(['--store', store.id]);
    expect(broken.code, broken.stderr).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      status: 'broken',
      first: { seq: 4, problem: 'record-changed' },
    });
    const usage = await runCli(['--from', '2026-11-01']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run verify-records');
  }, 60_000);
});

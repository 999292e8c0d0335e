import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { taskOpeningToleranceMinutes } from '@mise/shared/tasks/constants';
import { dayInZone, lateDeliveryGraceHours } from '@mise/shared/tasks/rules';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stores, taskResultRevisions, tasks } from '../../db/schema';
import {
  buildEmployee,
  buildStore,
  buildTask,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { noonZone } from '../../test/zones';
import { asDevice, buildDevice, employeeToken, newKey, png, pngUpload } from './test-support';

/** The server's clock: the real time unless a test sets it (AppDeps.now). */
let frozenNow: Date | null = null;
const context = useTestApp({ now: () => frozenNow ?? new Date() });

/** The test store's zone: about noon when the file runs (test/zones). */
const zone = noonZone();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let store: Awaited<ReturnType<typeof buildStore>>;
let deviceId: string;
let deviceToken: string;
let employee: Awaited<ReturnType<typeof buildEmployee>>;
let session: string;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  store = await buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
    timezone_name: zone,
  });
  const paired = await buildDevice(context.db, store.id);
  deviceId = paired.device.id;
  deviceToken = paired.token;
  employee = await buildEmployee(context.db, {
    storeIds: [store.id],
    name: 'Jeanne',
    surname: 'Martin',
  });
  session = await employeeToken(context.app, deviceToken, employee.id);
});

const device = () => asDevice(context.app, deviceToken, session);

const submit = (taskId: string, payload: object, call = device()) =>
  call({ method: 'POST', url: `/api/device/tasks/${taskId}/result`, payload });
const postpone = (taskId: string, payload: object, call = device()) =>
  call({ method: 'POST', url: `/api/device/tasks/${taskId}/postpone`, payload });

async function revisionsOf(taskId: string) {
  return context.db
    .select()
    .from(taskResultRevisions)
    .where(eq(taskResultRevisions.task_id, taskId))
    .orderBy(asc(taskResultRevisions.revision));
}

async function taskRow(taskId: string) {
  const [row] = await context.db.select().from(tasks).where(eq(tasks.id, taskId));
  return row!;
}

async function uploadPicture(): Promise<string> {
  const response = await device()({
    method: 'POST',
    url: '/api/device/pictures',
    ...pngUpload(),
  });
  expect(response.statusCode).toBe(200);
  return response.json().path as string;
}

/** One entry per element of the task (a complete result). */
const temperaturesResult = (
  task: { elements: { id: string }[] },
  temperature: number | null = 3,
) => ({
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

const storeToday = () => dayInZone(new Date(), zone);

/** A task of the test store, on the store's day of its start unless told otherwise. */
const storeTask = (values: Parameters<typeof buildTask>[1]) =>
  buildTask(context.db, { day: dayInZone(values.start ?? new Date(), zone), ...values });

describe('GET /api/device/tasks', () => {
  it("lists the store's tasks of the day (the store's today by default), by start, with status", async () => {
    const own = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      timezone_name: 'Pacific/Auckland',
    });
    const { token } = await buildDevice(context.db, own.id);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(
      new Date(),
    );
    const late = await buildTask(context.db, {
      store_id: own.id,
      day: today,
      name: 'Late',
      start: new Date(Date.now() - 3 * 3600_000),
    });
    const early = await buildTask(context.db, {
      store_id: own.id,
      day: today,
      name: 'Earlier',
      start: new Date(Date.now() - 4 * 3600_000),
      completed_timestamp: new Date(Date.now() - 4 * 3600_000 + 60_000),
    });
    const coming = await buildTask(context.db, {
      store_id: own.id,
      day: today,
      name: 'Coming',
      start: new Date(Date.now() + 3600_000),
    });
    await buildTask(context.db, {
      store_id: own.id,
      day: '2020-01-01',
      name: 'Other day',
      start: new Date('2019-12-31T20:00:00Z'),
    });
    await storeTask({ store_id: store.id, day: today, name: 'Other store' });
    const response = await asDevice(
      context.app,
      token,
    )({ method: 'GET', url: '/api/device/tasks' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.day).toBe(today);
    expect(
      body.items.map((item: { id: string; status: string }) => [item.id, item.status]),
    ).toEqual([
      [early.id, 'done'],
      [late.id, 'late'],
      [coming.id, 'on-time'],
    ]);
    const other = await asDevice(
      context.app,
      token,
    )({ method: 'GET', url: '/api/device/tasks?day=2020-01-01' });
    expect(other.json().items.map((item: { name: string }) => item.name)).toEqual(['Other day']);
    expect(other.json().items[0].status).toBe('non-finalized');
    const invalid = await asDevice(
      context.app,
      token,
    )({ method: 'GET', url: '/api/device/tasks?day=yesterday' });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('POST /api/device/tasks/:id/result', () => {
  it('completes a temperatures task: one transaction writes revision 1 and the task', async () => {
    const task = await storeTask({ store_id: store.id });
    const key = newKey();
    const completed = new Date(Date.now() - 60_000).toISOString();
    const body = {
      idempotency_key: key,
      result: temperaturesResult(task),
      completed_timestamp: completed,
    };
    const before = Date.now();
    const response = await submit(task.id, body);
    expect(response.statusCode).toBe(200);
    expect(response.json().task).toMatchObject({
      id: task.id,
      status: 'done',
      revision: 1,
      completed_employee: employee.id,
      employee: { name: 'Jeanne', surname: 'Martin' },
      result: body.result,
    });
    // The record's completion time is the server's; the tablet's is kept on the revision.
    const stamp = new Date(response.json().task.completed_timestamp).getTime();
    expect(stamp).toBeGreaterThanOrEqual(before - 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now() + 1000);
    const [revision, ...others] = await revisionsOf(task.id);
    expect(others).toEqual([]);
    expect(revision).toMatchObject({
      revision: 1,
      kind: 'result',
      store_id: store.id,
      employee_id: employee.id,
      employee: { name: 'Jeanne', surname: 'Martin' },
      device_id: deviceId,
      reason: null,
      idempotency_key: key,
      result: body.result,
    });
    expect(revision!.request_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(revision!.completed_timestamp!.getTime()).toBe(stamp);
    expect(revision!.reported_timestamp!.toISOString()).toBe(completed);
  });

  it("does not let the tablet backdate a completion (before the task's start): the server's now is stored", async () => {
    const task = await storeTask({
      store_id: store.id,
      start: new Date(Date.now() - 3600_000),
    });
    const reported = new Date(Date.now() - 5 * 3600_000).toISOString();
    const before = Date.now();
    const response = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task, null),
      completed_timestamp: reported,
    });
    expect(response.statusCode).toBe(200);
    const row = await taskRow(task.id);
    expect(row.completed_timestamp!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.completed_timestamp!.getTime()).toBeGreaterThan(task.start.getTime());
    const [revision] = await revisionsOf(task.id);
    expect(revision!.reported_timestamp!.toISOString()).toBe(reported);
    expect(revision!.completed_timestamp!.getTime()).toBe(row.completed_timestamp!.getTime());
  });

  it('refuses an empty or partial result: one entry per element or action (400)', async () => {
    const task = await storeTask({ store_id: store.id });
    const actions = await storeTask({
      store_id: store.id,
      module: 'actions',
      elements: [],
      actions: [
        { name: 'A', requires_picture: false },
        { name: 'B', requires_picture: false },
      ],
    });
    const full = temperaturesResult(task);
    const cases: [string, object][] = [
      [task.id, { entries: [] }],
      [task.id, { entries: [full.entries[0]] }],
      [actions.id, { entries: [] }],
      [
        actions.id,
        {
          entries: [{ index: 0, action: 'A', done: true, requires_picture: false, picture: null }],
        },
      ],
    ];
    for (const [taskId, result] of cases) {
      const response = await submit(taskId, { idempotency_key: newKey(), result });
      expect(response.statusCode, JSON.stringify(result)).toBe(400);
      expect(response.json().error.code).toBe('task/invalid-result');
    }
    expect(await revisionsOf(task.id)).toEqual([]);
    expect(await revisionsOf(actions.id)).toEqual([]);
  });

  it('completes traceability, oils, temperature control and actions tasks (with pictures)', async () => {
    const picture = await uploadPicture();
    expect(picture).toMatch(
      new RegExp(`^stores/${store.id}/tasks/\\d{4}-\\d{2}/[a-f0-9]{32}\\.png$`),
    );
    const shot = { path: picture, timestamp: 1_700_000_000 };
    const traceability = await storeTask({
      store_id: store.id,
      module: 'traceability',
    });
    const oils = await storeTask({ store_id: store.id, module: 'oils' });
    const control = await storeTask({
      store_id: store.id,
      module: 'temperature_control',
    });
    const actions = await storeTask({
      store_id: store.id,
      module: 'actions',
      elements: [],
      actions: [
        { name: 'Nettoyer le plan de travail', requires_picture: true },
        { name: 'Vider les poubelles', requires_picture: false },
      ],
    });
    const cases = [
      {
        task: traceability,
        result: {
          entries: traceability.elements.map((element) => ({
            element: element.id,
            pictures: [shot],
          })),
        },
      },
      {
        task: oils,
        result: {
          entries: oils.elements.map((element) => ({
            element: element.id,
            cleaned: true,
            oil_changed: false,
            oil_filtered: true,
            filter_changed: false,
            polarity: 12.5,
            temperature: null,
            pictures: [shot],
          })),
        },
      },
      {
        task: control,
        result: {
          entries: control.elements.map((element) => ({
            element: element.id,
            mode: 'cooling',
            target_temperature: 10,
            start_temperature: 63,
            start_timestamp: 1_700_000_000,
            end_temperature: 8,
            end_timestamp: 1_700_003_600,
            comment: 'ok',
          })),
        },
      },
      {
        task: actions,
        result: {
          entries: [
            {
              index: 0,
              action: 'Nettoyer le plan de travail',
              done: true,
              requires_picture: true,
              picture: shot,
            },
            {
              index: 1,
              action: 'Vider les poubelles',
              done: false,
              requires_picture: false,
              picture: null,
            },
          ],
        },
      },
    ];
    const jeanne = { id: employee.id, name: 'Jeanne', surname: 'Martin' };
    for (const { task, result } of cases) {
      const response = await submit(task.id, { idempotency_key: newKey(), result });
      expect(response.statusCode, task.module).toBe(200);
      // A temperature control recorded in one step: started and ended by the same employee.
      const recorded =
        task.module === 'temperature_control'
          ? {
              entries: (result.entries as object[]).map((entry) => ({
                ...entry,
                start_employee: jeanne,
                end_employee: jeanne,
              })),
            }
          : result;
      expect(response.json().task).toMatchObject({ revision: 1, status: 'done' });
      expect(response.json().task.result).toEqual(recorded);
      const revisions = await revisionsOf(task.id);
      expect(revisions.map((row) => [row.revision, row.kind])).toEqual([[1, 'result']]);
      expect(revisions[0]!.result).toEqual(recorded);
    }
    // The stored picture is readable by a back-office user who sees the store.
    const file = await admin.inject({ method: 'GET', url: `/api/files/${picture}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
  });

  it("answers 400 task/invalid-result for a result that does not match the task's module or content", async () => {
    const task = await storeTask({ store_id: store.id });
    const actions = await storeTask({
      store_id: store.id,
      module: 'actions',
      elements: [],
      actions: [{ name: 'Photo', requires_picture: true }],
    });
    const entry = temperaturesResult(task).entries[0]!;
    const otherStorePicture = `stores/${tenants.b.stores[0]!.id}/tasks/2026-11/${'a'.repeat(32)}.png`;
    const invalid: [string, object][] = [
      [task.id, { entries: [{ element: task.elements[0]!.id, pictures: [] }] }],
      [task.id, { entries: [{ ...entry, element: '00000000-0000-4000-8000-000000000000' }] }],
      [task.id, { entries: [entry, entry] }],
      [task.id, { entries: [{ ...entry, pictures: [{ path: otherStorePicture, timestamp: 1 }] }] }],
      [
        task.id,
        { entries: [{ ...entry, pictures: [{ path: 'accounts/x/../secret.png', timestamp: 1 }] }] },
      ],
      [
        actions.id,
        {
          entries: [
            { index: 1, action: 'Photo', done: true, requires_picture: false, picture: null },
          ],
        },
      ],
      [
        actions.id,
        {
          entries: [
            { index: 0, action: 'Photo', done: true, requires_picture: true, picture: null },
          ],
        },
      ],
    ];
    for (const [taskId, result] of invalid) {
      const response = await submit(taskId, { idempotency_key: newKey(), result });
      expect(response.statusCode, JSON.stringify(result)).toBe(400);
      expect(response.json().error.code).toBe('task/invalid-result');
    }
    expect(await revisionsOf(task.id)).toEqual([]);
    expect(await revisionsOf(actions.id)).toEqual([]);
    expect((await taskRow(task.id)).completed_timestamp).toBeNull();
    const unknownField = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task),
      store_id: tenants.b.stores[0]!.id,
    });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error.code).toBe('validation/invalid-input');
  });

  it('applies a sequential retry with the same key once, and answers the same', async () => {
    const task = await storeTask({ store_id: store.id });
    const body = { idempotency_key: newKey(), result: temperaturesResult(task) };
    const first = await submit(task.id, body);
    const second = await submit(task.id, body);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const { status: _first, ...firstTask } = first.json().task;
    const { status: _second, ...secondTask } = second.json().task;
    expect(secondTask).toEqual(firstTask);
    expect(await revisionsOf(task.id)).toHaveLength(1);
    expect((await taskRow(task.id)).revision).toBe(1);
  });

  it('applies simultaneous retries with the same key once', async () => {
    const task = await storeTask({ store_id: store.id });
    const body = { idempotency_key: newKey(), result: temperaturesResult(task) };
    const responses = await Promise.all([1, 2, 3, 4].map(() => submit(task.id, body)));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(responses.map((response) => response.json().task.revision))).toEqual(
      new Set([1]),
    );
    expect(await revisionsOf(task.id)).toHaveLength(1);
    // The same key sent for two tasks at once: one wins, the other is a conflict.
    const one = await storeTask({ store_id: store.id });
    const two = await storeTask({ store_id: store.id });
    const shared = newKey();
    const raced = await Promise.all([
      submit(one.id, { idempotency_key: shared, result: temperaturesResult(one) }),
      submit(two.id, { idempotency_key: shared, result: temperaturesResult(two) }),
    ]);
    expect(raced.map((response) => response.statusCode).sort()).toEqual([200, 409]);
  });

  it('answers 409 idempotency/conflict for the same key with another body, writing nothing', async () => {
    const task = await storeTask({ store_id: store.id });
    const key = newKey();
    expect(
      (await submit(task.id, { idempotency_key: key, result: temperaturesResult(task, 3) }))
        .statusCode,
    ).toBe(200);
    const conflict = await submit(task.id, {
      idempotency_key: key,
      result: temperaturesResult(task, 9),
      reason: 'typo',
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency/conflict');
    const other = await storeTask({ store_id: store.id });
    const elsewhere = await submit(other.id, {
      idempotency_key: key,
      result: temperaturesResult(other, 3),
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(await revisionsOf(task.id)).toHaveLength(1);
    expect(await revisionsOf(other.id)).toEqual([]);
    expect(
      ((await taskRow(task.id)).result as { entries: { temperature: number }[] }).entries[0]!
        .temperature,
    ).toBe(3);
  });

  it('refuses to complete a completed task without a reason (409) and corrects it with one (revision 2)', async () => {
    const task = await storeTask({ store_id: store.id });
    const first = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task, 3),
      completed_timestamp: new Date(Date.now() - 120_000).toISOString(),
    });
    const completed = first.json().task.completed_timestamp as string;
    const again = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task, 5),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('task/already-completed');
    expect(await revisionsOf(task.id)).toHaveLength(1);

    const colleague = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Paul',
      surname: 'Durand',
    });
    const colleagueSession = await employeeToken(context.app, deviceToken, colleague.id);
    const corrected = await submit(
      task.id,
      {
        idempotency_key: newKey(),
        result: temperaturesResult(task, 5),
        reason: 'Wrong fridge read',
        // A correction cannot move the completion time either.
        completed_timestamp: new Date(Date.now() - 3 * 3600_000).toISOString(),
      },
      asDevice(context.app, deviceToken, colleagueSession),
    );
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().task).toMatchObject({
      revision: 2,
      // The first completer stays on the task; the correction's author is on its revision.
      completed_employee: employee.id,
      employee: { name: 'Jeanne', surname: 'Martin' },
      completed_timestamp: completed,
      status: 'done',
    });
    const revisions = await revisionsOf(task.id);
    expect(revisions.map((row) => [row.revision, row.employee_id, row.reason])).toEqual([
      [1, employee.id, null],
      [2, colleague.id, 'Wrong fridge read'],
    ]);
    expect(
      (revisions[0]!.result as { entries: { temperature: number }[] }).entries[0]!.temperature,
    ).toBe(3);
    expect(
      (revisions[1]!.result as { entries: { temperature: number }[] }).entries[0]!.temperature,
    ).toBe(5);
  });

  it('uses the server time for a completion too far in the future', async () => {
    const task = await storeTask({ store_id: store.id });
    const response = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task),
      completed_timestamp: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(response.statusCode).toBe(200);
    const stamp = new Date(response.json().task.completed_timestamp).getTime();
    expect(Math.abs(stamp - Date.now())).toBeLessThan(60_000);
  });
});

describe('POST /api/device/tasks/:id/postpone', () => {
  it('creates a copy at the new start and marks the task postponed, with a postpone revision', async () => {
    const task = await storeTask({
      store_id: store.id,
      generation_key: `gen-${newKey()}`,
      day: storeToday(),
      start: new Date(Date.now() - 30 * 60_000),
    });
    const start = new Date(Date.now() + 2 * 3600_000);
    start.setUTCMilliseconds(0);
    const body = { idempotency_key: newKey(), start: start.toISOString() };
    const response = await postpone(task.id, body);
    expect(response.statusCode).toBe(200);
    const copy = response.json().task;
    expect(copy).toMatchObject({
      name: task.name,
      module: task.module,
      start: start.toISOString(),
      day: dayInZone(start, zone),
      duration: task.duration,
      elements: task.elements,
      original_task: task.id,
      postponed_task: null,
      completed_timestamp: null,
      revision: 0,
      status: 'on-time',
    });
    expect(copy.id).not.toBe(task.id);
    expect((await taskRow(copy.id)).generation_key).toBeNull();
    const old = await taskRow(task.id);
    expect(old).toMatchObject({
      postponed_task: copy.id,
      revision: 1,
      completed_timestamp: null,
      completed_employee: employee.id,
    });
    const revisions = await revisionsOf(task.id);
    expect(revisions.map((row) => [row.revision, row.kind, row.employee_id])).toEqual([
      [1, 'postpone', employee.id],
    ]);
    // The old task now shows as postponed in the day's list.
    const list = await device()({ method: 'GET', url: `/api/device/tasks?day=${task.day}` });
    expect(list.json().items.find((item: { id: string }) => item.id === task.id).status).toBe(
      'postponed',
    );

    // A retry answers the same copy and writes nothing; another body with the key is a conflict.
    const retry = await postpone(task.id, body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().task.id).toBe(copy.id);
    const conflict = await postpone(task.id, {
      ...body,
      start: new Date(start.getTime() + 60_000).toISOString(),
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency/conflict');
    const copies = await context.db.select().from(tasks).where(eq(tasks.original_task, task.id));
    expect(copies).toHaveLength(1);

    // Postponed: it can be neither postponed again nor completed.
    const twice = await postpone(task.id, {
      idempotency_key: newKey(),
      start: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('task/postpone-not-allowed');
    const complete = await submit(task.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task),
    });
    expect(complete.statusCode).toBe(409);
    expect(complete.json().error.code).toBe('task/postponed');
    // The copy itself can be completed, once it opens (its start less the tolerance).
    const early = await submit(copy.id, {
      idempotency_key: newKey(),
      result: temperaturesResult(task),
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('task/not-open-yet');
    frozenNow = new Date(start.getTime() - taskOpeningToleranceMinutes * 60_000);
    try {
      expect(
        (await submit(copy.id, { idempotency_key: newKey(), result: temperaturesResult(task) }))
          .statusCode,
      ).toBe(200);
    } finally {
      frozenNow = null;
    }
  });

  it('refuses a start in the past (400), a completed task and a task of a past day (409)', async () => {
    const task = await storeTask({ store_id: store.id, day: storeToday() });
    const past = await postpone(task.id, {
      idempotency_key: newKey(),
      start: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.code).toBe('task/postpone-in-past');
    await submit(task.id, { idempotency_key: newKey(), result: temperaturesResult(task) });
    const done = await postpone(task.id, {
      idempotency_key: newKey(),
      start: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(done.statusCode).toBe(409);
    expect(done.json().error.code).toBe('task/postpone-not-allowed');
    expect((await revisionsOf(task.id)).map((row) => row.kind)).toEqual(['result']);
    const earlier = await storeTask({
      store_id: store.id,
      day: '2020-01-01',
      start: new Date('2020-01-01T08:00:00Z'),
    });
    const refusedEarlier = await postpone(earlier.id, {
      idempotency_key: newKey(),
      start: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(refusedEarlier.statusCode).toBe(409);
    expect(refusedEarlier.json().error.code).toBe('task/closed');
    expect(await revisionsOf(earlier.id)).toEqual([]);
  });

  it('needs an employee token', async () => {
    const task = await storeTask({ store_id: store.id });
    const response = await postpone(
      task.id,
      { idempotency_key: newKey(), start: new Date(Date.now() + 3600_000).toISOString() },
      asDevice(context.app, deviceToken),
    );
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('employee/unauthenticated');
  });
});

describe('completion window: from the start less the tolerance to the end of the store day (issue 13)', () => {
  // A Paris store, the clock set: 2026-06-10 at 11:35 in Paris (09:35Z).
  let paris: Awaited<ReturnType<typeof buildStore>>;
  let parisDevice: ReturnType<typeof asDevice>;
  const at = (iso: string) => new Date(iso);
  const withClock = async <T>(now: string, run: () => Promise<T>): Promise<T> => {
    frozenNow = at(now);
    try {
      return await run();
    } finally {
      frozenNow = null;
    }
  };
  const parisTask = (
    day: string,
    start: string,
    values: Partial<Parameters<typeof buildTask>[1]> = {},
  ) =>
    buildTask(context.db, { store_id: paris.id, day, start: at(start), duration: 60, ...values });
  /** The store's score as its home shows it (the clock as set). */
  const scoreOf = async () =>
    (await admin.inject({ method: 'GET', url: `/api/stores/${paris.id}/home` })).json().score;

  beforeAll(async () => {
    paris = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
      timezone_name: 'Europe/Paris',
      created_at: at('2026-01-01T00:00:00Z'),
    });
    const { token } = await buildDevice(context.db, paris.id);
    const worker = await buildEmployee(context.db, { storeIds: [paris.id] });
    parisDevice = asDevice(context.app, token, await employeeToken(context.app, token, worker.id));
  });

  it('lists when each task opens and closes, and whether it is not open yet, open or closed', async () => {
    const morning = await parisTask('2026-06-10', '2026-06-10T09:00:00Z'); // 11:00–12:00
    const evening = await parisTask('2026-06-10', '2026-06-10T15:00:00Z'); // 17:00–18:00
    const past = await parisTask('2026-05-20', '2026-05-20T06:00:00Z');
    const list = async (day: string) =>
      (await parisDevice({ method: 'GET', url: `/api/device/tasks?day=${day}` })).json();
    const today = await withClock('2026-06-10T09:35:00Z', () => list('2026-06-10'));
    expect(
      today.items.map(
        (item: { id: string; opens_at: string; closes_at: string; window: string }) => [
          item.id,
          item.opens_at,
          item.closes_at,
          item.window,
        ],
      ),
    ).toEqual([
      [morning.id, '2026-06-10T08:30:00.000Z', '2026-06-10T22:00:00.000Z', 'open'],
      [evening.id, '2026-06-10T14:30:00.000Z', '2026-06-10T22:00:00.000Z', 'not_open_yet'],
    ]);
    const earlier = await withClock('2026-06-10T09:35:00Z', () => list('2026-05-20'));
    expect(earlier.items).toEqual([
      expect.objectContaining({
        id: past.id,
        status: 'non-finalized',
        opens_at: '2026-05-20T05:30:00.000Z',
        closes_at: '2026-05-20T22:00:00.000Z',
        window: 'closed',
      }),
    ]);
  });

  it('answers 409 for a task of a past day (task/closed) and one not open yet (task/not-open-yet), writing nothing', async () => {
    const past = await parisTask('2026-05-20', '2026-05-20T06:00:00Z');
    const evening = await parisTask('2026-06-10', '2026-06-10T15:00:00Z');
    const completedPast = await parisTask('2026-05-21', '2026-05-21T06:00:00Z', {
      completed_timestamp: at('2026-05-21T06:10:00Z'),
      result: temperaturesResult(past, 3),
      revision: 1,
    });
    await withClock('2026-06-10T09:35:00Z', async () => {
      const scoreBefore = await scoreOf();
      expect(scoreBefore.counts.missed).toBeGreaterThan(0);
      const cases: [typeof past, object, string][] = [
        [past, {}, 'task/closed'],
        [evening, {}, 'task/not-open-yet'],
        // A correction of a completed task of a past day is refused as well.
        [completedPast, { reason: 'Wrong fridge read' }, 'task/closed'],
      ];
      for (const [task, extra, code] of cases) {
        const before = await taskRow(task.id);
        const response = await submit(
          task.id,
          { idempotency_key: newKey(), result: temperaturesResult(task, 3), ...extra },
          parisDevice,
        );
        expect(response.statusCode, code).toBe(409);
        expect(response.json().error.code).toBe(code);
        expect(await taskRow(task.id)).toEqual(before);
        expect(await revisionsOf(task.id)).toEqual([]);
      }
      // Postponing a task of a past day is refused too.
      const postponed = await postpone(
        past.id,
        { idempotency_key: newKey(), start: '2026-06-10T12:00:00Z' },
        parisDevice,
      );
      expect(postponed.statusCode).toBe(409);
      expect(postponed.json().error.code).toBe('task/closed');
      expect(await revisionsOf(past.id)).toEqual([]);
      expect(await scoreOf()).toEqual(scoreBefore);
    });
  });

  it('accepts a result at the start less the tolerance, refuses one at the end of the store day + 1 s', async () => {
    const evening = await parisTask('2026-06-10', '2026-06-10T15:00:00Z'); // 17:00 Paris
    const opensAt = new Date(evening.start.getTime() - taskOpeningToleranceMinutes * 60_000);
    expect(taskOpeningToleranceMinutes).toBeLessThanOrEqual(30);
    const early = await withClock(new Date(opensAt.getTime() - 1000).toISOString(), () =>
      submit(
        evening.id,
        { idempotency_key: newKey(), result: temperaturesResult(evening) },
        parisDevice,
      ),
    );
    expect(early.json().error.code).toBe('task/not-open-yet');
    const onTime = await withClock(opensAt.toISOString(), () =>
      submit(
        evening.id,
        { idempotency_key: newKey(), result: temperaturesResult(evening) },
        parisDevice,
      ),
    );
    expect(onTime.statusCode, onTime.body).toBe(200);
    expect(onTime.json().task).toMatchObject({
      status: 'done',
      completed_timestamp: opensAt.toISOString(),
      window: 'open',
    });

    // The end of the store day: midnight in Paris, 22:00Z.
    const lastMinute = await parisTask('2026-06-10', '2026-06-10T20:00:00Z');
    const lastSecond = await withClock('2026-06-10T21:59:59Z', () =>
      submit(
        lastMinute.id,
        { idempotency_key: newKey(), result: temperaturesResult(lastMinute) },
        parisDevice,
      ),
    );
    expect(lastSecond.statusCode).toBe(200);
    expect(lastSecond.json().task.status).toBe('done-late');
    const tooLate = await parisTask('2026-06-10', '2026-06-10T20:00:00Z');
    const refused = await withClock('2026-06-10T22:00:01Z', () =>
      submit(
        tooLate.id,
        { idempotency_key: newKey(), result: temperaturesResult(tooLate) },
        parisDevice,
      ),
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('task/closed');
    expect(await revisionsOf(tooLate.id)).toEqual([]);
    expect((await taskRow(tooLate.id)).completed_timestamp).toBeNull();
  });

  it('keeps a result made offline inside its window and delivered after the day closed, at the time it was made', async () => {
    // Paris: the store day ends at 22:00Z. The tablet's clock runs 7 minutes fast.
    const fast = 7 * 60_000;
    const tabletTime = (serverIso: string) =>
      new Date(at(serverIso).getTime() + fast).toISOString();
    const deliver = (
      task: { id: string; elements: { id: string }[] },
      madeAt: string,
      sentAt: string | null,
      now: string,
    ) =>
      withClock(now, () =>
        parisDevice({
          method: 'POST',
          url: `/api/device/tasks/${task.id}/result`,
          headers: sentAt ? { 'x-sent-at': tabletTime(sentAt) } : {},
          payload: {
            idempotency_key: newKey(),
            result: temperaturesResult(task),
            completed_timestamp: tabletTime(madeAt),
          },
        }),
      );

    // Made at 21:55Z (23:55 in Paris), the network back at 22:10Z: kept at 21:55Z.
    const evening = await parisTask('2026-06-10', '2026-06-10T20:00:00Z');
    const late = await deliver(
      evening,
      '2026-06-10T21:55:00Z',
      '2026-06-10T22:10:00Z',
      '2026-06-10T22:10:00Z',
    );
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().task).toMatchObject({
      status: 'done-late',
      completed_timestamp: '2026-06-10T21:55:00.000Z',
    });
    const [revision] = await revisionsOf(evening.id);
    expect(revision!.completed_timestamp!.toISOString()).toBe('2026-06-10T21:55:00.000Z');
    expect(revision!.reported_timestamp!.toISOString()).toBe(tabletTime('2026-06-10T21:55:00Z'));

    // Refused, writing nothing: made after the close; no sending time; more than the grace late.
    const refusals: [string, string | null, string][] = [
      ['2026-06-10T22:05:00Z', '2026-06-10T22:10:00Z', '2026-06-10T22:10:00Z'],
      ['2026-06-10T21:55:00Z', null, '2026-06-10T22:10:00Z'],
      [
        '2026-06-10T21:55:00Z',
        new Date(
          at('2026-06-10T21:55:00Z').getTime() + lateDeliveryGraceHours * 3_600_000 + 60_000,
        ).toISOString(),
        new Date(
          at('2026-06-10T21:55:00Z').getTime() + lateDeliveryGraceHours * 3_600_000 + 60_000,
        ).toISOString(),
      ],
    ];
    for (const [madeAt, sentAt, now] of refusals) {
      const task = await parisTask('2026-06-10', '2026-06-10T20:00:00Z');
      const refused = await deliver(task, madeAt, sentAt, now);
      expect(refused.statusCode, `${madeAt} ${sentAt}`).toBe(409);
      expect(refused.json().error.code).toBe('task/closed');
      expect(await revisionsOf(task.id)).toEqual([]);
      expect((await taskRow(task.id)).completed_timestamp).toBeNull();
    }
  });

  it('postpones only within the task’s own store day (400 task/postpone-outside-day)', async () => {
    const morning = await parisTask('2026-06-10', '2026-06-10T09:00:00Z');
    await withClock('2026-06-10T09:35:00Z', async () => {
      const tomorrow = await postpone(
        morning.id,
        { idempotency_key: newKey(), start: '2026-06-10T22:00:00Z' },
        parisDevice,
      );
      expect(tomorrow.statusCode).toBe(400);
      expect(tomorrow.json().error.code).toBe('task/postpone-outside-day');
      expect(await revisionsOf(morning.id)).toEqual([]);
      const tonight = await postpone(
        morning.id,
        { idempotency_key: newKey(), start: '2026-06-10T21:30:00Z' },
        parisDevice,
      );
      expect(tonight.statusCode).toBe(200);
      expect(tonight.json().task).toMatchObject({
        day: '2026-06-10',
        window: 'not_open_yet',
        opens_at: '2026-06-10T21:00:00.000Z',
        closes_at: '2026-06-10T22:00:00.000Z',
      });
    });
  });

  it('answers 400 with a code for a day that is invalid or out of range, on every day query', async () => {
    for (const day of ['0000-01-01', '1999-12-31', '2100-01-01', '2026-02-30', 'yesterday']) {
      const response = await parisDevice({ method: 'GET', url: `/api/device/tasks?day=${day}` });
      expect(response.statusCode, day).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
      const backOffice = await admin.inject({
        method: 'GET',
        url: `/api/stores/${paris.id}/tasks?day=${day}`,
      });
      expect(backOffice.statusCode, day).toBe(400);
      expect(backOffice.json().error.code).toBe('validation/invalid-input');
    }
    const run = await admin.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId: paris.id, day: '0000-01-01' },
    });
    expect(run.statusCode).toBe(400);
    expect(run.json().error.code).toBe('validation/invalid-input');
    for (const day of ['2000-01-01', '2099-12-31']) {
      const response = await parisDevice({ method: 'GET', url: `/api/device/tasks?day=${day}` });
      expect(response.statusCode, day).toBe(200);
    }
  });
});

describe('temperature control: who started it and who ended it (spec 002 §3, issue 13)', () => {
  const control = () =>
    storeTask({
      store_id: store.id,
      module: 'temperature_control',
      elements: [
        {
          id: '00000000-0000-4000-8000-00000000c001',
          name: 'Sauce tomate',
          minimum_temperature: null,
          maximum_temperature: null,
          maximum_polarity: null,
          reheating_temperature: 63,
          cooling_temperature: 10,
        },
      ],
    });
  const entry = (values: object = {}) => ({
    element: '00000000-0000-4000-8000-00000000c001',
    mode: 'cooling',
    target_temperature: 10,
    start_temperature: 63,
    start_timestamp: 1_781_000_000,
    end_temperature: null,
    end_timestamp: null,
    comment: '',
    ...values,
  });

  it('records the start with its employee, then the end with the employee who ended it; answers them in task detail', async () => {
    const task = await control();
    const colleague = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Paul',
      surname: 'Durand',
    });
    const paul = asDevice(
      context.app,
      deviceToken,
      await employeeToken(context.app, deviceToken, colleague.id),
    );
    const jeanne = { id: employee.id, name: 'Jeanne', surname: 'Martin' };
    const started = await submit(task.id, {
      idempotency_key: newKey(),
      result: { entries: [entry()] },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().task).toMatchObject({
      completed_timestamp: null,
      completed_employee: null,
      revision: 1,
      result: { entries: [{ ...entry(), start_employee: jeanne, end_employee: null }] },
    });
    expect(
      (await revisionsOf(task.id)).map((row) => [
        row.kind,
        row.employee_id,
        row.completed_timestamp,
      ]),
    ).toEqual([['result', employee.id, null]]);

    // The recorded start cannot be changed by the second step (only by a correction).
    const changed = await submit(
      task.id,
      {
        idempotency_key: newKey(),
        result: {
          entries: [
            entry({ start_temperature: 70, end_temperature: 8, end_timestamp: 1_781_003_600 }),
          ],
        },
      },
      paul,
    );
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('task/control-recorded');
    expect(await revisionsOf(task.id)).toHaveLength(1);

    const ended = await submit(
      task.id,
      {
        idempotency_key: newKey(),
        result: { entries: [entry({ end_temperature: 8, end_timestamp: 1_781_003_600 })] },
      },
      paul,
    );
    expect(ended.statusCode, ended.body).toBe(200);
    const paulRecord = { id: colleague.id, name: 'Paul', surname: 'Durand' };
    const recorded = {
      entries: [
        {
          ...entry({ end_temperature: 8, end_timestamp: 1_781_003_600 }),
          start_employee: jeanne,
          end_employee: paulRecord,
        },
      ],
    };
    expect(ended.json().task).toMatchObject({
      status: 'done',
      completed_employee: colleague.id,
      employee: { name: 'Paul', surname: 'Durand' },
      revision: 2,
      result: recorded,
    });
    expect((await taskRow(task.id)).result).toEqual(recorded);
    expect((await revisionsOf(task.id)).map((row) => row.employee_id)).toEqual([
      employee.id,
      colleague.id,
    ]);

    // A correction (with a reason) may change a value and keeps who started and who ended it.
    const corrected = await submit(task.id, {
      idempotency_key: newKey(),
      result: { entries: [entry({ end_temperature: 9, end_timestamp: 1_781_003_600 })] },
      reason: 'Misread probe',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().task.result.entries[0]).toMatchObject({
      end_temperature: 9,
      start_employee: jeanne,
      end_employee: paulRecord,
    });

    // The task detail (back-office) answers them.
    const detail = await admin.inject({ method: 'GET', url: `/api/tasks/${task.id}` });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().task.result.entries[0]).toMatchObject({
      start_employee: jeanne,
      end_employee: paulRecord,
    });
    // And so does the history of the temperature control tab.
    const history = await admin.inject({
      method: 'GET',
      url: `/api/stores/${store.id}/history?start=${task.day}&end=${task.day}&module=temperature_control`,
    });
    expect(history.statusCode, history.body).toBe(200);
    const listed = history.json().items.find((item: { id: string }) => item.id === task.id);
    expect(listed.result.entries[0]).toMatchObject({
      start_employee: jeanne,
      end_employee: paulRecord,
    });
    // The tablet cannot name the employees itself.
    const other = await control();
    const forged = await submit(other.id, {
      idempotency_key: newKey(),
      result: { entries: [entry({ start_employee: paulRecord })] },
    });
    expect(forged.statusCode).toBe(400);
    expect(await revisionsOf(other.id)).toEqual([]);
  });
});

describe('licence', () => {
  it('answers 403 device/store-unlicensed on every device route when the store is unlicensed or inactive', async () => {
    const unlicensed = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      timezone_name: 'Europe/Paris',
    });
    const working = await buildDevice(context.db, unlicensed.id);
    const worker = await buildEmployee(context.db, { storeIds: [unlicensed.id] });
    const workerSession = await employeeToken(context.app, working.token, worker.id);
    const task = await buildTask(context.db, { store_id: unlicensed.id });
    const routes = [
      { method: 'GET' as const, url: '/api/device/employees' },
      { method: 'GET' as const, url: '/api/device/tasks' },
      {
        method: 'POST' as const,
        url: `/api/device/employees/${worker.id}/authenticate`,
        payload: { pin: '1234' },
      },
      {
        method: 'POST' as const,
        url: `/api/device/tasks/${task.id}/result`,
        payload: { idempotency_key: newKey(), result: temperaturesResult(task) },
      },
      {
        method: 'POST' as const,
        url: `/api/device/tasks/${task.id}/postpone`,
        payload: {
          idempotency_key: newKey(),
          start: new Date(Date.now() + 3600_000).toISOString(),
        },
      },
      { method: 'POST' as const, url: '/api/device/pictures', ...pngUpload() },
    ];
    const call = asDevice(context.app, working.token, workerSession);
    for (const change of [{ mise_licence: false }, { mise_licence: true, active: false }]) {
      await context.db.update(stores).set(change).where(eq(stores.id, unlicensed.id));
      for (const route of routes) {
        const response = await call(route);
        expect(response.statusCode, `${JSON.stringify(change)} ${route.url}`).toBe(403);
        expect(response.json().error.code).toBe('device/store-unlicensed');
      }
    }
    expect(await revisionsOf(task.id)).toEqual([]);
  });
});

describe('POST /api/device/pictures', () => {
  it('stores an image under a key the server builds, refuses other files', async () => {
    const path = await uploadPicture();
    expect(existsSync(join(context.config.DATA_DIR, 'files', path))).toBe(true);
    const text = await device()({
      method: 'POST',
      url: '/api/device/pictures',
      ...pngUpload(),
      payload: Buffer.from(
        '------x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: text/plain\r\n\r\nhello\r\n------x--\r\n',
      ),
      headers: { 'content-type': 'multipart/form-data; boundary=----x' },
    });
    expect(text.statusCode).toBe(415);
  });
});

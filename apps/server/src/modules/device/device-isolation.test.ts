import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices, taskResultRevisions, tasks } from '../../db/schema';
import { buildEmployee, buildTask, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { asDevice, buildDevice, employeeToken, newKey, pngUpload } from './test-support';

/*
 * Cross-store isolation: a device and an employee token of store A can never list, complete,
 * postpone or upload for store B — another tenant's store, or a sibling store of the same
 * distributor. Browser sessions never reach the device routes.
 */

const context = useTestApp();

type Side = {
  storeId: string;
  deviceId: string;
  deviceToken: string;
  employeeId: string;
  session: string;
  taskId: string;
};

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let a: Side;
let sibling: Side;
let b: Side;
let browsers: Record<string, Agent>;

async function side(storeId: string): Promise<Side> {
  const { device, token } = await buildDevice(context.db, storeId);
  const employee = await buildEmployee(context.db, { storeIds: [storeId] });
  const task = await buildTask(context.db, { store_id: storeId });
  return {
    storeId,
    deviceId: device.id,
    deviceToken: token,
    employeeId: employee.id,
    session: await employeeToken(context.app, token, employee.id),
    taskId: task.id,
  };
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  a = await side(tenants.a.stores[0]!.id);
  sibling = await side(tenants.a.stores[1]!.id);
  b = await side(tenants.b.stores[0]!.id);
  browsers = {
    admin: await signIn(context.app, tenants.admin.email, testPassword),
    distributor: await signIn(context.app, tenants.a.users.distributor.email, testPassword),
    manager: await signIn(context.app, tenants.a.users.manager.email, testPassword),
    customer: await signIn(context.app, tenants.a.users.customer.email, testPassword),
  };
});

const resultFor = async (taskId: string) => {
  const [task] = await context.db.select().from(tasks).where(eq(tasks.id, taskId));
  return {
    entries: task!.elements.map((element) => ({
      element: element.id,
      temperature: 2 as number | null,
      first_temperature: null,
      control_temperature: null,
      comment: '',
      pictures: [] as { path: string; timestamp: number }[],
      timestamp: 1_700_000_000,
    })),
  };
};

/** Every device call, aimed at a target side's ids. */
const calls = async (target: Side): Promise<InjectOptions[]> => [
  { method: 'GET' as const, url: '/api/device/employees' },
  { method: 'GET' as const, url: '/api/device/tasks' },
  {
    method: 'POST' as const,
    url: `/api/device/employees/${target.employeeId}/authenticate`,
    payload: { pin: '1234' },
  },
  {
    method: 'POST' as const,
    url: `/api/device/tasks/${target.taskId}/result`,
    payload: { idempotency_key: newKey(), result: await resultFor(target.taskId) },
  },
  {
    method: 'POST' as const,
    url: `/api/device/tasks/${target.taskId}/postpone`,
    payload: { idempotency_key: newKey(), start: new Date(Date.now() + 3600_000).toISOString() },
  },
  { method: 'POST' as const, url: '/api/device/pictures', ...pngUpload() },
];

async function untouched(target: Side) {
  const [task] = await context.db.select().from(tasks).where(eq(tasks.id, target.taskId));
  expect(task).toMatchObject({ completed_timestamp: null, postponed_task: null, revision: 0 });
  expect(
    await context.db
      .select()
      .from(taskResultRevisions)
      .where(eq(taskResultRevisions.store_id, target.storeId)),
  ).toEqual([]);
}

describe('cross-store isolation of the device routes', () => {
  it("lists only the device's own store: employees and tasks of B never show", async () => {
    for (const other of [sibling, b]) {
      const call = asDevice(context.app, a.deviceToken, a.session);
      const employees = await call({ method: 'GET', url: '/api/device/employees' });
      expect(employees.json().items.map((item: { id: string }) => item.id)).toEqual([a.employeeId]);
      const [task] = await context.db.select().from(tasks).where(eq(tasks.id, other.taskId));
      const list = await call({ method: 'GET', url: `/api/device/tasks?day=${task!.day}` });
      const ids = list.json().items.map((item: { id: string }) => item.id);
      expect(ids).toContain(a.taskId);
      expect(ids).not.toContain(other.taskId);
    }
  });

  it("answers 404 when A's device and employee aim at B's employee or task, writing nothing", async () => {
    for (const other of [sibling, b]) {
      const call = asDevice(context.app, a.deviceToken, a.session);
      const authenticate = await call({
        method: 'POST',
        url: `/api/device/employees/${other.employeeId}/authenticate`,
        payload: { pin: '1234' },
      });
      expect(authenticate.statusCode).toBe(404);
      const result = await call({
        method: 'POST',
        url: `/api/device/tasks/${other.taskId}/result`,
        payload: { idempotency_key: newKey(), result: await resultFor(other.taskId) },
      });
      expect(result.statusCode).toBe(404);
      const postponed = await call({
        method: 'POST',
        url: `/api/device/tasks/${other.taskId}/postpone`,
        payload: {
          idempotency_key: newKey(),
          start: new Date(Date.now() + 3600_000).toISOString(),
        },
      });
      expect(postponed.statusCode).toBe(404);
      await untouched(other);
    }
  });

  it("answers 401 to an employee token used on another store's device (either way)", async () => {
    for (const [device, employee] of [
      [a, b],
      [b, a],
      [a, sibling],
    ] as const) {
      for (const options of await calls(device)) {
        if (options.method === 'GET' || String(options.url).endsWith('/authenticate')) continue;
        const response = await asDevice(context.app, device.deviceToken, employee.session)(options);
        expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
        expect(response.json().error.code).toBe('employee/unauthenticated');
      }
      await untouched(device);
    }
  });

  it("uploads under the device's own store only, readable by users who see that store", async () => {
    const upload = await asDevice(
      context.app,
      a.deviceToken,
      a.session,
    )({ method: 'POST', url: '/api/device/pictures', ...pngUpload() });
    expect(upload.statusCode).toBe(200);
    const { path, url } = upload.json();
    expect(path.startsWith(`stores/${a.storeId}/tasks/`)).toBe(true);
    expect(url).toBe(`/api/files/${path}`);
    expect((await browsers.customer!.inject({ method: 'GET', url })).statusCode).toBe(200);
    const outsider = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
    expect((await outsider.inject({ method: 'GET', url })).statusCode).toBe(404);
    // B cannot use A's picture in a result.
    const result = await resultFor(b.taskId);
    result.entries[0] = { ...result.entries[0]!, pictures: [{ path, timestamp: 1 }] } as never;
    const refused = await asDevice(
      context.app,
      b.deviceToken,
      b.session,
    )({
      method: 'POST',
      url: `/api/device/tasks/${b.taskId}/result`,
      payload: { idempotency_key: newKey(), result },
    });
    expect(refused.json().error.code, refused.body).toBe('task/invalid-result');
    expect(refused.statusCode).toBe(400);
    await untouched(b);
  });

  it('answers 401 to browser sessions, anonymous callers and unpaired devices on every device route', async () => {
    for (const [label, agent] of Object.entries(browsers)) {
      for (const options of await calls(a)) {
        const response = await agent.inject({
          ...options,
          headers: { ...options.headers, 'x-employee-token': a.session },
        });
        expect(response.statusCode, `${label} ${options.method} ${options.url}`).toBe(401);
      }
    }
    for (const options of await calls(a)) {
      const response = await asDevice(context.app, null, a.session)(options);
      expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
    }
    await untouched(a);
    // An unpaired (deleted) device loses its token and its employees' sessions.
    const gone = await side(tenants.a.stores[0]!.id);
    await context.db.delete(devices).where(eq(devices.id, gone.deviceId));
    for (const options of await calls(gone)) {
      const response = await asDevice(context.app, gone.deviceToken, gone.session)(options);
      expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
    }
  });
});

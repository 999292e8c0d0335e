import { beforeAll, describe, expect, it } from 'vitest';
import { punchEntries } from '../../db/schema';
import { buildEmployee, buildTwoTenants, testPassword } from '../../test/factories';
import { signIn, useTestApp } from '../../test/harness';
import { asDevice, buildDevice, employeeToken, newKey } from '../device/test-support';

/**
 * GET /api/device/punches/last (issue 14): the identified employee's latest entry in the
 * device's store, from which the tablet proposes "clock in" or "clock out".
 */

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let deviceA1: string;
let deviceA2: string;
let deviceB: string;
let employee: Awaited<ReturnType<typeof buildEmployee>>;
let sessionA1: string;
let sessionA2: string;
let sessionOfB: string;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  const [storeA1, storeA2] = tenants.a.stores;
  deviceA1 = (await buildDevice(context.db, storeA1!.id)).token;
  deviceA2 = (await buildDevice(context.db, storeA2!.id)).token;
  deviceB = (await buildDevice(context.db, tenants.b.stores[0]!.id)).token;
  // One employee working in both stores of tenant A.
  employee = await buildEmployee(context.db, { storeIds: [storeA1!.id, storeA2!.id] });
  const employeeOfB = await buildEmployee(context.db, { storeIds: [tenants.b.stores[0]!.id] });
  sessionA1 = await employeeToken(context.app, deviceA1, employee.id);
  sessionA2 = await employeeToken(context.app, deviceA2, employee.id);
  sessionOfB = await employeeToken(context.app, deviceB, employeeOfB.id);
});

const last = (deviceToken: string | null, session?: string | null) =>
  asDevice(context.app, deviceToken, session)({ method: 'GET', url: '/api/device/punches/last' });

const punch = (deviceToken: string, session: string, is_in: boolean) =>
  asDevice(
    context.app,
    deviceToken,
    session,
  )({ method: 'POST', url: '/api/device/punches', payload: { idempotency_key: newKey(), is_in } });

describe('GET /api/device/punches/last', () => {
  it('needs a device and an identified employee (401)', async () => {
    const noEmployee = await last(deviceA1);
    expect(noEmployee.statusCode).toBe(401);
    expect(noEmployee.json().error.code).toBe('employee/unauthenticated');
    expect((await last(null, sessionA1)).statusCode).toBe(401);
    const customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
    const browser = await customer.inject({ method: 'GET', url: '/api/device/punches/last' });
    expect(browser.statusCode).toBe(401);
  });

  it("refuses another store's employee token (401) and never answers its entries", async () => {
    expect((await punch(deviceB, sessionOfB, true)).statusCode).toBe(200);
    const crossed = await last(deviceA1, sessionOfB);
    expect(crossed.statusCode).toBe(401);
    const reversed = await last(deviceB, sessionA1);
    expect(reversed.statusCode).toBe(401);
  });

  it("answers null, then the employee's latest entry of this store only", async () => {
    const empty = await last(deviceA1, sessionA1);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ entry: null });

    // Clocked in on the other store: this store still has nothing.
    expect((await punch(deviceA2, sessionA2, true)).statusCode).toBe(200);
    expect((await last(deviceA1, sessionA1)).json()).toEqual({ entry: null });

    const clockedIn = (await punch(deviceA1, sessionA1, true)).json().entry;
    const afterIn = await last(deviceA1, sessionA1);
    expect(afterIn.json().entry).toMatchObject({ id: clockedIn.id, is_in: true });
    expect(afterIn.headers['cache-control']).toBe('no-store');

    const clockedOut = (await punch(deviceA1, sessionA1, false)).json().entry;
    expect((await last(deviceA1, sessionA1)).json().entry).toMatchObject({
      id: clockedOut.id,
      is_in: false,
      employee_id: employee.id,
      source: 'device',
    });
    // The other store keeps its own latest entry.
    expect((await last(deviceA2, sessionA2)).json().entry).toMatchObject({ is_in: true });
  });

  it('orders by the effective time and skips removed entries', async () => {
    const other = await buildEmployee(context.db, { storeIds: [tenants.a.stores[0]!.id] });
    const session = await employeeToken(context.app, deviceA1, other.id);
    const hour = 3_600_000;
    const now = Date.now();
    const base = {
      store_id: tenants.a.stores[0]!.id,
      employee_id: other.id,
      day: new Date(now).toISOString().slice(0, 10),
      source: 'back-office' as const,
    };
    await context.db.insert(punchEntries).values([
      // Clocked out at -3 h, corrected by a manager to -0.5 h: the latest by effective time.
      {
        ...base,
        is_in: false,
        timestamp: new Date(now - 3 * hour),
        timestamp_modified: new Date(now - hour / 2),
      },
      { ...base, is_in: true, timestamp: new Date(now - 2 * hour) },
      // Removed: never the latest.
      { ...base, is_in: true, timestamp: new Date(now - hour / 4), deleted_at: new Date(now) },
    ]);
    const answer = await last(deviceA1, session);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().entry).toMatchObject({
      is_in: false,
      timestamp_modified: new Date(now - hour / 2).toISOString(),
    });
  });
});

import { employeeAuthLockoutMinutes, employeeAuthMaxFailures } from '@mise/shared/tasks/constants';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices, employeeAuthFailures, employeeSessions, employees } from '../../db/schema';
import { verifyPassword } from '../../platform/auth/passwords';
import { hashToken } from '../../platform/auth/tokens';
import { buildEmployee, buildStore, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { newPairingKey } from '../stores/pairing-key';
import { hashEmployeeSecret } from './employees.service';
import { asDevice, buildDevice, employeeToken } from './test-support';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
});

const storeA = () => tenants.a.stores[0]!;
const storeB = () => tenants.b.stores[0]!;

let address = 0;
const register = (pairingKey: string, deviceId: string) =>
  context.app.inject({
    method: 'POST',
    url: '/api/devices/register',
    remoteAddress: `10.20.0.${++address}`,
    payload: { pairing_key: pairingKey, device_id: deviceId, app_version: '1.0.0' },
  });

const authenticate = (deviceToken: string | null, employeeId: string, payload: object) =>
  asDevice(
    context.app,
    deviceToken,
  )({
    method: 'POST',
    url: `/api/device/employees/${employeeId}/authenticate`,
    payload,
  });

describe('pairing and the device session', () => {
  it('pairs up to maximum_devices, then answers 409 device/limit-reached', async () => {
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      pairing_key: newPairingKey(),
      maximum_devices: 2,
      mise_licence: true,
    });
    expect((await register(store.pairing_key!, 'one')).statusCode).toBe(200);
    const second = await register(store.pairing_key!, 'two');
    expect(second.statusCode).toBe(200);
    const third = await register(store.pairing_key!, 'three');
    expect(third.statusCode).toBe(409);
    expect(third.json().error.code).toBe('device/limit-reached');

    // The paired token opens the device routes of that store only.
    const token = second.json().token as string;
    const employee = await buildEmployee(context.db, { storeIds: [store.id] });
    const list = await asDevice(
      context.app,
      token,
    )({ method: 'GET', url: '/api/device/employees' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([employee.id]);
  });

  it('answers 401 without a device token, with a wrong one, and to a browser session', async () => {
    const urls = [
      { method: 'GET' as const, url: '/api/device/employees' },
      { method: 'GET' as const, url: '/api/device/tasks' },
    ];
    for (const options of urls) {
      expect((await context.app.inject(options)).statusCode).toBe(401);
      expect((await asDevice(context.app, 'not-a-token')(options)).statusCode).toBe(401);
      expect((await admin.inject(options)).statusCode).toBe(401);
    }
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const byBrowser = await admin.inject({
      method: 'POST',
      url: `/api/device/employees/${employee.id}/authenticate`,
      payload: { pin: '1234' },
    });
    expect(byBrowser.statusCode).toBe(401);
    // A user's session sent as a Bearer token is a user, not a device.
    const bearerUser = await asDevice(
      context.app,
      admin.cookie.slice(admin.cookie.indexOf('=') + 1),
    )({ method: 'GET', url: '/api/device/employees' });
    expect(bearerUser.statusCode).toBe(401);
  });

  it('lets the tablet read its settings and report its app version (PATCH /api/devices/me)', async () => {
    const { device, token } = await buildDevice(context.db, storeA().id);
    await admin.inject({
      method: 'PATCH',
      url: `/api/devices/${device.id}`,
      payload: { version: 0, dark_mode: true },
    });
    const me = await asDevice(context.app, token)({ method: 'GET', url: '/api/devices/me' });
    expect(me.json().device).toMatchObject({ dark_mode: true, app_version: '2.1.0' });
    const report = await asDevice(
      context.app,
      token,
    )({
      method: 'PATCH',
      url: '/api/devices/me',
      payload: { app_version: '2.2.0', os_version: 'Android 15' },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json().device).toMatchObject({
      app_version: '2.2.0',
      os_version: 'Android 15',
      dark_mode: true,
      version: 1,
    });
    const [row] = await context.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.last_connexion).not.toBeNull();
    const preferences = await asDevice(
      context.app,
      token,
    )({
      method: 'PATCH',
      url: '/api/devices/me',
      payload: { show_unscheduled_tasks: true, calendar_types_order: ['Hygiène', 'Froid'] },
    });
    expect(preferences.statusCode).toBe(200);
    expect(preferences.json().device).toMatchObject({
      show_unscheduled_tasks: true,
      calendar_types_order: ['Hygiène', 'Froid'],
      dark_mode: true,
    });
    const refused = await asDevice(
      context.app,
      token,
    )({ method: 'PATCH', url: '/api/devices/me', payload: { dark_mode: false } });
    expect(refused.statusCode).toBe(400);
    const anonymous = await context.app.inject({
      method: 'PATCH',
      url: '/api/devices/me',
      payload: { app_version: '9' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/device/employees', () => {
  it("lists the active employees of the device's store, without any secret", async () => {
    const store = await buildStore(context.db, { distributor_id: tenants.a.distributor.id });
    const { token } = await buildDevice(context.db, store.id);
    const withPin = await buildEmployee(context.db, { storeIds: [store.id], name: 'Alice' });
    const withPattern = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Bruno',
      pattern: [0, 4, 8],
    });
    const withoutSecret = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Chloé',
      pin: null,
    });
    await buildEmployee(context.db, { storeIds: [store.id], name: 'Inactive', active: false });
    await buildEmployee(context.db, { storeIds: [storeB().id], name: 'Other store' });
    const response = await asDevice(
      context.app,
      token,
    )({ method: 'GET', url: '/api/device/employees' });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toEqual([
      {
        id: withPin.id,
        name: 'Alice',
        surname: 'Test',
        role_id: null,
        illustration_url: null,
        using_password: true,
        has_secret: true,
      },
      expect.objectContaining({ id: withPattern.id, using_password: false, has_secret: true }),
      expect.objectContaining({ id: withoutSecret.id, using_password: true, has_secret: false }),
    ]);
    expect(response.body).not.toContain('hash');
    expect(response.body).not.toContain('$argon2');
  });
});

describe('POST /api/device/employees/:id/authenticate', () => {
  it('hashes secrets with argon2 (hashEmployeeSecret), a pattern as its points joined by "-"', async () => {
    const pin = await hashEmployeeSecret('0427');
    expect(pin).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(pin, '0427')).toBe(true);
    const pattern = await hashEmployeeSecret([2, 4, 6, 8]);
    expect(await verifyPassword(pattern, '2-4-6-8')).toBe(true);
  });

  it('opens a 12-hour employee session bound to the device and store, token stored hashed', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { device, token } = await buildDevice(context.db, storeA().id);
    const response = await authenticate(token, employee.id, { pin: '1234' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toMatchObject({ status: 'ok', employee: { id: employee.id, has_secret: true } });
    expect(body.employee_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = new Date(body.expires_at).getTime();
    expect(Math.abs(expires - Date.now() - 12 * 3600_000)).toBeLessThan(60_000);
    const [session] = await context.db
      .select()
      .from(employeeSessions)
      .where(eq(employeeSessions.token_hash, hashToken(body.employee_token)));
    expect(session).toMatchObject({
      employee_id: employee.id,
      device_id: device.id,
      store_id: storeA().id,
    });
    expect(response.body).not.toContain('hash');
  });

  it('answers 400 invalid-password for a PIN that is not 4 digits, 401 invalid-password for a wrong one', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { device, token } = await buildDevice(context.db, storeA().id);
    for (const pin of ['123', '12345', 'abcd', '12 4', '']) {
      const response = await authenticate(token, employee.id, { pin });
      expect(response.statusCode, pin).toBe(400);
      expect(response.json().error).toEqual({
        code: 'invalid-password',
        message: 'Invalid password. Please enter a 4-digit PIN.',
      });
    }
    // Format errors are not attempts.
    expect(
      await context.db
        .select()
        .from(employeeAuthFailures)
        .where(eq(employeeAuthFailures.device_id, device.id)),
    ).toEqual([]);
    const wrong = await authenticate(token, employee.id, { pin: '9999' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('invalid-password');
    const [failures] = await context.db
      .select()
      .from(employeeAuthFailures)
      .where(eq(employeeAuthFailures.device_id, device.id));
    expect(failures).toMatchObject({ employee_id: employee.id, failures: 1, locked_until: null });
    const invalid = await authenticate(token, employee.id, { pin: '1234', pattern: [1, 2, 3] });
    expect(invalid.statusCode).toBe(400);
  });

  it('checks patterns: pattern-too-short 400, invalid-pattern, a wrong pattern 401', async () => {
    const employee = await buildEmployee(context.db, {
      storeIds: [storeA().id],
      pattern: [0, 1, 2, 5],
    });
    const { token } = await buildDevice(context.db, storeA().id);
    const short = await authenticate(token, employee.id, { pattern: [0, 1] });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toEqual({
      code: 'pattern-too-short',
      message: 'Pattern too short. Please select at least 3 points.',
    });
    for (const pattern of [
      [0, 1, 9],
      [0, 1, 1],
      [-1, 2, 3],
    ]) {
      const response = await authenticate(token, employee.id, { pattern });
      expect(response.statusCode, String(pattern)).toBe(400);
      expect(response.json().error.code).toBe('invalid-pattern');
    }
    const wrong = await authenticate(token, employee.id, { pattern: [0, 1, 2] });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('invalid-pattern');
    // A PIN for an employee who uses a pattern is a failed attempt.
    const pin = await authenticate(token, employee.id, { pin: '1234' });
    expect(pin.statusCode).toBe(401);
    const right = await authenticate(token, employee.id, { pattern: [0, 1, 2, 5] });
    expect(right.statusCode).toBe(200);
  });

  it('answers 404 for an employee of another store, an inactive or unknown one', async () => {
    const { token } = await buildDevice(context.db, storeA().id);
    const otherStore = await buildEmployee(context.db, { storeIds: [storeB().id] });
    const sameTenantOtherStore = await buildEmployee(context.db, {
      storeIds: [tenants.a.stores[1]!.id],
    });
    const inactive = await buildEmployee(context.db, { storeIds: [storeA().id], active: false });
    for (const id of [
      otherStore.id,
      sameTenantOtherStore.id,
      inactive.id,
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await authenticate(token, id, { pin: '1234' });
      expect(response.statusCode).toBe(404);
    }
  });

  it(`locks an employee out on every tablet of the store after ${employeeAuthMaxFailures} failures, even with the right PIN`, async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { device, token } = await buildDevice(context.db, storeA().id);
    const { token: otherDevice } = await buildDevice(context.db, storeA().id);
    for (let attempt = 0; attempt < employeeAuthMaxFailures - 1; attempt++) {
      const response = await authenticate(token, employee.id, { pin: '0000' });
      expect(response.statusCode).toBe(401);
    }
    // The failure that reaches the maximum answers the lockout at once (issue 14).
    const fifth = await authenticate(token, employee.id, { pin: '0000' });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error.code).toBe('employee/locked-out');
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(
      employeeAuthLockoutMinutes * 60 - 60,
    );
    const locked = await authenticate(token, employee.id, { pin: '1234' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('employee/locked-out');
    // Retry-After: the seconds left of the lock.
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(employeeAuthLockoutMinutes * 60 - 60);
    expect(retryAfter).toBeLessThanOrEqual(employeeAuthLockoutMinutes * 60);
    // Another tablet of the store is locked too (issue 13: no fresh guesses per tablet),
    // with the same Retry-After; another employee on this device is not.
    const elsewhere = await authenticate(otherDevice, employee.id, { pin: '1234' });
    expect(elsewhere.statusCode).toBe(429);
    expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(
      employeeAuthLockoutMinutes * 60 - 60,
    );
    const colleague = await buildEmployee(context.db, { storeIds: [storeA().id] });
    expect((await authenticate(token, colleague.id, { pin: '1234' })).statusCode).toBe(200);

    const [row] = await context.db
      .select()
      .from(employeeAuthFailures)
      .where(
        and(
          eq(employeeAuthFailures.employee_id, employee.id),
          eq(employeeAuthFailures.device_id, device.id),
        ),
      );
    expect(row!.failures).toBe(employeeAuthMaxFailures);
    const lockLength = row!.locked_until!.getTime() - Date.now();
    expect(lockLength).toBeGreaterThan((employeeAuthLockoutMinutes - 1) * 60_000);
    expect(lockLength).toBeLessThanOrEqual(employeeAuthLockoutMinutes * 60_000);

    // Once the lockout has passed, the right PIN opens a session and clears the counter.
    await context.db
      .update(employeeAuthFailures)
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where(eq(employeeAuthFailures.device_id, device.id));
    expect((await authenticate(token, employee.id, { pin: '1234' })).statusCode).toBe(200);
    expect(
      await context.db
        .select()
        .from(employeeAuthFailures)
        .where(eq(employeeAuthFailures.device_id, device.id)),
    ).toEqual([]);
  });

  it('counts the failures of an employee across the tablets of the store (issue 13)', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const tablets = await Promise.all(
      Array.from({ length: employeeAuthMaxFailures }, () => buildDevice(context.db, storeA().id)),
    );
    // One wrong guess on each of the tablets reaches the maximum: the next try is refused
    // everywhere, the right PIN included.
    for (const [index, tablet] of tablets.entries()) {
      const wrong = await authenticate(tablet.token, employee.id, { pin: '0000' });
      expect(wrong.statusCode).toBe(index === tablets.length - 1 ? 429 : 401);
    }
    for (const tablet of tablets) {
      const response = await authenticate(tablet.token, employee.id, { pin: '1234' });
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Once the lock has passed, a success on one tablet clears the count on all of them.
    await context.db
      .update(employeeAuthFailures)
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where(eq(employeeAuthFailures.employee_id, employee.id));
    expect((await authenticate(tablets[0]!.token, employee.id, { pin: '1234' })).statusCode).toBe(
      200,
    );
    expect(
      await context.db
        .select()
        .from(employeeAuthFailures)
        .where(eq(employeeAuthFailures.employee_id, employee.id)),
    ).toEqual([]);
  });

  it('resets the counter on success: failures do not add up across successes', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { token } = await buildDevice(context.db, storeA().id);
    for (let round = 0; round < 2; round++) {
      for (let attempt = 0; attempt < employeeAuthMaxFailures - 1; attempt++) {
        expect((await authenticate(token, employee.id, { pin: '0000' })).statusCode).toBe(401);
      }
      expect((await authenticate(token, employee.id, { pin: '1234' })).statusCode).toBe(200);
    }
  });

  it('cannot be brute-forced in parallel: simultaneous guesses stop at the maximum', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { token } = await buildDevice(context.db, storeA().id);
    const responses = await Promise.all(
      Array.from({ length: employeeAuthMaxFailures + 5 }, (_, index) =>
        authenticate(token, employee.id, { pin: String(5000 + index) }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(employeeAuthMaxFailures - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });

  it('refuses the employee token once the employee is disabled, expired, or on another device', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA().id] });
    const { token } = await buildDevice(context.db, storeA().id);
    const { token: otherDevice } = await buildDevice(context.db, storeA().id);
    const session = await employeeToken(context.app, token, employee.id);
    const picture = (deviceToken: string, employee: string | null) =>
      asDevice(
        context.app,
        deviceToken,
        employee,
      )({ method: 'POST', url: '/api/device/pictures', payload: {} });
    // Accepted token: the upload itself is then refused for lack of a file (400).
    expect((await picture(token, session)).statusCode).toBe(400);
    for (const [deviceToken, employeeHeader] of [
      [token, null],
      [token, 'forged'],
      [otherDevice, session],
    ] as const) {
      const response = await picture(deviceToken, employeeHeader);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('employee/unauthenticated');
    }
    await context.db
      .update(employeeSessions)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(employeeSessions.token_hash, hashToken(session)));
    expect((await picture(token, session)).statusCode).toBe(401);
    const fresh = await employeeToken(context.app, token, employee.id);
    await context.db.update(employees).set({ active: false }).where(eq(employees.id, employee.id));
    expect((await picture(token, fresh)).statusCode).toBe(401);
  });
});

import { dayInZone } from '@mise/shared/tasks/rules';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { punchEntries, punchEntryRevisions } from '../../db/schema';
import { buildEmployee, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import {
  asDevice,
  buildDevice,
  employeeToken,
  multipart,
  newKey,
  png,
  pngUpload,
} from '../device/test-support';

/**
 * Clocking in and out from a tablet (spec 000 §2, §3): selfies, the idempotent punch, the
 * store taken from the device session, and what the back office then reads.
 */

const context = useTestApp();
const zone = 'Europe/Paris';

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let storeA: string;
let storeB: string;
let deviceA: { id: string; token: string };
let deviceB: { id: string; token: string };
let employee: Awaited<ReturnType<typeof buildEmployee>>;
let employeeOfB: Awaited<ReturnType<typeof buildEmployee>>;
let session: string;
let sessionOfB: string;
let customer: Agent;
let customerB: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  storeA = tenants.a.stores[0]!.id;
  storeB = tenants.b.stores[0]!.id;
  const pairedA = await buildDevice(context.db, storeA);
  const pairedB = await buildDevice(context.db, storeB);
  deviceA = { id: pairedA.device.id, token: pairedA.token };
  deviceB = { id: pairedB.device.id, token: pairedB.token };
  employee = await buildEmployee(context.db, {
    storeIds: [storeA],
    name: 'Jeanne',
    surname: 'Martin',
  });
  employeeOfB = await buildEmployee(context.db, { storeIds: [storeB], name: 'Bruno' });
  session = await employeeToken(context.app, deviceA.token, employee.id);
  sessionOfB = await employeeToken(context.app, deviceB.token, employeeOfB.id);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  customerB = await signIn(context.app, tenants.b.users.customer.email, testPassword);
});

const device = (token = session, deviceToken = deviceA.token) =>
  asDevice(context.app, deviceToken, token);
const punch = (payload: object, call = device()) =>
  call({ method: 'POST', url: '/api/device/punches', payload });

async function entriesWithKey(key: string) {
  return context.db.select().from(punchEntries).where(eq(punchEntries.idempotency_key, key));
}

async function revisionCount(entryId: string) {
  const [row] = await context.db
    .select({ value: count() })
    .from(punchEntryRevisions)
    .where(eq(punchEntryRevisions.entry_id, entryId));
  return row!.value;
}

async function uploadSelfie(call = device()): Promise<{ path: string; url: string }> {
  const response = await call({ method: 'POST', url: '/api/device/selfies', ...pngUpload() });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('selfies', () => {
  it('stores a selfie under the store, served to back-office users who see the store', async () => {
    const selfie = await uploadSelfie();
    const month = dayInZone(new Date(), zone).slice(0, 7);
    expect(selfie.path).toMatch(
      new RegExp(`^stores/${storeA}/selfies/${month}/[a-f0-9]{32}\\.png$`),
    );
    expect(selfie.url).toBe(`/api/files/${selfie.path}`);
    const served = await customer.inject({ method: 'GET', url: selfie.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await customerB.inject({ method: 'GET', url: selfie.url })).statusCode).toBe(404);
  });

  it('needs an identified employee and an image', async () => {
    const anonymous = await asDevice(
      context.app,
      deviceA.token,
    )({
      method: 'POST',
      url: '/api/device/selfies',
      ...pngUpload(),
    });
    expect(anonymous.statusCode).toBe(401);
    const text = await device()({
      method: 'POST',
      url: '/api/device/selfies',
      ...multipart({ filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('hello') }),
    });
    expect(text.statusCode).toBe(415);
    const browser = await customer.inject({
      method: 'POST',
      url: '/api/device/selfies',
      ...pngUpload(),
    });
    expect(browser.statusCode).toBe(401);
  });
});

describe('clocking', () => {
  it('clocks the employee in at the server time on the store today, with a revision', async () => {
    const selfie = await uploadSelfie();
    const key = newKey();
    const before = Date.now();
    const response = await punch({ idempotency_key: key, is_in: true, selfie_path: selfie.path });
    expect(response.statusCode).toBe(200);
    const { entry } = response.json();
    expect(entry).toMatchObject({
      employee_id: employee.id,
      is_in: true,
      timestamp_modified: null,
      day: dayInZone(new Date(), zone),
      source: 'device',
      selfie_url: selfie.url,
      version: 0,
    });
    expect(Date.parse(entry.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(entry.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
    const [row] = await entriesWithKey(key);
    expect(row).toMatchObject({ store_id: storeA, device_id: deviceA.id, incoherent: false });
    const revisions = await context.db
      .select()
      .from(punchEntryRevisions)
      .where(eq(punchEntryRevisions.entry_id, entry.id));
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({
      action: 'create',
      store_id: storeA,
      employee_id: employee.id,
      device_id: deviceA.id,
      user_id: null,
      before: null,
      after: { is_in: true, timestamp: entry.timestamp, timestamp_modified: null },
    });

    // The back office sees it in the range and on the home schedule.
    const cards = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA}/punchCards?start=${entry.day}&end=${entry.day}`,
    });
    expect(cards.json().entries.map((item: { id: string }) => item.id)).toContain(entry.id);
    const schedule = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeA}/schedule`,
    });
    const jeanne = schedule.json().items.find((item: { id: string }) => item.id === employee.id);
    expect(jeanne.entries.map((item: { id: string }) => item.id)).toContain(entry.id);
  });

  it('applies a retried submission once, sequentially and concurrently', async () => {
    const key = newKey();
    const first = await punch({ idempotency_key: key, is_in: false });
    const second = await punch({ idempotency_key: key, is_in: false });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().entry.id).toBe(first.json().entry.id);
    expect(await entriesWithKey(key)).toHaveLength(1);
    expect(await revisionCount(first.json().entry.id)).toBe(1);

    const raceKey = newKey();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => punch({ idempotency_key: raceKey, is_in: true })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([
      200, 200, 200, 200, 200, 200,
    ]);
    const ids = new Set(responses.map((response) => response.json().entry.id));
    expect(ids.size).toBe(1);
    expect(await entriesWithKey(raceKey)).toHaveLength(1);
    expect(await revisionCount([...ids][0]!)).toBe(1);
  });

  it('answers 409 for the same key with another body and writes nothing', async () => {
    const key = newKey();
    expect((await punch({ idempotency_key: key, is_in: false })).statusCode).toBe(200);
    const other = await punch({ idempotency_key: key, is_in: true });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency/conflict');
    const rows = await entriesWithKey(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.is_in).toBe(false);
  });

  it('flags an entry that breaks the in/out alternation', async () => {
    const newcomer = await buildEmployee(context.db, { storeIds: [storeA], name: 'Nouvel' });
    const call = device(await employeeToken(context.app, deviceA.token, newcomer.id));
    const flags: boolean[] = [];
    // An exit first, then an entrance, then a second entrance.
    for (const is_in of [false, true, true]) {
      const key = newKey();
      expect((await punch({ idempotency_key: key, is_in }, call)).statusCode).toBe(200);
      flags.push((await entriesWithKey(key))[0]!.incoherent);
    }
    expect(flags).toEqual([true, false, true]);
  });

  it("refuses a selfie path that is not one of this store's selfies", async () => {
    const selfieOfB = await uploadSelfie(device(sessionOfB, deviceB.token));
    const month = dayInZone(new Date(), zone).slice(0, 7);
    for (const selfie_path of [
      selfieOfB.path,
      `stores/${storeA}/tasks/${month}/${'c'.repeat(32)}.png`,
      `stores/${storeA}/selfies/${month}/../../x.png`,
      `stores/${storeA}/selfies/${month}/short.png`,
    ]) {
      const key = newKey();
      const response = await punch({ idempotency_key: key, is_in: true, selfie_path });
      expect(response.statusCode, selfie_path).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
      expect(await entriesWithKey(key)).toHaveLength(0);
    }
  });
});

describe('isolation', () => {
  it('needs the device and an employee token; a browser session is not a device', async () => {
    const noEmployee = await asDevice(
      context.app,
      deviceA.token,
    )({
      method: 'POST',
      url: '/api/device/punches',
      payload: { idempotency_key: newKey(), is_in: true },
    });
    expect(noEmployee.statusCode).toBe(401);
    expect(noEmployee.json().error.code).toBe('employee/unauthenticated');
    const browser = await customer.inject({
      method: 'POST',
      url: '/api/device/punches',
      payload: { idempotency_key: newKey(), is_in: true },
    });
    expect(browser.statusCode).toBe(401);
  });

  it("never clocks an employee of store B on store A's device", async () => {
    // The employee cannot identify on A's device…
    const identify = await asDevice(
      context.app,
      deviceA.token,
    )({
      method: 'POST',
      url: `/api/device/employees/${employeeOfB.id}/authenticate`,
      payload: { pin: '1234' },
    });
    expect(identify.statusCode).toBe(404);
    // …and B's employee token does not sign actions on A's device.
    const key = newKey();
    const crossed = await punch({ idempotency_key: key, is_in: true }, device(sessionOfB));
    expect(crossed.statusCode).toBe(401);
    // A's employee token on B's device neither.
    const reversed = await punch(
      { idempotency_key: key, is_in: true },
      device(session, deviceB.token),
    );
    expect(reversed.statusCode).toBe(401);
    expect(await entriesWithKey(key)).toHaveLength(0);
    const [clocked] = await context.db
      .select({ value: count() })
      .from(punchEntries)
      .where(and(eq(punchEntries.employee_id, employeeOfB.id), eq(punchEntries.store_id, storeA)));
    expect(clocked!.value).toBe(0);
  });

  it("keeps idempotency keys per store: the same key on B's device is B's own entry", async () => {
    const key = newKey();
    const onA = await punch({ idempotency_key: key, is_in: true });
    const onB = await punch(
      { idempotency_key: key, is_in: true },
      device(sessionOfB, deviceB.token),
    );
    expect(onA.statusCode).toBe(200);
    expect(onB.statusCode).toBe(200);
    expect(onB.json().entry.id).not.toBe(onA.json().entry.id);
    const rows = await entriesWithKey(key);
    expect(rows.map((row) => row.store_id).sort()).toEqual([storeA, storeB].sort());
  });
});

describe('a punch made offline', () => {
  it('keeps the time it was made on the server clock (the tablet clock offset removed), within the grace', async () => {
    const late = await buildEmployee(context.db, { storeIds: [storeA], name: 'Nadia' });
    const call = device(await employeeToken(context.app, deviceA.token, late.id));
    // The tablet's clock runs 3 minutes slow.
    const slow = 3 * 60_000;
    const send = (madeMinutesAgo: number, withSentAt = true) => {
      const tabletNow = Date.now() - slow;
      return call({
        method: 'POST',
        url: '/api/device/punches',
        headers: withSentAt ? { 'x-sent-at': new Date(tabletNow).toISOString() } : {},
        payload: {
          idempotency_key: newKey(),
          is_in: true,
          clocked_timestamp: new Date(tabletNow - madeMinutesAgo * 60_000).toISOString(),
        },
      });
    };
    const ago = (iso: string) => (Date.now() - Date.parse(iso)) / 60_000;

    // Clocked in 90 minutes ago during a network cut: the entry says 90 minutes ago.
    const offline = await send(90);
    expect(offline.statusCode, offline.body).toBe(200);
    expect(ago(offline.json().entry.timestamp)).toBeGreaterThan(89.9);
    expect(ago(offline.json().entry.timestamp)).toBeLessThan(90.2);
    // Without the sending time, or beyond the 24-hour grace: the server's time of arrival.
    expect(ago((await send(90, false)).json().entry.timestamp)).toBeLessThan(0.2);
    expect(ago((await send(25 * 60)).json().entry.timestamp)).toBeLessThan(0.2);
  });
});

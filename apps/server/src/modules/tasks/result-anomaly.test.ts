import { dayInZone } from '@mise/shared/tasks/rules';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../../db/schema';
import {
  buildDistributor,
  buildEmployee,
  buildStore,
  buildTask,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { noonZone } from '../../test/zones';
import { asDevice, buildDevice, employeeToken, newKey } from '../device/test-support';

/**
 * The anomaly rule at the call sites that store and read it (issue 13 point 23): a temperature
 * reading written by a tablet whose temperature is in range but whose control temperature is
 * not is stored with `result_anomaly` true, is listed by the history's anomaly filter and counts
 * as "on time with an anomaly" in the restaurant score. A twin reading whose control
 * temperature is in range is none of these, so only the control temperature tells them apart.
 */

const context = useTestApp();

const zone = noonZone();
const fridge = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'Frigo contrôle',
  minimum_temperature: 0,
  maximum_temperature: 4,
  maximum_polarity: null,
  reheating_temperature: null,
  cooling_temperature: null,
};

let customer: Agent;
let storeId: string;
let deviceToken: string;
let session: string;
const taskIds: Record<'inRange' | 'controlOut', string> = { inRange: '', controlOut: '' };

/** A temperatures task of today started 10 minutes ago (open for an hour), on the fridge. */
async function openTask(name: string) {
  const start = new Date(Date.now() - 10 * 60_000);
  const task = await buildTask(context.db, {
    store_id: storeId,
    day: dayInZone(start, zone),
    start,
    duration: 60,
    name,
    elements: [fridge],
  });
  return task.id;
}

/** Completes the task from the tablet: temperature 3 °C (in range) and the given control. */
async function complete(taskId: string, controlTemperature: number) {
  const response = await asDevice(
    context.app,
    deviceToken,
    session,
  )({
    method: 'POST',
    url: `/api/device/tasks/${taskId}/result`,
    payload: {
      idempotency_key: newKey(),
      result: {
        entries: [
          {
            element: fridge.id,
            temperature: 3,
            first_temperature: null,
            control_temperature: controlTemperature,
            comment: '',
            pictures: [],
            timestamp: Math.floor(Date.now() / 1000),
          },
        ],
      },
    },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().task.status).toBe('done');
}

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const store = await buildStore(db, { distributor_id: distributor.id, timezone_name: zone });
  storeId = store.id;
  const paired = await buildDevice(db, storeId);
  deviceToken = paired.token;
  const employee = await buildEmployee(db, { storeIds: [storeId] });
  session = await employeeToken(context.app, deviceToken, employee.id);
  taskIds.inRange = await openTask('Contrôle dans les normes');
  taskIds.controlOut = await openTask('Contrôle hors normes');
  await complete(taskIds.inRange, 2);
  // 3 °C is in the fridge's 0–4 °C range; only the control temperature (9 °C) is out of it.
  await complete(taskIds.controlOut, 9);
  const owner = await buildUser(db, { role: 'customer', ownedStoreIds: [storeId] });
  customer = await signIn(context.app, owner.email, testPassword);
});

describe('a control temperature out of range, written by a tablet', () => {
  it('is stored as result_anomaly = true (and an in-range control as false)', async () => {
    const stored = async (id: string) =>
      (
        await context.db
          .select({ result_anomaly: tasks.result_anomaly })
          .from(tasks)
          .where(eq(tasks.id, id))
      )[0]!.result_anomaly;
    expect(await stored(taskIds.controlOut)).toBe(true);
    expect(await stored(taskIds.inRange)).toBe(false);
  });

  it('is listed by the history anomaly filter with its reason; the in-range twin is not', async () => {
    const today = dayInZone(new Date(), zone);
    const query = new URLSearchParams({
      start: today,
      end: today,
      module: 'temperatures',
      filter: 'anomaly',
    });
    const response = await customer.inject({
      method: 'GET',
      url: `/api/stores/${storeId}/history?${query}`,
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().items as { id: string; anomalies: string[] }[];
    expect(items.map((item) => [item.id, item.anomalies])).toEqual([
      [taskIds.controlOut, ['temperature-out-of-range']],
    ]);
  });

  it('lowers the restaurant score: one on time, one on time with an anomaly → 75', async () => {
    const response = await customer.inject({ method: 'GET', url: `/api/stores/${storeId}/home` });
    expect(response.statusCode).toBe(200);
    const { score } = response.json();
    expect(score.counts).toEqual({
      onTime: 1,
      onTimeWithAnomaly: 1,
      late: 0,
      lateWithAnomaly: 0,
      missed: 0,
    });
    // (1 + 0.5) / 2 = 0.75
    expect(score.value).toBe(75);
  });
});

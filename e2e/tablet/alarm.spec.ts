import { randomBytes } from 'node:crypto';
import {
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  pairTablet,
  test,
} from '../support/tablet';

/*
 * The store's tablet rings (issue 15): a probe of the Paris store reads 9 °C for half an hour
 * (its range 0 … 4 °C); the alert job opens an episode; the paired tablet shows the alarm on
 * every screen; the identified employee acknowledges it with a corrective action, which the
 * back-office then reads with the employee's name.
 */

test('an alarm on the store tablet, acknowledged by the employee with a corrective action', async ({
  page,
  admin,
}) => {
  test.setTimeout(200_000);
  const store = await demoStore(admin.api);
  const probeUID = `e2e-alarm-${randomBytes(3).toString('hex')}`;
  const created = await admin.api.post<{ secret: string }>('/probes', {
    probeUID,
    name: 'Vitrine dessert',
    storeId: store.id,
  });
  await admin.api.post(`/probes/edit/${probeUID}`, {
    minimumTemperature: 0,
    maximumTemperature: 4,
  });
  const now = Date.now();
  const readings = Array.from({ length: 7 }, (_, index) => ({
    timestamp: new Date(now - (30 - index * 5) * 60_000).toISOString(),
    temperature: 9,
    batteryLevel: 80,
  }));
  const posted = await admin.api.request.post(`/api/probes/readings/${probeUID}`, {
    data: { readings },
    headers: { authorization: `Bearer ${created.secret}` },
  });
  expect(posted.ok(), await posted.text()).toBe(true);

  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} alarm`);
  await identify(page, demoTablet.employee, demoTablet.pin);

  // The next alert pass (each minute) opens the episode; the tablet's poll (30 s) shows it.
  const banner = page.getByTestId('alert-banner');
  const item = banner.getByRole('listitem').filter({ hasText: 'Vitrine dessert' });
  await expect(item).toBeVisible({ timeout: 150_000 });
  await expect(item).toContainText('9');
  await item.getByRole('button', { name: 'Acknowledge' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Corrective action (required)').fill('Desserts moved to the cold room.');
  await dialog.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(item).toHaveCount(0);

  // The back-office reads the acknowledgement, attributed to the employee.
  await expect
    .poll(
      async () => {
        const { items } = await admin.api.get<{
          items: { acknowledgedByName: string | null; correctiveAction: string | null }[];
        }>('/alerts', { probeUID });
        return items[0] ?? null;
      },
      { timeout: 30_000 },
    )
    .toEqual(
      expect.objectContaining({
        acknowledgedByName: demoTablet.employee,
        correctiveAction: 'Desserts moved to the cold room.',
      }),
    );
});

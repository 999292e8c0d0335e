import { expectNoSeriousA11yViolations } from '../support/a11y';
import {
  createTodayTask,
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  openPinPad,
  pairTablet,
  recordCardStatuses,
  tabletViewports,
  tapPin,
  taskCard,
  test,
  topBar,
  typeOnKeypad,
} from '../support/tablet';
import { todayIn, uniqueTaskName } from '../support/tasks';

/*
 * The store's tablet (issue 14): a kitchen employee pairs the tablet with the store's key,
 * identifies with the PIN, fills in a temperature reading out of range with its corrective
 * action; the back-office sees the record at once. Held in landscape and in portrait.
 */

for (const [orientation, viewport] of Object.entries(tabletViewports)) {
  test.describe(`tablet in ${orientation} (${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport });

    test('pair with the store key, identify with the PIN, record a temperature out of range with its corrective action; the back-office history and home page show it', async ({
      page,
      admin,
    }) => {
      test.setTimeout(120_000);
      const store = await demoStore(admin.api);
      const today = todayIn(demoTablet.timeZone);

      // The back-office gives the store a temperature reading open all day (so the journey
      // does not depend on the hour it runs at).
      const taskName = uniqueTaskName('E2E Fridge reading');
      const task = await createTodayTask(admin.api, store.id, taskName, {
        module: 'temperatures',
        elements: [demoTablet.fridge],
      });
      const { minimum_temperature: minimum, maximum_temperature: maximum } = task.elements[0]!;
      expect(minimum).not.toBeNull();
      expect(maximum).not.toBeNull();
      const reading = String(maximum! + 5);

      // 1. Pairing: the store's key and a name for the tablet; the store's name shows.
      await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} ${orientation}`);

      // 2. Who is working: Lucas with the PIN; the day's list shows.
      await expect(page.getByRole('heading', { name: 'Who is working?' })).toBeVisible();
      await expect(page.getByRole('button', { name: demoTablet.employee })).toBeVisible();
      await identify(page, demoTablet.employee, demoTablet.pin);

      // 3. Today's list has the reading, on time.
      const card = taskCard(page, taskName);
      await expect(card).toHaveAttribute('data-status', 'on-time');
      await expect(card).toContainText('On time');
      await expect(card).toContainText('Temperatures');

      // 4. The form: the element with its range; a reading above the maximum turns red at once
      // and the task cannot be sent before a corrective action is chosen.
      await card.click();
      await expect(page.getByRole('heading', { name: taskName, level: 1 })).toBeVisible();
      const entry = page.getByRole('region', { name: demoTablet.fridge });
      await expect(entry).toContainText(`Between ${minimum} °C and ${maximum} °C`);
      await entry.getByRole('button', { name: `Temperature – ${demoTablet.fridge}: –` }).click();
      const field = entry.getByRole('textbox', { name: `Temperature – ${demoTablet.fridge}` });
      await expect(field).toBeFocused();
      await typeOnKeypad(entry, reading);
      await expect(field).toHaveValue(reading);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(entry).toHaveAttribute('data-out-of-range', 'true');
      await expect(entry.getByText('Out of range', { exact: true })).toBeVisible();
      const send = page.getByRole('button', { name: 'Send', exact: true });
      await expect(send).toBeDisabled();
      await expect(
        page.getByText(`${demoTablet.fridge}: choose the corrective action.`),
      ).toBeVisible();
      const corrective = entry.getByRole('button', { name: 'Thermostat adjusted' });
      await corrective.click();
      await expect(corrective).toHaveAttribute('aria-pressed', 'true');
      await expect(send).toBeEnabled();

      // 5. Sent: the list shows it waiting to send, then done by Lucas.
      const statuses = await recordCardStatuses(page, taskName);
      await send.click();
      await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
      await expect(card).toHaveAttribute('data-status', 'done');
      await expect(card).toContainText('Done');
      await expect(card).toContainText(`Done by ${demoTablet.employee}`);
      // Straight from waiting to done: never back to "On time" in between (the employee
      // would fill it in again).
      expect(await statuses()).toEqual(['waiting', 'done']);
      await expect(page.getByTestId('network-indicator')).toHaveText('Online');

      // 6. The back-office, at once: the store's history of today has the record, an anomaly,
      // with the reading and the corrective action; the home page lists it completed.
      const office = await admin.context.newPage();
      await office.goto(`/history?store=${store.id}&tab=temperatures&start=${today}&end=${today}`);
      await expect(office.getByTestId('history-list')).toBeVisible();
      const row = office.getByTestId('history-row').filter({ hasText: taskName });
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('history-row-anomaly')).toBeVisible();
      await expect(row.getByTestId('history-row-employee')).toContainText('Lucas');
      await row.getByTestId('history-row-toggle').click();
      const temperature = row.getByTestId('result-temperature');
      await expect(temperature).toHaveAttribute('data-out-of-range', 'true');
      await expect(temperature).toContainText(reading);
      await expect(row).toContainText('Corrective action: Thermostat adjusted');

      await office.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
        'mise.selection',
        JSON.stringify({ kind: 'store', id: store.id, name: demoTablet.storeName }),
      ] as const);
      await office.goto('/home');
      await expect(office.getByTestId('home-tasks')).toBeVisible();
      await office.getByTestId('home-tasks-tab-completed').click();
      const done = office.getByTestId('home-task-row').filter({ hasText: taskName });
      await expect(done).toHaveCount(1);
      await expect(done).toContainText('Lucas');

      // The tablet still shows the employee and the store.
      await expect(topBar(page).getByText(demoTablet.storeName, { exact: true })).toBeVisible();
    });

    test('the pairing, who-is-working and day screens have no serious accessibility violation', async ({
      page,
      admin,
    }) => {
      const store = await demoStore(admin.api);
      await page.goto('/tablet/');
      await expect(page.getByRole('heading', { name: 'Pair this tablet' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `tablet pairing (${orientation})`);

      await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} a11y ${orientation}`);
      await expect(page.getByRole('button', { name: demoTablet.employee })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `tablet who is working (${orientation})`);

      await openPinPad(page, demoTablet.employee);
      await expectNoSeriousA11yViolations(page, `tablet PIN pad (${orientation})`);
      await page.keyboard.press('Escape');
      await identify(page, demoTablet.employee, demoTablet.pin);
      await expect(page.getByTestId('today-task').first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, `tablet day list (${orientation})`);
    });
  });
}

test('a wrong PIN five times locks the employee out, with the time left', async ({
  page,
  admin,
}) => {
  test.setTimeout(60_000);
  const store = await demoStore(admin.api);
  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} lockout`);
  // Emma, not Lucas: the lock is the employee's on every tablet of the store.
  const dialog = await openPinPad(page, demoTablet.lockoutEmployee);
  const message = dialog.getByRole('alert');
  // Any PIN but the demo's.
  const wrongPin = '0000';
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const answer = page.waitForResponse((response) => response.url().includes('/authenticate'));
    await tapPin(dialog, wrongPin);
    await answer;
    await expect(message).toBeVisible();
    if (attempt < 5) await expect(message).not.toContainText('Too many failed attempts');
    await expect(dialog.getByRole('button', { name: 'Digit 1', exact: true })).toBeEnabled();
  }
  await expect(message).toHaveText(/^Too many failed attempts\. Try again in \d+ min \d{2} s\.$/);
  // The right PIN is refused too while the lock lasts.
  const answer = page.waitForResponse((response) => response.url().includes('/authenticate'));
  await tapPin(dialog, demoTablet.pin);
  expect((await answer).status()).toBe(429);
  await expect(message).toHaveText(/^Too many failed attempts\. Try again in \d+ min \d{2} s\.$/);
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toHaveCount(0);
});

test("the History button opens the back-office's history in tablet mode, signed in as the device's linked user, on the tablet's store", async ({
  page,
  admin,
}) => {
  test.setTimeout(60_000);
  const store = await demoStore(admin.api);
  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} back-office`);
  await identify(page, demoTablet.employee, demoTablet.pin);
  const [backOffice] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: 'History', exact: true }).click(),
  ]);
  // The entry rule (?token=&page=&store_id=) signs in, then lands on the page.
  await expect(backOffice).toHaveURL(/\/history(\?|$)/, { timeout: 15_000 });
  // Tablet mode: no navigation panel; the tablet's store is the one shown.
  await expect(backOffice.getByTestId('nav-home')).toHaveCount(0);
  await expect(backOffice.getByRole('heading', { name: 'History' }).first()).toBeVisible();
  await expect(backOffice.getByRole('combobox', { name: 'Store' })).toHaveValue(
    demoTablet.storeName,
  );
  // Signed in as the store's owner, the user the device is linked to.
  await expect(backOffice.getByText('Camille Client')).toBeVisible();
  // The sign-in token does not stay in the address.
  expect(new URL(backOffice.url()).searchParams.get('token')).toBeNull();
});

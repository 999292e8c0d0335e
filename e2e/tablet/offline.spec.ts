import {
  type AdminApi,
  createTodayTask,
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  networkIndicator,
  pairTablet,
  taskCard,
  test,
  topBar,
  typeOnKeypad,
  waitForServiceWorker,
} from '../support/tablet';
import { todayIn, uniqueTaskName } from '../support/tasks';

/*
 * Offline first (issue 14): the kitchen loses the network; the employee goes on, every record
 * is kept on the tablet and shown waiting, and each reaches the server exactly once when the
 * network returns. The app shell itself opens without network.
 */

type TaskDetail = {
  id: string;
  completed_timestamp: string | null;
  employee: { name: string; surname: string } | null;
  result: { entries: Record<string, unknown>[] } | null;
  revisions: { revision: number; kind: string; author: { name: string } | null }[];
};

type PunchCards = {
  employees: { id: string; name: string; surname: string }[];
  entries: { id: string; employee_id: string; is_in: boolean; day: string; source: string }[];
};

/** Today's punch-card entries of an employee of the store, as the back-office reads them. */
async function todayEntriesOf(api: AdminApi, storeId: string, employee: string) {
  const today = todayIn(demoTablet.timeZone);
  const cards = await api.get<PunchCards>(`/stores/${storeId}/punchCards`, {
    start: today,
    end: today,
  });
  const person = cards.employees.find((item) => `${item.name} ${item.surname}` === employee);
  expect(person, employee).toBeDefined();
  return cards.entries.filter((entry) => entry.employee_id === person!.id && entry.day === today);
}

test('offline, two tasks and a clock-in wait on the tablet; back online, each reaches the server exactly once', async ({
  page,
  context,
  admin,
}) => {
  test.setTimeout(150_000);
  const store = await demoStore(admin.api);
  const actionsName = uniqueTaskName('E2E Offline closing');
  const freezerName = uniqueTaskName('E2E Offline freezer');
  const actions = ['Fridges closed', 'Floor washed'];
  const actionsTask = await createTodayTask(admin.api, store.id, actionsName, {
    module: 'actions',
    actions,
  });
  const freezerTask = await createTodayTask(admin.api, store.id, freezerName, {
    module: 'temperatures',
    elements: [demoTablet.freezer],
  });
  const freezer = freezerTask.elements[0]!;
  // A reading inside the freezer's range, typed with the keypad's minus key.
  const reading = String(freezer.maximum_temperature! - 2);
  const entriesBefore = await todayEntriesOf(admin.api, store.id, demoTablet.employee);

  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} offline`);
  // The tablet has been running a little: the app is installed (its shell precached).
  await waitForServiceWorker(page);
  await identify(page, demoTablet.employee, demoTablet.pin);
  await expect(taskCard(page, actionsName)).toHaveAttribute('data-status', 'on-time');
  await expect(taskCard(page, freezerName)).toHaveAttribute('data-status', 'on-time');
  await expect(networkIndicator(page)).toHaveText('Online');

  // 1. The network goes.
  await context.setOffline(true);
  await expect(networkIndicator(page)).toHaveText('Offline');

  // 2. The actions task: both done, sent → kept, waiting to send.
  await taskCard(page, actionsName).click();
  await expect(page.getByRole('heading', { name: actionsName, level: 1 })).toBeVisible();
  for (const action of actions) {
    const entry = page.getByRole('region', { name: action });
    const done = entry.getByRole('button', { name: '✓ Done', exact: true });
    await done.click();
    await expect(done).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
  await expect(taskCard(page, actionsName)).toHaveAttribute('data-status', 'waiting');
  await expect(taskCard(page, actionsName)).toContainText('Waiting to send');
  await expect(networkIndicator(page)).toHaveText('Offline · 1 waiting to send');

  // 3. The freezer's reading, a negative value in range.
  await taskCard(page, freezerName).click();
  const entry = page.getByRole('region', { name: freezer.name });
  await entry.getByRole('button', { name: `Temperature – ${freezer.name}: –` }).click();
  const field = entry.getByRole('textbox', { name: `Temperature – ${freezer.name}` });
  await typeOnKeypad(entry, reading);
  await expect(field).toHaveValue(reading);
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(taskCard(page, freezerName)).toHaveAttribute('data-status', 'waiting');
  await expect(networkIndicator(page)).toHaveText('Offline · 2 waiting to send');

  // 4. Clocking with a selfie from the (fake) front camera.
  await page.getByRole('button', { name: 'Clock in / out' }).click();
  await expect(page.getByRole('heading', { name: 'Clock in / out' })).toBeVisible();
  const clockButton = page.getByRole('button', { name: /^Clock (in|out)$/ });
  await expect(clockButton).toBeVisible();
  const clockLabel = (await clockButton.textContent())!.trim();
  const isIn = clockLabel === 'Clock in';
  await clockButton.click();
  const camera = page.getByRole('dialog', { name: 'Selfie' });
  await expect(camera).toBeVisible();
  // The shutter waits for the camera's first frame.
  await expect(async () => {
    await camera.getByRole('button', { name: 'Take the picture' }).click({ timeout: 1000 });
    await expect(camera.getByRole('img', { name: 'Picture taken' })).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await camera.getByRole('button', { name: 'Use this picture' }).click();
  const confirmation = page.getByRole('dialog', { name: isIn ? 'Clocked in' : 'Clocked out' });
  await expect(confirmation).toBeVisible();
  await expect(confirmation.getByTestId('clock-confirmation')).toContainText(
    `${demoTablet.employee} clocked ${isIn ? 'in' : 'out'} at`,
  );
  await expect(networkIndicator(page)).toHaveText('Offline · 3 waiting to send');
  await confirmation.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();

  // Nothing reached the server meanwhile.
  for (const task of [actionsTask, freezerTask]) {
    const { task: detail } = await admin.api.get<{ task: TaskDetail }>(`/tasks/${task.id}`);
    expect(detail.completed_timestamp).toBeNull();
  }
  expect(await todayEntriesOf(admin.api, store.id, demoTablet.employee)).toHaveLength(
    entriesBefore.length,
  );

  // 5. The network returns: everything is sent, nothing waits.
  await context.setOffline(false);
  await expect(networkIndicator(page)).toHaveText('Online', { timeout: 30_000 });
  await expect(taskCard(page, actionsName)).toHaveAttribute('data-status', 'done');
  await expect(taskCard(page, freezerName)).toHaveAttribute('data-status', 'done');

  // 6. Each record reached the server exactly once: one revision per task, one new entry.
  const { task: actionsDetail } = await admin.api.get<{ task: TaskDetail }>(
    `/tasks/${actionsTask.id}`,
  );
  expect(actionsDetail.completed_timestamp).not.toBeNull();
  expect(actionsDetail.employee?.name).toBe('Lucas');
  expect(actionsDetail.revisions.map((revision) => revision.kind)).toEqual(['result']);
  expect(actionsDetail.result?.entries.map((item) => [item.action, item.done])).toEqual(
    actions.map((action) => [action, true]),
  );

  const { task: freezerDetail } = await admin.api.get<{ task: TaskDetail }>(
    `/tasks/${freezerTask.id}`,
  );
  expect(freezerDetail.completed_timestamp).not.toBeNull();
  expect(freezerDetail.revisions.map((revision) => revision.kind)).toEqual(['result']);
  expect(freezerDetail.result?.entries[0]?.temperature).toBe(Number(reading));

  const entriesAfter = await todayEntriesOf(admin.api, store.id, demoTablet.employee);
  const added = entriesAfter.filter(
    (item) => !entriesBefore.some((before) => before.id === item.id),
  );
  expect(added).toHaveLength(1);
  expect(added[0]).toMatchObject({ is_in: isIn, source: 'device' });
  expect(entriesAfter).toHaveLength(entriesBefore.length + 1);
});

test('the app shell opens without network, from the service worker’s cache, with the kept employees and tasks', async ({
  page,
  context,
  admin,
}) => {
  test.setTimeout(90_000);
  const store = await demoStore(admin.api);
  const taskName = uniqueTaskName('E2E Offline shell');
  await createTodayTask(admin.api, store.id, taskName, {
    module: 'actions',
    actions: ['Hands washed'],
  });
  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} shell`);
  await waitForServiceWorker(page);
  await identify(page, demoTablet.employee, demoTablet.pin);
  await expect(taskCard(page, taskName)).toHaveAttribute('data-status', 'on-time');

  await context.setOffline(true);
  await page.reload();
  await expect(topBar(page).getByText(demoTablet.storeName, { exact: true })).toBeVisible();
  await expect(networkIndicator(page)).toHaveText('Offline');
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
  await expect(taskCard(page, taskName)).toHaveAttribute('data-status', 'on-time');

  // The employees are kept too: another one may be chosen (identifying needs the network).
  await page.getByRole('button', { name: 'Change employee' }).click();
  await expect(page.getByRole('heading', { name: 'Who is working?' })).toBeVisible();
  await expect(page.getByRole('button', { name: demoTablet.employee })).toBeVisible();
  await expect(page.getByRole('button', { name: demoTablet.lockoutEmployee })).toBeVisible();
  await context.setOffline(false);
});

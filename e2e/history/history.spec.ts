import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { apiSession, login } from '../support/auth';
import { demoPassword, demoUsers } from '../support/demo';
import { e2eUrl } from '../support/env';
import { expect, test } from '../support/fixtures';
import { downloadedPdfText } from '../support/pdf';
import { uniqueTaskName } from '../support/tasks';

/*
 * The customer's morning (spec 000 §2, spec 002 §2): the home page of a store is open when a
 * tablet completes a task — it appears in the tasks panel without a reload; then the customer
 * opens the store's history, filters anomalies, expands the row, opens its picture and
 * exports the PDF.
 */

test.use({ signedInAs: 'customer' });

const storeName = 'Bistro Lyon Bellecour';
// A 1×1 PNG, the picture the tablet takes.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A paired tablet of the store with an identified employee (demo PIN 1234). */
async function tablet(pairingKey: string) {
  // A tablet is no browser: no cookie, and the API's own origin.
  const device = await playwrightRequest.newContext({
    baseURL: e2eUrl,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { origin: e2eUrl },
  });
  const registered = await device.post('/api/devices/register', {
    data: { pairing_key: pairingKey, device_id: `e2e-${Date.now()}`, device_model: 'E2E Tab' },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const { token } = (await registered.json()) as { token: string };
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const employees = (await (await device.get('/api/device/employees', { headers })).json()) as {
    items: { id: string; name: string; surname: string }[];
  };
  const employee = employees.items[0]!;
  const identified = await device.post(`/api/device/employees/${employee.id}/authenticate`, {
    headers,
    data: { pin: '1234' },
  });
  expect(identified.ok(), await identified.text()).toBe(true);
  headers['x-employee-token'] = (
    (await identified.json()) as { employee_token: string }
  ).employee_token;
  return { device, headers, employee };
}

async function uploadPicture(device: APIRequestContext, headers: Record<string, string>) {
  const response = await device.post('/api/device/pictures', {
    headers,
    multipart: { file: { name: 'photo.png', mimeType: 'image/png', buffer: png } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { path: string }).path;
}

test('a task completed on a tablet appears on the open home page; the customer finds it in history as an anomaly, opens its picture and exports the PDF', async ({
  page,
  newSignedOutContext,
}) => {
  test.setTimeout(120_000);
  const taskName = uniqueTaskName('E2E Fermeture');
  const customerApi = await apiSession(page.request);
  const { items } = await customerApi.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: 'Lyon',
  });
  const storeId = items.find((item) => item.name === storeName)!.id;
  const { store } = await customerApi.get<{ store: { pairing_key: string } }>(`/stores/${storeId}`);

  // The admin gives the store a task due by the end of today and generates it now, so the
  // journey does not depend on the hour it runs at.
  const adminContext = await newSignedOutContext();
  const adminPage = await adminContext.newPage();
  await login(adminPage, demoUsers.admin.email, demoPassword);
  const adminApi = await apiSession(adminContext.request);
  await adminApi.post(`/stores/${storeId}/taskConfigurations`, {
    name: taskName,
    module: 'actions',
    schedules: [{ start: 0, end: 1440 }],
    configuration: {
      actions: [
        { name: 'Sortir les poubelles', requires_picture: true, attachments: [] },
        { name: 'Laver le sol', requires_picture: false, attachments: [] },
      ],
    },
  });
  await adminApi.post('/task_generation/run', { storeId });

  // 1. The home page of the store, open.
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    'mise.selection',
    JSON.stringify({ kind: 'store', id: storeId, name: storeName }),
  ] as const);
  await page.goto('/home');
  await expect(page.getByTestId('home-tasks')).toBeVisible();
  await page.getByTestId('home-tasks-tab-pending').click();
  const row = page.getByTestId('home-task-row').filter({ hasText: taskName });
  await expect(row).toHaveCount(1);
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });

  // 2. The tablet completes it: one action done with its picture, one not done.
  const { device, headers, employee } = await tablet(store.pairing_key);
  const { items: todayTasks } = (await (
    await device.get('/api/device/tasks', { headers })
  ).json()) as { items: { id: string; name: string }[] };
  const task = todayTasks.find((item) => item.name === taskName)!;
  expect(task).toBeDefined();
  const picture = await uploadPicture(device, headers);
  const completed = await device.post(`/api/device/tasks/${task.id}/result`, {
    headers,
    data: {
      idempotency_key: `e2e-${task.id}`,
      result: {
        entries: [
          {
            index: 0,
            action: 'Sortir les poubelles',
            done: true,
            requires_picture: true,
            picture: { path: picture, timestamp: Math.floor(Date.now() / 1000) },
          },
          { index: 1, action: 'Laver le sol', done: false, requires_picture: false, picture: null },
        ],
      },
    },
  });
  expect(completed.ok(), await completed.text()).toBe(true);
  await device.dispose();

  // The open page shows it completed, by that employee, without a reload.
  await page.getByTestId('home-tasks-tab-completed').click();
  const done = page.getByTestId('home-task-row').filter({ hasText: taskName });
  await expect(done).toHaveCount(1, { timeout: 15_000 });
  await expect(done).toContainText(employee.name);
  expect(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);

  // 3. History: the store, the actions tab, anomalies only.
  await page.goto(`/history?store=${storeId}&tab=actions`);
  await expect(page.getByTestId('history-list')).toBeVisible();
  await page.getByTestId('history-filter').getByText('Anomaly', { exact: true }).click();
  await expect(page).toHaveURL(/filter=anomaly/);
  const historyRow = page.getByTestId('history-row').filter({ hasText: taskName });
  await expect(historyRow).toHaveCount(1);
  await expect(historyRow.getByTestId('history-row-anomaly')).toBeVisible();
  await expect(historyRow.getByTestId('history-row-employee')).toContainText(employee.name);
  await historyRow.getByTestId('history-row-toggle').click();
  const doneCells = historyRow.getByTestId('result-action-done');
  await expect(doneCells).toHaveCount(2);

  // The picture opens in a modal, served by the API.
  await historyRow.getByTestId('history-picture').first().click();
  const modalImage = page.getByTestId('picture-modal-image');
  await expect(modalImage).toBeVisible();
  await expect(modalImage).toHaveAttribute('src', `/api/files/${picture}`);
  await expect
    .poll(() => modalImage.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(1);
  await page.keyboard.press('Escape');
  await expect(modalImage).toBeHidden();

  // The PDF export downloads a PDF holding the task: its name, its employee and its actions.
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('history-pdf').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfText = await downloadedPdfText(download);
  expect(pdfText).toContain(taskName);
  expect(pdfText).toContain(employee.name);
  expect(pdfText).toContain('Laver le sol');
});

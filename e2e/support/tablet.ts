import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { apiSession } from './auth';
import { e2eUrl } from './env';
import { test as base } from './fixtures';
import { todayIn } from './tasks';

/**
 * The tablet app (apps/tablet, served at /tablet/) on the demo: Paris Opéra is the store the
 * demo's tablet employees belong to (apps/server/src/db/seed/demo-tasks.ts: Lucas Martin and
 * Emma Bernard, PIN 1234), on the Paris clock like every demo store.
 */
export const demoTablet = {
  storeName: 'Bistro Paris Opéra',
  timeZone: 'Europe/Paris',
  pin: '1234',
  /** The employee of the journeys (role Cuisinier: temperatures and actions open). */
  employee: 'Lucas Martin',
  /** The employee whose PIN is locked out (the lock is the employee's, on every tablet). */
  lockoutEmployee: 'Emma Bernard',
  /** Demo elements with a temperature range (apps/server/src/db/seed/demo-catalogue.ts). */
  fridge: 'Chambre froide positive',
  freezer: 'Congélateur',
} as const;

/** A 10-inch tablet held either way. */
export const tabletViewports = {
  landscape: { width: 1280, height: 800 },
  portrait: { width: 800, height: 1280 },
} as const;

export type AdminApi = Awaited<ReturnType<typeof apiSession>> & {
  request: APIRequestContext;
  headers: Record<string, string>;
};

type TabletFixtures = {
  /** The demo admin's back-office, in its own browser context (the tablet's page stays signed out). */
  admin: { context: BrowserContext; api: AdminApi };
};

export const test = base.extend<TabletFixtures>({
  admin: async ({ browser, sessionStateOf }, use, testInfo) => {
    const { baseURL, locale } = testInfo.project.use;
    const context = await browser.newContext({
      baseURL,
      locale,
      viewport: tabletViewports.landscape,
      storageState: await sessionStateOf('admin'),
    });
    const session = await apiSession(context.request);
    const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as {
      csrfToken: string;
    };
    const api: AdminApi = {
      ...session,
      request: context.request,
      headers: { 'x-csrf-token': csrfToken, origin: e2eUrl },
    };
    await use({ context, api });
    await context.close();
  },
});

export { expect };

/** The names of the tablets the journeys pair start with it (removed before each journey). */
export const e2eTabletPrefix = 'E2E tablet';

/** Unpairs the tablets earlier journeys paired with the store (a store has a device limit). */
export async function removeE2eTablets(api: AdminApi, storeId: string): Promise<void> {
  const { items } = await api.get<{ items: { id: string; name: string }[] }>(
    `/stores/${storeId}/devices`,
  );
  for (const device of items.filter((item) => item.name.startsWith(e2eTabletPrefix))) {
    const response = await api.request.delete(`/api/devices/${device.id}`, {
      headers: api.headers,
    });
    expect(response.ok(), `DELETE /api/devices/${device.id}`).toBe(true);
  }
}

/**
 * The demo store as the admin sees it, with the pairing key its tablets register with; the
 * tablets earlier journeys paired are removed first (the store allows 3 devices).
 */
export async function demoStore(api: AdminApi): Promise<{ id: string; pairingKey: string }> {
  return storeForPairing(api, demoTablet.storeName);
}

/**
 * A store of the demo as the admin sees it, found by its exact name, with the pairing key its
 * tablets register with; the tablets earlier journeys paired with it are removed first.
 */
export async function storeForPairing(
  api: AdminApi,
  storeName: string,
): Promise<{ id: string; pairingKey: string }> {
  const { items } = await api.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: storeName,
  });
  const found = items.find((item) => item.name === storeName);
  expect(found, storeName).toBeDefined();
  await removeE2eTablets(api, found!.id);
  const { store } = await api.get<{ store: { pairing_key: string | null } }>(
    `/stores/${found!.id}`,
  );
  const pairingKey =
    store.pairing_key ??
    (await api.post<{ pairing_key: string }>(`/stores/${found!.id}/pairing-key`, {})).pairing_key;
  return { id: found!.id, pairingKey };
}

/**
 * Switches a store's licence on for a journey that pairs a tablet with it (only a licensed store
 * pairs; the demo's Lille Centre has none) and answers how to leave the store as it was found:
 * its journey's tablets unpaired and, when it had no licence, the licence off again.
 */
export async function licenseForJourney(
  api: AdminApi,
  storeId: string,
): Promise<() => Promise<void>> {
  const { store } = await api.get<{ store: { mise_licence: boolean } }>(`/stores/${storeId}`);
  const wasLicensed = store.mise_licence;
  if (!wasLicensed) await api.post('/stores/updateLicence', { storeId, activated: true });
  return async () => {
    await removeE2eTablets(api, storeId);
    if (!wasLicensed) await api.post('/stores/updateLicence', { storeId, activated: false });
  };
}

export type StoreTask = {
  id: string;
  name: string;
  module: string;
  completed_timestamp: string | null;
  elements: {
    id: string;
    name: string;
    minimum_temperature: number | null;
    maximum_temperature: number | null;
  }[];
};

type TaskContent =
  | { module: 'temperatures'; elements: string[] }
  | { module: 'actions'; actions: string[] };

/**
 * A store task configuration open all day (00:00–24:00 on the store's clock, so the task is on
 * time whatever the hour of the run), generated for the store's today at once (a forced run
 * adds the day's missing tasks). Answers today's task.
 */
export async function createTodayTask(
  api: AdminApi,
  storeId: string,
  name: string,
  content: TaskContent,
): Promise<StoreTask> {
  let configuration: unknown;
  if (content.module === 'temperatures') {
    const { items } = await api.get<{ items: { id: string; name: string }[] }>(
      `/stores/${storeId}/taskConfigurations/elements`,
      { module: 'temperatures' },
    );
    configuration = {
      temperature_elements: content.elements.map((elementName) => {
        const element = items.find((item) => item.name === elementName);
        expect(element, `element ${elementName}`).toBeDefined();
        return element!.id;
      }),
      is_delivery: false,
      automatic: false,
    };
  } else {
    configuration = {
      actions: content.actions.map((action) => ({
        name: action,
        requires_picture: false,
        attachments: [],
      })),
    };
  }
  await api.post(`/stores/${storeId}/taskConfigurations`, {
    name,
    module: content.module,
    schedules: [{ start: 0, end: 1440 }],
    configuration,
  });
  const day = todayIn(demoTablet.timeZone);
  await api.post('/task_generation/run', { storeId, day });
  const { items } = await api.get<{ items: StoreTask[] }>(`/stores/${storeId}/tasks`, { day });
  const task = items.find((item) => item.name === name);
  expect(task, `today's task ${name}`).toBeDefined();
  return task!;
}

/** The store's top bar (the store's name, the network indicator, the employee). */
export function topBar(page: Page): Locator {
  return page.getByRole('banner');
}

/** Online/offline and the number of records waiting to send. */
export function networkIndicator(page: Page): Locator {
  return page.getByTestId('network-indicator');
}

/** First start: the store's pairing key and a device name; the store's name shows once paired. */
export async function pairTablet(
  page: Page,
  pairingKey: string,
  deviceName: string,
  storeName: string = demoTablet.storeName,
) {
  await page.goto('/tablet/');
  await expect(page.getByRole('heading', { name: 'Pair this tablet' })).toBeVisible();
  await page.getByLabel('Pairing key').fill(pairingKey);
  await page.getByLabel('Tablet name').fill(deviceName);
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
  await expect(topBar(page).getByText(storeName, { exact: true })).toBeVisible();
}

/** "Who is working?": the employee's card, then the PIN dialog. */
export async function openPinPad(page: Page, employee: string): Promise<Locator> {
  await expect(page.getByRole('heading', { name: 'Who is working?' })).toBeVisible();
  await page.getByRole('button', { name: employee }).click();
  const dialog = page.getByRole('dialog', { name: `PIN of ${employee}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Taps the 4 digits on the PIN pad (the fourth submits). */
export async function tapPin(dialog: Locator, pin: string): Promise<void> {
  for (const digit of pin) {
    await dialog.getByRole('button', { name: `Digit ${digit}`, exact: true }).click();
  }
}

/** Identifies an employee with the PIN; the day's list shows. */
export async function identify(page: Page, employee: string, pin: string): Promise<void> {
  await tapPin(await openPinPad(page, employee), pin);
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
  await expect(topBar(page).getByText(employee, { exact: true })).toBeVisible();
}

/**
 * Identifies an employee, then settles the prompt of required trainings not done (issue 18)
 * that comes over the first screen once the employee's trainings are read: "Later" closes it
 * when it shows. Answers whether it showed.
 */
export async function identifyPastTrainingsPrompt(
  page: Page,
  employee: string,
  pin: string,
): Promise<boolean> {
  const trainingsRead = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/device/trainings' &&
      response.request().method() === 'GET',
  );
  await identify(page, employee, pin);
  await trainingsRead;
  const prompt = page.getByRole('dialog', { name: /required trainings? to follow$/ });
  // The list is in: the prompt shows at the next render, or not at all.
  const isShown = await prompt
    .waitFor({ state: 'visible', timeout: 2_000 })
    .then(() => true)
    .catch(() => false);
  if (isShown) {
    await prompt.getByRole('button', { name: 'Later', exact: true }).click();
    await expect(prompt).toHaveCount(0);
  }
  return isShown;
}

/** The day list's card of a task (its status in data-status). */
export function taskCard(page: Page, name: string): Locator {
  return page.getByTestId('today-task').filter({ has: page.getByText(name, { exact: true }) });
}

/** Types a value on the form's on-screen keypad (digits, point, minus key). */
export async function typeOnKeypad(scope: Locator, value: string): Promise<void> {
  for (const key of value) {
    const name = key === '-' ? 'Minus' : key === '.' ? 'Decimal point' : key;
    await scope.getByRole('button', { name, exact: true }).click();
  }
}

/** Waits until the tablet's service worker is active (the app shell is precached). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/**
 * Records in the page every status a task's card shows from now on (in order, no repeats),
 * so a short-lived status ("Waiting to send" while the record is being sent) is seen too.
 */
export async function recordCardStatuses(
  page: Page,
  name: string,
): Promise<() => Promise<string[]>> {
  const key = `statuses:${name}`;
  await page.evaluate(
    ([taskName, storageKey]) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[storageKey] = seen;
      const record = () => {
        const card = Array.from(document.querySelectorAll('[data-testid="today-task"]')).find(
          (element) =>
            Array.from(element.querySelectorAll('span')).some(
              (span) => span.textContent === taskName,
            ),
        );
        const status = card?.getAttribute('data-status');
        if (status && seen.at(-1) !== status) seen.push(status);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    },
    [name, key] as const,
  );
  return () =>
    page.evaluate(
      (storageKey) => (window as unknown as Record<string, string[]>)[storageKey] ?? [],
      key,
    );
}

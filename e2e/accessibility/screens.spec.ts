import type { Page } from '@playwright/test';
import { expectHeadingsInOrder, expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession, login } from '../support/auth';
import { demoPassword, demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';

test.use({ signedInAs: 'admin' });

/** Opens a screen of the signed-in layout and waits for its title (h1). */
async function openScreen(page: Page, path: string, title: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

test('the main screens have no serious or critical accessibility violations, each titled "<page> · Mise"', async ({
  page,
  newSignedOutContext,
}) => {
  test.setTimeout(180_000);
  const signedOut = await (await newSignedOutContext()).newPage();
  await signedOut.goto('/login');
  await expect(signedOut.getByTestId('login-email')).toBeVisible();
  await expect(signedOut).toHaveTitle('Log in · Mise');
  await expectNoSeriousA11yViolations(signedOut, 'login');

  const api = await apiSession(page.request);
  const { items: stores } = await api.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: 'Paris',
  });
  const storeId = stores[0]!.id;

  await openScreen(page, '/home', /^Welcome/);
  await expect(page).toHaveTitle('Home · Mise');
  await expectNoSeriousA11yViolations(page, 'home');
  await expectHeadingsInOrder(page, 'home');
  // With a store chosen: its panels (score, tasks, equipment, alerts…) title under the h1 as h2.
  await page.evaluate(
    (selection) => window.localStorage.setItem('mise.selection', selection),
    JSON.stringify({ kind: 'store', id: storeId, name: stores[0]!.name }),
  );
  await openScreen(page, '/home', /^Welcome/);
  await expect(page.getByTestId('home-score')).toBeVisible();
  await expect(page.getByTestId('home-alerts')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'home (store)');
  await expectHeadingsInOrder(page, 'home (store)');

  await openScreen(page, '/stores', 'Stores');
  await expect(page.getByTestId('store-card').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'stores');

  await page.getByTestId('store-card').first().click();
  await expect(page).toHaveURL(/\/store(Database)?\?id=/);
  await expect(page.getByRole('tab').first()).toBeVisible();
  await expect(page).toHaveTitle('Store · Mise');
  await expectNoSeriousA11yViolations(page, 'store');
  // The employees tab's "Add an employee" reads in full (it was cut in a four-column grid).
  await page.goto(`${page.url().replace(/&tab=\d+/, '')}&tab=3`);
  const addEmployeeLabel = page.getByTestId('employee-add').locator('.mantine-Button-label');
  await expect(addEmployeeLabel).toHaveText('Add an employee');
  expect(
    await addEmployeeLabel.evaluate((label) => label.scrollWidth - label.clientWidth),
  ).toBeLessThanOrEqual(0);

  await openScreen(page, '/databases', 'Databases');
  await expect(page.getByTestId('database-card').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'databases');

  await page.getByTestId('database-card').first().click();
  await expect(page).toHaveURL(/\/database\?id=/);
  await expect(page.getByTestId('database-name')).toBeVisible();
  await expect(page).toHaveTitle('Database · Mise');
  await expectNoSeriousA11yViolations(page, 'database');
  const databaseUrl = page.url().replace(/&.*$/, '');

  await page.goto(`${databaseUrl}&tab=1`);
  await page.getByTestId('element-row').first().click();
  await expect(page).toHaveURL(/\/databaseElement\?/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Database element · Mise');
  await expectNoSeriousA11yViolations(page, 'element');

  await page.goto(`${databaseUrl}&tab=2`);
  await page.getByTestId('task-configuration-row').first().click();
  await expect(page).toHaveURL(/\/taskConf\?/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Task configuration · Mise');
  await expectNoSeriousA11yViolations(page, 'task configuration');

  await openScreen(page, `/history?store=${storeId}`, 'History');
  await expect(page.getByTestId('history-list')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'history');

  // A week of punch cards at 1280 px: the totals column is on screen without scrolling.
  const { items: lilleStores } = await api.get<{ items: { id: string }[] }>('/stores', {
    search: 'Lille',
  });
  await page.goto(`/punchCards?store=${lilleStores[0]!.id}`);
  await expect(page.getByTestId('punch-row').first()).toBeVisible();
  await expect(page.getByTestId('punch-total').first()).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('punch-footer-total')).toBeInViewport({ ratio: 1 });
  await expect(page).toHaveTitle('Punch cards · Mise');
  await expectNoSeriousA11yViolations(page, 'punch cards');

  await openScreen(page, '/accounts', 'Accounts');
  await expect(page.getByTestId('account-card').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'accounts');

  await openScreen(page, '/billing', 'Billing');
  await expect(page.getByTestId('billing-total')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'billing');
});

test('on a phone (390 px wide) logout is on screen in the header and in the menu, and signs out', async ({
  browser,
}, testInfo) => {
  // A session of its own: signing out ends it (the shared per-role sessions must survive).
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: testInfo.project.use.locale,
    viewport: { width: 390, height: 844 },
    storageState: { cookies: [], origins: [] },
  });
  try {
    const page = await context.newPage();
    await login(page, demoUsers.customer.email, demoPassword);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `Welcome, ${demoUsers.customer.name}`,
    );
    const headerLogout = page.getByTestId('logout');
    await expect(headerLogout).toBeInViewport({ ratio: 1 });
    const box = (await headerLogout.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // Nothing in the header runs past the screen's right edge.
    const overflow = await page
      .locator('header')
      .evaluate((header) => header.scrollWidth - header.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Lists keep the names readable: a store's elements (a fixed allergen column left two letters).
    const api = await apiSession(page.request);
    const { items: stores } = await api.get<{ items: { id: string }[] }>('/stores', {
      search: 'Paris',
    });
    await page.goto(`/store?id=${stores[0]!.id}&tab=1`);
    const names = page.getByTestId('element-row-name');
    await expect(names.first()).toBeVisible();
    for (const name of await names.all()) {
      const { shown, full } = await name.evaluate((element) => ({
        shown: element.clientWidth,
        full: element.scrollWidth,
      }));
      // The whole name, or at least 110 px of it (about 13 letters) before the ellipsis.
      expect(shown, await name.innerText()).toBeGreaterThanOrEqual(Math.min(full, 110));
    }

    await page.getByTestId('navigation-burger').click();
    const menuLogout = page.getByTestId('nav-logout');
    await expect(menuLogout).toBeInViewport({ ratio: 1 });
    await menuLogout.click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-email')).toBeVisible();
  } finally {
    await context.close();
  }
});

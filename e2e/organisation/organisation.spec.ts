import { expectNoSeriousA11yViolations } from '../support/a11y';
import { login } from '../support/auth';
import { strongPassword, uniqueEmail } from '../support/demo';
import { e2eUrl } from '../support/env';
import { expect, test } from '../support/fixtures';
import { demoStoreNames, parseEuros, pickOption, signUpCustomer } from '../support/organisation';

test.use({ signedInAs: 'admin' });

test('an admin sets up a distributor, database and licensed store for a customer, who sees only it', async ({
  page,
  playwright,
  newSignedOutContext,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const distributorName = `E2E Distribution ${suffix}`;
  const databaseName = `E2E Kitchens ${suffix}`;
  const storeName = `E2E Bakery ${suffix}`;
  const storeAddress = `${Date.now() % 1000} rue du Four ${suffix}`;
  const customer = { name: 'Oscar', surname: 'Owner', email: uniqueEmail('owner') };

  // The customer's account exists up front (public signup); everything else is done on screen.
  // A context of its own: the test's `request` would carry the admin's cookie session.
  const anonymous = await playwright.request.newContext({
    baseURL: e2eUrl,
    storageState: { cookies: [], origins: [] },
  });
  try {
    await signUpCustomer(anonymous, customer);
  } finally {
    await anonymous.dispose();
  }

  // A demo store the customer does not own: its id, and the billing total before the licence.
  const demoStoreName = demoStoreNames[0];
  await page.goto('/home');
  await page.getByTestId('nav-stores').click();
  await expect(page).toHaveURL(/\/stores$/);
  const demoCard = page.locator(`[data-testid="store-card"][aria-label="${demoStoreName}"]`);
  await expect(demoCard).toBeVisible();
  const demoStoreHref = await demoCard.getAttribute('href');
  expect(demoStoreHref).toMatch(/^\/storeDatabase\?id=[0-9a-f-]{36}$/);

  await page.goto('/billing');
  const total = page.getByTestId('billing-total');
  await expect(total).toHaveText(/^€[\d,]+\.\d\d$/);
  const totalBefore = parseEuros(await total.innerText());
  await expectNoSeriousA11yViolations(page, 'billing');

  // 1. A new distributor, listed afterwards.
  await page.getByTestId('nav-distributors').click();
  await expect(page).toHaveURL(/\/distributors$/);
  await page.getByTestId('new-distributor').click();
  const distributorDialog = page.getByRole('dialog', { name: 'New distributor' });
  await expect(distributorDialog).toBeVisible();
  await page.getByTestId('distributor-name').fill(distributorName);
  await page.getByTestId('distributor-address').fill(`1 avenue des Grossistes ${suffix}`);
  await page.getByTestId('distributor-postal-code').fill('69002');
  await page.getByTestId('distributor-city').fill('Lyon');
  await pickOption(page, page.getByTestId('distributor-country'), 'France');
  await page.getByTestId('new-distributor-submit').click();
  await expect(
    page.getByTestId('notice-success').filter({ hasText: 'The distributor has been created.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/distributor\?id=[0-9a-f-]{36}$/);
  await page.getByTestId('nav-distributors').click();
  await page.getByTestId('distributors-search').fill(suffix);
  const distributorCards = page.getByTestId('distributor-card');
  await expect(distributorCards).toHaveCount(1);
  await expect(distributorCards).toHaveAttribute('aria-label', distributorName);
  await expect(distributorCards).toContainText('Lyon');

  // 2. A database of that distributor.
  await page.getByTestId('nav-databases').click();
  await expect(page).toHaveURL(/\/databases$/);
  await page.getByTestId('new-database').click();
  await expect(page.getByRole('dialog', { name: 'New database' })).toBeVisible();
  await page.getByTestId('database-name').fill(databaseName);
  await pickOption(page, page.getByTestId('database-distributor'), distributorName);
  await page.getByTestId('new-database-submit').click();
  await expect(
    page.getByTestId('notice-success').filter({ hasText: 'The database has been created.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/database\?id=[0-9a-f-]{36}$/);

  // 3. A store of that distributor, then its database from the store page.
  await page.getByTestId('nav-stores').click();
  await expect(page).toHaveURL(/\/stores$/);
  await page.getByTestId('new-store').click();
  await expect(page.getByRole('dialog', { name: 'New store' })).toBeVisible();
  await page.getByTestId('store-name').fill(storeName);
  await page.getByTestId('store-address').fill(storeAddress);
  await page.getByTestId('store-postal-code').fill('69001');
  await page.getByTestId('store-city').fill('Lyon');
  await pickOption(page, page.getByTestId('store-country'), 'France');
  await pickOption(page, page.getByTestId('store-distributor'), distributorName);
  await page.getByTestId('new-store-submit').click();
  await expect(
    page.getByTestId('notice-success').filter({ hasText: 'The store has been created.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/store\?id=[0-9a-f-]{36}$/);
  const savedNotice = page.getByTestId('notice-success').filter({ hasText: 'Saved successfully.' });
  const storeId = new URL(page.url()).searchParams.get('id')!;

  await page.getByTestId('nav-stores').click();
  await page.getByTestId('stores-search').fill(suffix);
  const storeCards = page.getByTestId('store-card');
  await expect(storeCards).toHaveCount(1);
  await expect(storeCards.getByTestId('store-card-name')).toHaveText(storeName);
  await expect(storeCards.getByTestId('store-card-distributor')).toHaveText(distributorName);
  await storeCards.click();
  await expect(page).toHaveURL(`/store?id=${storeId}`);
  await expect(page.getByTestId('page-title')).toHaveText(storeName);
  await expect(page.getByTestId('store-no-database')).toBeVisible();
  await page.getByTestId('select-database').click();
  await expect(page.getByRole('dialog', { name: 'Choose a database' })).toBeVisible();
  await pickOption(page, page.getByTestId('select-database-choice'), databaseName);
  await page.getByTestId('select-database-submit').click();
  await expect(savedNotice).toBeVisible();
  await expect(page).toHaveURL(`/storeDatabase?id=${storeId}`);
  await expect(page.getByTestId('store-no-database')).toHaveCount(0);
  await expect(page.getByTestId('store-tab-general')).toBeVisible();
  await expect(page.getByTestId('store-tab-devices')).toBeVisible();
  await expect(page.getByTestId('page-subtitle')).toHaveText(databaseName);

  // 4. The customer becomes an owner.
  await page.getByTestId('store-tab-general').click();
  await page.getByTestId('store-owners').click();
  const ownersDialog = page.getByRole('dialog', { name: 'Owners' });
  await expect(ownersDialog).toBeVisible();
  await expect(ownersDialog).toContainText('This store has no owner.');
  await page.getByTestId('add-owner-email').fill(customer.email);
  await page.getByTestId('add-owner-submit').click();
  await expect(
    page.getByTestId('notice-success').filter({ hasText: 'The user has been added as an owner.' }),
  ).toBeVisible();
  const ownerCard = ownersDialog.getByTestId('owner-card');
  await expect(ownerCard).toHaveCount(1);
  await expect(ownerCard).toContainText(`${customer.name} ${customer.surname}`);
  await expect(ownerCard).toContainText(customer.email);
  await page.keyboard.press('Escape');
  await expect(ownersDialog).toBeHidden();
  await expect(page.getByTestId('store-owners')).toHaveText('Owners (1)');

  // 5. The licence, switched on after the billing warning, saved, and still on after a reload.
  const licence = page.getByTestId('licence-toggle');
  await expect(licence).not.toBeChecked();
  await page.locator('label').filter({ has: licence }).click();
  await expect(
    page.getByText('Activating the licence starts a new billing for the current month.'),
  ).toBeVisible();
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(licence).toBeChecked();
  await expect(savedNotice).toHaveCount(0);
  await page.getByTestId('save').click();
  await expect(savedNotice).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('page-title')).toHaveText(storeName);
  await expect(page.getByTestId('licence-toggle')).toBeChecked();

  // 6. Billing, current month: the distributor's group with the store at 19 €, in the total.
  await page.getByTestId('nav-billing').click();
  await expect(page).toHaveURL(/\/billing$/);
  const group = page.getByTestId('billing-group').filter({ hasText: distributorName });
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId('billing-group-cost')).toHaveText('€19.00');
  await expect(group).toContainText('1 billed store');
  await group.getByTestId('billing-group-toggle').click();
  const billedStore = group.getByTestId('billing-store');
  await expect(billedStore).toHaveCount(1);
  await expect(billedStore).toContainText(storeName);
  await expect(billedStore.getByTestId('billing-store-cost')).toHaveText('€19.00');
  await expect
    .poll(async () => parseEuros(await page.getByTestId('billing-total').innerText()))
    .toBeCloseTo(totalBefore + 19, 2);

  // 7. The customer signs in and sees that store and no other.
  const customerContext = await newSignedOutContext();
  const customerPage = await customerContext.newPage();
  await login(customerPage, customer.email, strongPassword);
  await expect(customerPage.getByTestId('header-role')).toHaveText('Customer');
  await customerPage.getByTestId('nav-stores').click();
  await expect(customerPage).toHaveURL(/\/stores$/);
  const customerCards = customerPage.getByTestId('store-card');
  await expect(customerCards).toHaveCount(1);
  await expect(customerCards.getByTestId('store-card-name')).toHaveText(storeName);
  for (const name of demoStoreNames) {
    await expect(customerPage.getByText(name)).toHaveCount(0);
  }
  await expect(customerPage.getByTestId('new-store')).toHaveCount(0);
  await customerCards.click();
  await expect(customerPage).toHaveURL(`/storeDatabase?id=${storeId}`);
  await expect(customerPage.getByTestId('page-title')).toHaveText(storeName);

  await customerPage.goto(demoStoreHref!);
  await expect(customerPage.getByTestId('empty-state')).toContainText('This could not be loaded.');
  await expect(customerPage.getByTestId('empty-state')).toContainText('Not found.');
  await expect(customerPage.getByText(demoStoreName)).toHaveCount(0);
});

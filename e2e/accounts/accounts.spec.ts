import { expectNoSeriousA11yViolations } from '../support/a11y';
import { demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';

test.use({ signedInAs: 'admin' });

test('the admin finds Camille, edits her phone, and the change persists', async ({ page }) => {
  const camille = demoUsers.customer;
  const phone = `+33 6 ${String(Date.now())
    .slice(-8)
    .replace(/(\d\d)(?=\d)/g, '$1 ')}`;

  await page.goto('/home');
  await page.getByTestId('nav-accounts').click();
  await expect(page).toHaveURL(/\/accounts$/);
  const cards = page.getByTestId('account-card');
  await expect(cards.first()).toBeVisible();
  await expect.poll(() => cards.count()).toBeGreaterThan(1);
  await expectNoSeriousA11yViolations(page, 'accounts');

  await page.getByTestId('accounts-search').fill('Camille');
  await expect(cards).toHaveCount(1);
  await expect(cards.getByTestId('account-card-name')).toHaveText(
    `${camille.name} ${camille.surname}`,
  );
  await expect(cards.getByTestId('account-card-email')).toHaveText(camille.email);

  await cards.click();
  await expect(page).toHaveURL(/\/account\?id=[0-9a-f-]{36}$/);
  await expect(page.getByTestId('account-email')).toHaveValue(camille.email);
  const accountUrl = page.url();

  const phoneInput = page.getByTestId('account-phone');
  await expect(phoneInput).not.toHaveValue(phone);
  await phoneInput.fill(phone);
  await page.getByTestId('account-save').click();
  await expect(page.getByTestId('notice-success')).toContainText('Saved successfully.');

  await page.reload();
  expect(page.url()).toBe(accountUrl);
  await expect(page.getByTestId('account-email')).toHaveValue(camille.email);
  await expect(page.getByTestId('account-phone')).toHaveValue(phone);
});

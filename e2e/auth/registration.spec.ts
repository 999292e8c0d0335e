import { strongPassword, uniqueEmail } from '../support/demo';
import { expect, test } from '../support/fixtures';

test('registration checks the form in order, then creates a customer and signs in', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByTestId('link-register').click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();

  const error = page.getByTestId('register-error');
  const submit = page.getByTestId('register-submit');
  const terms = page.getByTestId('register-terms');
  const email = uniqueEmail('registration');

  // Terms not accepted: their message wins over a mismatch and empty fields.
  await page.getByTestId('register-name').fill('Roxane');
  await page.getByTestId('register-password').fill(strongPassword);
  await page.getByTestId('register-confirmation').fill(`${strongPassword}-typo`);
  await expect(terms).not.toBeChecked();
  await submit.click();
  await expect(error).toHaveText('Please accept legal terms');

  // Terms accepted: the mismatch comes next, still before the empty fields.
  await terms.check();
  await submit.click();
  await expect(error).toHaveText('Passwords do not match');

  // Passwords agree: an empty field is what is left.
  await page.getByTestId('register-confirmation').fill(strongPassword);
  await submit.click();
  await expect(error).toHaveText('Please fill all fields.');

  // Each field counts: only the phone is missing now.
  await page.getByTestId('register-surname').fill('Boulanger');
  await page.getByTestId('register-email').fill(email);
  await submit.click();
  await expect(error).toHaveText('Please fill all fields.');

  // Unticking the terms again brings their message back first.
  await page.getByTestId('register-phone').fill('+33 6 12 34 56 78');
  await terms.uncheck();
  await submit.click();
  await expect(error).toHaveText('Please accept legal terms');

  await terms.check();
  await submit.click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('header-name')).toContainText('Roxane Boulanger');
  await expect(page.getByTestId('header-role')).toHaveText('Customer');
  await expect(page.getByTestId('nav-home')).toBeVisible();
  await expect(page.getByTestId('nav-accounts')).toHaveCount(0);

  // The account exists: signing out and in again with its password works.
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(strongPassword);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('header-name')).toContainText('Roxane Boulanger');
});

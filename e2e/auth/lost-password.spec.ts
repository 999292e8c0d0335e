import { submitLogin } from '../support/auth';
import { strongPassword, uniqueEmail } from '../support/demo';
import { e2eUrl } from '../support/env';
import { expect, test } from '../support/fixtures';
import { linkIn, waitForMail } from '../support/mail';

const firstPassword = 'Old-crust-2025';

test('a lost password is reset through the mailed link', async ({ page, request }) => {
  // A fresh account, through the public registration API.
  const email = uniqueEmail('lost');
  const signup = await request.post('/api/auth/signup', {
    data: {
      name: 'Lucien',
      surname: 'Perdu',
      email,
      phone: '+33 6 00 00 00 00',
      password: firstPassword,
    },
  });
  expect(signup.ok(), await signup.text()).toBe(true);

  await page.goto('/login');
  await page.getByTestId('link-lost-password').click();
  await expect(page.getByRole('heading', { name: 'Lost password' })).toBeVisible();
  await page.getByTestId('lost-email').fill(email);
  await page.getByTestId('lost-submit').click();
  await expect(page.getByTestId('lost-result')).toHaveText(
    'A recovery mail was sent to the specified email address.',
  );
  await page.getByTestId('lost-result-ok').click();
  await expect(page.getByTestId('lost-result')).toBeHidden();

  const mail = await waitForMail(email);
  expect(mail.subject).toContain('reset your password');
  const link = linkIn(mail, `${e2eUrl}/resetPassword?token=`);

  await page.goto(link);
  await expect(page).toHaveURL(/\/resetPassword\?token=/);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByTestId('reset-password').fill(strongPassword);
  await page.getByTestId('reset-confirmation').fill(strongPassword);
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been changed. You can now log in.')).toBeVisible();

  // The old password no longer works...
  await submitLogin(page, email, firstPassword);
  await expect(page.getByTestId('login-error')).toHaveText('Incorrect e-mail address or password.');
  await expect(page).toHaveURL(/\/login$/);

  // ...the new one does.
  await submitLogin(page, email, strongPassword);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('header-name')).toContainText('Lucien Perdu');

  // The link was single-use.
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(link);
  await page.getByTestId('reset-password').fill('Another-loaf-2027');
  await page.getByTestId('reset-confirmation').fill('Another-loaf-2027');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-error')).toHaveText(
    'This password reset link is invalid or has expired.',
  );
});

import { apiSession } from '../support/auth';
import { demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';

test.use({ signedInAs: 'admin' });

test('a login token signs the manager in once, in tablet mode', async ({
  page,
  newSignedOutContext,
}) => {
  // The admin mints a token for the manager (cookie session, CSRF token, same origin).
  await page.goto('/home');
  await expect(page.getByTestId('header-name')).toContainText('Alice Admin');
  const admin = await apiSession(page.request);
  const managerId = await admin.userIdOf(demoUsers.manager.email);
  const { token } = await admin.post<{ token: string }>('/auth/createToken', { UId: managerId });
  expect(token).not.toBe('');
  const entryUrl = `/?token=${encodeURIComponent(token)}&page=home`;

  // A fresh browser (no session): the token signs in as the manager, tablet mode.
  const tabletPage = await (await newSignedOutContext()).newPage();
  await tabletPage.goto(entryUrl);
  await expect(tabletPage).toHaveURL(/\/home$/);
  await expect(tabletPage.getByTestId('header-name')).toContainText('Manon Manager');
  await expect(tabletPage.getByTestId('header-role')).toHaveText('Manager');
  await expect(tabletPage.getByRole('heading', { name: 'Welcome, Manon' })).toBeVisible();
  await expect(tabletPage.getByTestId('navigation-panel')).toHaveCount(0);
  await expect(tabletPage.locator('[data-testid^="nav-"]')).toHaveCount(0);
  await expect(tabletPage.getByTestId('token-error')).toHaveCount(0);

  // The token is single-use: another fresh browser gets the error dialog and the login page.
  const againPage = await (await newSignedOutContext()).newPage();
  await againPage.goto(entryUrl);
  const dialogMessage = againPage.getByTestId('token-error');
  await expect(dialogMessage).toHaveText('Unable to authentificate using Mise token.');
  await expect(againPage.getByRole('dialog', { name: 'Error' })).toBeVisible();
  await expect(againPage).toHaveURL(/\/login$/);
  await expect(againPage.getByTestId('header-name')).toHaveCount(0);
  await againPage.getByTestId('token-error-ok').click();
  await expect(dialogMessage).toBeHidden();
  await expect(againPage.getByTestId('login-email')).toBeVisible();
});

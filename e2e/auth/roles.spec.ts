import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { login, submitLogin } from '../support/auth';
import { demoPassword, demoUsers, expectedNavigation, roles } from '../support/demo';
import { expect, test } from '../support/fixtures';

const artifacts = join(import.meta.dirname, '..', 'artifacts');

/** The test ids of the navigation entries on screen, in display order. */
function visibleNavigation(page: Page) {
  return page
    .locator('[data-testid^="nav-"]:visible')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-testid')));
}

test.describe('sign-in per role', () => {
  for (const role of roles) {
    test(`${role} signs in and sees exactly its navigation`, async ({ page }) => {
      const user = demoUsers[role];
      await login(page, user.email, demoPassword);

      await expect(page.getByTestId('header-name')).toContainText(`${user.name} ${user.surname}`);
      await expect(page.getByTestId('navigation-panel')).toBeVisible();
      const expected = expectedNavigation[role].map((key) => `nav-${key}`);
      await expect(page.locator('[data-testid^="nav-"]:visible')).toHaveCount(expected.length);
      expect(await visibleNavigation(page)).toEqual(expected);
      await expect(page.getByTestId('nav-home')).toHaveAttribute('data-active');

      await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible();
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, `home-${role}.png`), fullPage: true });

      await page.getByTestId('logout').click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByTestId('login-email')).toBeVisible();
      await expect(page.locator('[data-testid^="nav-"]')).toHaveCount(0);

      // The session is gone: a signed-in page sends back to the login page.
      await page.goto('/home');
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test('a wrong password shows the red message and stays on the login page', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, demoUsers.admin.email, 'not-the-password-1');

    const error = page.getByTestId('login-error');
    await expect(error).toHaveText('Incorrect e-mail address or password.');
    // Red at WCAG AA contrast on white (the theme's red text, #e03131: 4.5:1).
    await expect(error).toHaveCSS('color', 'rgb(224, 49, 49)');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('header-name')).toHaveCount(0);
  });
});

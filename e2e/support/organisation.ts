import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { strongPassword } from './demo';
import { e2eUrl } from './env';

/** The stores the server seeds with the demo organisation (apps/server/src/db/seed/demo.ts). */
export const demoStoreNames = [
  'Bistro Paris Opéra',
  'Bistro Lyon Bellecour',
  'Bistro Lille Centre',
  'Canteen Bruxelles',
] as const;

/**
 * Picks `label` in a Mantine Select (searchable): opens it, types to filter, clicks the
 * option, and checks the input now shows it. `select` is the Select's input (its test id).
 */
export async function pickOption(page: Page, select: Locator, label: string): Promise<void> {
  await select.click();
  await select.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click({ timeout: 7_500 });
  await expect(select).toHaveValue(label);
  // A dropdown still open (it can reopen on a late focus event) covers what comes next: close
  // it, so the following click does not land on an option.
  const openLists = page.locator('[role="listbox"]:visible');
  if ((await openLists.count()) > 0) await select.press('Escape');
  await expect(openLists).toHaveCount(0);
  await expect(select).toHaveValue(label);
}

/**
 * Creates a customer account by public signup (the only API call of the organisation
 * journey: accounts are not what it tests). No session: only a same-origin Origin is needed.
 */
export async function signUpCustomer(
  request: APIRequestContext,
  account: { name: string; surname: string; email: string },
): Promise<void> {
  const response = await request.post('/api/auth/signup', {
    data: { ...account, password: strongPassword, phone: '+33 6 12 34 56 78' },
    headers: { origin: e2eUrl },
  });
  expect(response.ok(), `signup ${account.email}: ${response.status()}`).toBe(true);
}

/** An amount as formatEuros writes it in en-US ("€1,234.50"), as a number. */
export function parseEuros(text: string): number {
  const digits = text.replace(/[^0-9.-]/g, '');
  const value = Number.parseFloat(digits);
  if (!Number.isFinite(value)) throw new Error(`not an amount in euros: ${text}`);
  return value;
}

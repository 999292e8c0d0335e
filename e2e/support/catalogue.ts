import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The demo catalogue the server seeds (apps/server/src/db/seed/demo.ts, demo-catalogue.ts):
 * the demo distributor's database, one of its element types, and a store of that database
 * that customer@demo.test owns (the customer owns Paris Opéra and Lyon Bellecour).
 */
export const demoCatalogue = {
  databaseName: 'Bistro Group',
  typeName: 'Desserts',
  customerStoreName: 'Bistro Lyon Bellecour',
} as const;

/** Allergens as the element screen offers them ("C – Eggs") and their table letter. */
export const catalogueAllergens = {
  egg: { letter: 'C', option: 'C – Eggs' },
  celery: { letter: 'L', option: 'L – Celery' },
} as const;

/** A unique element name (a fresh database per run, but reruns against one server stay apart). */
export function uniqueElementName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A temperature input of the element screen shows its value with the " °C" suffix. */
export function celsius(value: number): string {
  return `${value} °C`;
}

/**
 * Types a temperature into one of the element screen's number inputs (Mantine NumberInput
 * with a " °C" suffix) and checks what it shows afterwards.
 */
export async function fillTemperature(input: Locator, value: number): Promise<void> {
  await input.fill(String(value));
  await input.blur();
  await expect(input).toHaveValue(celsius(value));
}

/** Picks options of a Mantine MultiSelect (`select` is its input) and closes the dropdown. */
export async function pickMultiOptions(
  page: Page,
  select: Locator,
  labels: readonly string[],
): Promise<void> {
  for (const label of labels) {
    await select.click();
    await select.fill(label.slice(4));
    await page.getByRole('option', { name: label, exact: true }).click();
  }
  await select.press('Escape');
}

/** The saved notice of the element screen ("Saved successfully."). */
export function savedNotice(page: Page): Locator {
  return page.getByTestId('notice-success').filter({ hasText: 'Saved successfully.' });
}

/**
 * Clicks Save on the element screen and waits for the saved notice. Only one save per loaded
 * page (a navigation or reload follows each), so no earlier notice can be mistaken for it.
 */
export async function saveElement(page: Page): Promise<void> {
  await expect(savedNotice(page)).toHaveCount(0);
  await page.getByTestId('element-save').click();
  await expect(savedNotice(page)).toBeVisible();
}

/** The row of `name` in an element list (its aria-label is the element's name). */
export function elementRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="element-row"][aria-label="${name}"]`);
}

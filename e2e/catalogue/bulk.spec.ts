import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { expect, test } from '../support/fixtures';

/*
 * Expert mode (issue 19, spec 001 §2.9, §4, §7): the bulk grids against the built app. Each
 * journey works on databases and a store of its own (made through the API), so the demo
 * catalogue stays as it is.
 */

test.use({ signedInAs: 'distributor' });

type Api = Awaited<ReturnType<typeof apiSession>>;
type ElementRow = {
  key: string;
  id: string | null;
  name: string;
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  version: number;
};
type TaskRow = { key: string; id: string | null; origin_id: string | null; name: string };

const elementCount = 40;
const editedCount = 20;
const exportedCount = 5;

/** A name of this run's own (reruns against one server stay apart). */
function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function createDatabase(api: Api, name: string): Promise<string> {
  const { database } = await api.post<{ database: { id: string } }>('/databases', { name });
  return database.id;
}

/** Elements "Élément 00" … in one bulk save, each kept between 0 and 4 °C; answers the rows by name. */
async function seedElements(api: Api, databaseId: string, count: number): Promise<ElementRow[]> {
  const rows = Array.from({ length: count }, (_, index) => ({
    key: `new-${index}`,
    id: null,
    values: {
      name: `Élément ${String(index).padStart(2, '0')}`,
      minimum_temperature: 0,
      maximum_temperature: 4,
    },
  }));
  await api.post(`/databases/${databaseId}/elements/bulk`, { rows });
  // The save answers new rows under the keys sent; the grid's keys are the ids (read again).
  return (await readElements(api, databaseId)).sort((left, right) =>
    left.name.localeCompare(right.name),
  );
}

async function readElements(api: Api, databaseId: string): Promise<ElementRow[]> {
  return (await api.get<{ rows: ElementRow[] }>(`/databases/${databaseId}/elements/bulk`)).rows;
}

/**
 * Brings the row `key` into the grid's rows (they are virtualised: only those near the view
 * are in the page), scrolling down from the top a half screen at a time.
 */
async function revealRow(page: Page, key: string): Promise<void> {
  const row = page.getByTestId(`bulk-row-${key}`);
  const grid = page.getByTestId('bulk-grid');
  for (let step = 0; step < 40 && (await row.count()) === 0; step += 1) {
    await grid.evaluate((box) => {
      box.scrollTop += box.clientHeight / 2;
    });
    await page.waitForTimeout(50);
  }
  await expect(row).toBeAttached();
}

/** Opens a bulk screen and waits for its grid and first row. */
async function openGrid(page: Page, path: string, firstKey: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId(`bulk-row-${firstKey}`)).toBeVisible();
}

test('a distributor edits 20 elements at once, saves, and exports 5 to another database', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const api = await apiSession(page.request);
  const sourceName = uniqueName('Bulk source');
  const targetName = uniqueName('Bulk target');
  const sourceId = await createDatabase(api, sourceName);
  const targetId = await createDatabase(api, targetName);
  const seeded = await seedElements(api, sourceId, elementCount);
  expect(seeded).toHaveLength(elementCount);
  const edited = seeded.slice(0, editedCount);

  await openGrid(page, `/bulkDatabaseElement?database=${sourceId}`, seeded[0]!.key);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Expert mode — elements of ${sourceName}`,
  );
  await expect(page.getByTestId('bulk-grid')).toHaveAttribute(
    'data-row-count',
    String(elementCount),
  );

  // The temperature columns, 20 rows checked.
  await page.getByTestId('bulk-chip-temperatures').click();
  await expect(page.getByTestId('bulk-chip-temperatures')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('bulk-head-maximum_temperature')).toBeVisible();
  for (const row of edited) {
    await revealRow(page, row.key);
    await page.getByTestId(`bulk-check-${row.key}`).check();
  }
  await expect(page.getByTestId('bulk-counts')).toHaveText(
    `${elementCount} shown, ${editedCount} checked`,
  );

  // The maximum of the 20 checked rows at once, and the minimum too, then the minimum reverted.
  await page.getByTestId('bulk-apply-maximum_temperature').click();
  await page.getByTestId('bulk-apply-value').fill('2');
  await page.getByTestId('bulk-apply-submit').click();
  await expect(page.getByTestId('bulk-dirty-count')).toHaveText(String(editedCount));
  // The maximum's popover is gone (its closing transition) before the minimum's opens.
  await expect(page.getByTestId('bulk-apply-value')).toHaveCount(0);
  await page.getByTestId('bulk-apply-minimum_temperature').click();
  await page.getByTestId('bulk-apply-value').fill('-5');
  await page.getByTestId('bulk-apply-submit').click();
  await revealRow(page, edited[editedCount - 1]!.key);
  const lastEdited = edited[editedCount - 1]!.key;
  await expect(page.getByTestId(`bulk-cell-${lastEdited}-minimum_temperature`)).toHaveText('-5 °C');
  await expect(page.getByTestId(`bulk-cell-${lastEdited}-minimum_temperature`)).toHaveAttribute(
    'data-changed',
    'true',
  );
  await page.getByTestId('bulk-revert-minimum_temperature').click();
  await expect(page.getByTestId(`bulk-cell-${lastEdited}-minimum_temperature`)).toHaveText('0 °C');
  await expect(page.getByTestId(`bulk-cell-${lastEdited}-maximum_temperature`)).toHaveText('2 °C');
  await expect(page.getByTestId('bulk-dirty-count')).toHaveText(String(editedCount));

  const saveResponse = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/databases/${sourceId}/elements/bulk`) &&
      response.request().method() === 'POST',
  );
  await page.getByTestId('bulk-save').click();
  expect((await saveResponse).status()).toBe(200);
  await expect(page.getByTestId('bulk-dirty-count')).toHaveCount(0);
  await expect(
    page.getByTestId('notice-success').filter({ hasText: 'Saved successfully.' }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'bulk database elements, saved');

  // The API: exactly the 20 rows changed, their maximum only.
  const editedKeys = new Set(edited.map((row) => row.key));
  const afterSave = await readElements(api, sourceId);
  expect(afterSave).toHaveLength(elementCount);
  const changed = afterSave.filter(
    (row) => row.version !== seeded.find((before) => before.key === row.key)!.version,
  );
  expect(changed.map((row) => row.key).sort()).toEqual([...editedKeys].sort());
  for (const row of afterSave) {
    expect(row, row.name).toMatchObject({
      minimum_temperature: 0,
      maximum_temperature: editedKeys.has(row.key) ? 2 : 4,
    });
  }

  // A reload shows the saved values.
  await page.reload();
  await expect(page.getByTestId(`bulk-row-${seeded[0]!.key}`)).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('bulk-chip-temperatures').click();
  await expect(page.getByTestId(`bulk-cell-${seeded[0]!.key}-maximum_temperature`)).toHaveText(
    '2 °C',
  );
  await revealRow(page, lastEdited);
  await expect(page.getByTestId(`bulk-cell-${lastEdited}-maximum_temperature`)).toHaveText('2 °C');
  const untouched = seeded[editedCount]!.key;
  await revealRow(page, untouched);
  await expect(page.getByTestId(`bulk-cell-${untouched}-maximum_temperature`)).toHaveText('4 °C');

  // Export 5 elements (the last 5 of the list) to the other database.
  const exported = seeded.slice(elementCount - exportedCount);
  for (const row of exported) {
    await revealRow(page, row.key);
    await page.getByTestId(`bulk-check-${row.key}`).check();
  }
  await expect(page.getByTestId('bulk-counts')).toHaveText(
    `${elementCount} shown, ${exportedCount} checked`,
  );
  await page.getByTestId('bulk-export').click();
  const dialog = page.getByRole('dialog', { name: 'Export elements', exact: true });
  await expect(
    dialog.getByText(`${exportedCount} elements checked`, { exact: true }),
  ).toBeVisible();
  await dialog.getByTestId('bulk-export-target').click();
  await dialog.getByTestId('bulk-export-target').fill(targetName.slice(0, 20));
  await page.getByRole('option', { name: targetName, exact: true }).click();
  await dialog.getByTestId('bulk-export-submit').click();
  await expect(dialog.getByTestId('bulk-export-confirm-text')).toHaveText(
    `Export ${exportedCount} elements to ${targetName}? The grid is saved first.`,
  );
  // The copy call held back a moment, so the progress shows (the call itself goes through).
  await page.route('**/api/database/copyDatabaseElements', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await dialog.getByTestId('bulk-export-confirm').click();
  await expect(dialog.getByTestId('bulk-export-progress')).toHaveText('Export in progress...');
  await expect(dialog.getByTestId('bulk-export-summary')).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole('status').first()).toHaveText('The elements have been exported.');
  await expect(dialog.getByTestId('bulk-export-created')).toHaveText(
    `${exportedCount} copies created.`,
  );
  await page.unroute('**/api/database/copyDatabaseElements');
  await expectNoSeriousA11yViolations(page, 'bulk export, done');

  const copies = await readElements(api, targetId);
  expect(copies.map((row) => row.name).sort()).toEqual(exported.map((row) => row.name).sort());
  for (const copy of copies) expect(copy.maximum_temperature).toBe(4);

  // The target's bulk screen lists them.
  await dialog.getByTestId('bulk-export-close').click();
  await openGrid(page, `/bulkDatabaseElement?database=${targetId}`, copies[0]!.key);
  await expect(page.getByTestId('bulk-grid')).toHaveAttribute(
    'data-row-count',
    String(exportedCount),
  );
  for (const copy of copies)
    await expect(page.getByTestId(`bulk-cell-${copy.key}-name`)).toHaveText(copy.name);
});

/**
 * A database's task configuration with its name locked and "manager" unlocked, and a store of
 * that database: made through the API.
 */
async function seedLockedConfiguration(api: Api) {
  const databaseName = uniqueName('Bulk tasks');
  const databaseId = await createDatabase(api, databaseName);
  const configurationName = uniqueName('Ouverture');
  const { rows } = await api.post<{ rows: TaskRow[] }>(
    `/databases/${databaseId}/taskConfigurations/bulk`,
    {
      rows: [
        {
          key: 'new-1',
          id: null,
          values: {
            name: configurationName,
            module: 'actions',
            configuration: {
              actions: [
                { name: 'Ouvrir la chambre froide', requires_picture: false, attachments: [] },
              ],
            },
            schedules: [{ start: 480, end: 540 }],
          },
          locks: { name: true, requires_manager: false },
        },
      ],
    },
  );
  const storeName = uniqueName('Bulk store');
  const { store } = await api.post<{ store: { id: string } }>('/stores', {
    name: storeName,
    // Name and address are each unique among the distributor's stores.
    address: `${storeName}, rue du Marché`,
    postal_code: '75001',
    city: 'Paris',
    databaseId,
  });
  return { databaseId, storeId: store.id, configurationId: rows[0]!.id!, configurationName };
}

test("a store's bulk tasks show the values locked at the database read only", async ({ page }) => {
  const api = await apiSession(page.request);
  const { storeId, configurationId, configurationName } = await seedLockedConfiguration(api);
  const { rows } = await api.get<{ rows: TaskRow[] }>(`/stores/${storeId}/taskConfigurations/bulk`);
  const inherited = rows.find((row) => row.origin_id === configurationId);
  expect(inherited, 'the database configuration at the store').toBeDefined();
  const key = inherited!.key;

  await openGrid(page, `/bulkStoreTask?store=${storeId}`, key);
  await expect(page.getByTestId(`bulk-cell-${key}-name`)).toHaveText(configurationName);
  // The locked name: a lock mark, no editor, and a click opens nothing.
  await expect(page.getByTestId(`bulk-locked-${key}-name`)).toHaveAccessibleName(
    'Name: locked by the database',
  );
  await expect(page.getByTestId(`bulk-value-${key}-name`)).toHaveCount(0);
  await page.getByTestId(`bulk-cell-${key}-name`).click();
  await expect(page.getByTestId(`bulk-input-${key}-name`)).toHaveCount(0);
  // The unlocked "manager" column stays editable at the store.
  await expect(page.getByTestId(`bulk-locked-${key}-requires_manager`)).toHaveCount(0);
  await expect(page.getByTestId(`bulk-input-${key}-requires_manager`)).toBeEditable();
});

test('the bulk screens have no serious accessibility violations at 1280 and 390 px', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const api = await apiSession(page.request);
  const { databaseId, storeId, configurationId } = await seedLockedConfiguration(api);
  const [element] = await seedElements(api, databaseId, 3);
  const storeElements = await api.get<{ rows: ElementRow[] }>(`/stores/${storeId}/elements/bulk`);
  const storeTasks = await api.get<{ rows: TaskRow[] }>(
    `/stores/${storeId}/taskConfigurations/bulk`,
  );
  const screens = [
    {
      name: 'bulk database elements',
      path: `/bulkDatabaseElement?database=${databaseId}`,
      key: element!.key,
    },
    {
      name: 'bulk database tasks',
      path: `/bulkDatabaseTask?database=${databaseId}`,
      key: configurationId,
    },
    {
      name: 'bulk store elements',
      path: `/bulkStoreElement?store=${storeId}`,
      key: storeElements.rows[0]!.key,
    },
    {
      name: 'bulk store tasks',
      path: `/bulkStoreTask?store=${storeId}`,
      key: storeTasks.rows.find((row) => row.origin_id === configurationId)!.key,
    },
  ];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const screen of screens) {
      await openGrid(page, screen.path, screen.key);
      await expectNoSeriousA11yViolations(page, `${screen.name} at ${width} px`);
    }
  }
});

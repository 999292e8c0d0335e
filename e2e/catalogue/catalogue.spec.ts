import { login } from '../support/auth';
import {
  catalogueAllergens,
  celsius,
  demoCatalogue,
  elementRow,
  fillTemperature,
  pickMultiOptions,
  saveElement,
  uniqueElementName,
} from '../support/catalogue';
import { demoPassword, demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';
import { pickOption } from '../support/organisation';
import { downloadedPdfText } from '../support/pdf';

test.use({ signedInAs: 'distributor' });

test('a distributor locks the maximum temperature and opens the minimum; a store owner overrides the minimum only, and the allergens PDF lists the element', async ({
  page,
  newSignedOutContext,
}) => {
  test.setTimeout(120_000);
  const elementName = uniqueElementName('E2E Sorbet');
  const { egg, celery } = catalogueAllergens;

  // 1. The distributor creates the element in the demo database.
  await page.goto('/home');
  await page.getByTestId('nav-databases').click();
  await expect(page).toHaveURL(/\/databases$/);
  await page
    .locator(`[data-testid="database-card"][aria-label="${demoCatalogue.databaseName}"]`)
    .click();
  await expect(page).toHaveURL(/\/database\?id=[0-9a-f-]{36}/);
  await expect(page.getByTestId('page-title')).toHaveText(demoCatalogue.databaseName);
  const databaseId = new URL(page.url()).searchParams.get('id')!;
  await page.getByTestId('database-tab-elements').click();
  await expect(page.getByTestId('element-list')).toBeVisible();
  await page.getByTestId('elements-new').click();
  await expect(page).toHaveURL(`/databaseElement?database=${databaseId}`);
  await expect(page.getByTestId('element-duplicate')).toHaveCount(0);

  await page.getByTestId('field-name').fill(elementName);
  await expect(page.getByTestId('page-title')).toHaveText(elementName);
  await pickOption(page, page.getByTestId('field-type_id'), demoCatalogue.typeName);

  await page.getByTestId('element-tab-temperatures').click();
  const minimum = page.getByTestId('field-minimum_temperature');
  const maximum = page.getByTestId('field-maximum_temperature');
  await fillTemperature(minimum, 2);
  await fillTemperature(maximum, 6);
  // A minus sign typed over a selected value stays (issue 13): a real browser's selection.
  await maximum.selectText();
  await page.keyboard.type('-15');
  await expect(maximum).toHaveValue(celsius(-15));
  await fillTemperature(maximum, 6);
  // New elements start with every field locked: open the minimum, keep the maximum locked.
  const minimumLock = page.getByTestId('lock-minimum_temperature');
  const maximumLock = page.getByTestId('lock-maximum_temperature');
  await expect(minimumLock).toHaveAttribute('aria-pressed', 'true');
  await expect(maximumLock).toHaveAttribute('aria-pressed', 'true');
  await minimumLock.click();
  await expect(minimumLock).toHaveAttribute('aria-pressed', 'false');
  await expect(minimumLock).toHaveAttribute('aria-label', 'Unlocked: stores may change this field');
  await expect(maximumLock).toHaveAttribute('aria-pressed', 'true');

  await page.getByTestId('element-tab-recipe').click();
  await pickMultiOptions(page, page.getByTestId('field-allergens'), [egg.option, celery.option]);

  await saveElement(page);
  await expect(page).toHaveURL(/\/databaseElement\?id=[0-9a-f-]{36}$/);
  const databaseElementUrl = page.url();
  await expect(page.getByTestId('element-duplicate')).toBeVisible();

  await page.getByTestId('element-back').click();
  await expect(page).toHaveURL(`/database?id=${databaseId}&tab=1`);
  await page.getByTestId('elements-search').fill(elementName);
  const databaseRow = elementRow(page, elementName);
  await expect(databaseRow).toHaveCount(1);
  await expect(page.getByTestId('element-row')).toHaveCount(1);
  await expect(databaseRow.getByTestId('element-row-type')).toHaveText(demoCatalogue.typeName);
  await expect(databaseRow.getByTestId('element-row-temperatures')).toHaveText('2 °C to 6 °C');
  await expect(databaseRow.getByTestId('element-row-allergens')).toHaveText(
    `${egg.letter}${celery.letter}`,
  );
  await expect(databaseRow.getByTestId('element-row-origin')).toHaveCount(0);

  // 2. The store owner sees the element in an owned store of that database and overrides the minimum.
  const customerContext = await newSignedOutContext();
  const customerPage = await customerContext.newPage();
  await login(customerPage, demoUsers.customer.email, demoPassword);
  await customerPage.getByTestId('nav-stores').click();
  await expect(customerPage).toHaveURL(/\/stores$/);
  await customerPage
    .locator(`[data-testid="store-card"][aria-label="${demoCatalogue.customerStoreName}"]`)
    .click();
  await expect(customerPage).toHaveURL(/\/storeDatabase\?id=[0-9a-f-]{36}$/);
  const storeId = new URL(customerPage.url()).searchParams.get('id')!;
  await expect(customerPage.getByTestId('page-title')).toHaveText(demoCatalogue.customerStoreName);
  await expect(customerPage.getByTestId('page-subtitle')).toHaveText(demoCatalogue.databaseName);
  await customerPage.getByTestId('store-tab-elements').click();
  await expect(customerPage.getByTestId('element-tab-temperature')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(customerPage.getByTestId('elements-expert')).toHaveCount(0);
  await customerPage.getByTestId('elements-search').fill(elementName);
  const storeRow = elementRow(customerPage, elementName);
  await expect(storeRow).toHaveCount(1);
  await expect(storeRow.getByTestId('element-row-origin')).toHaveAttribute(
    'data-origin',
    'inherited',
  );
  await expect(storeRow.getByTestId('element-row-origin')).toHaveText('From the database');
  await expect(storeRow.getByTestId('element-row-temperatures')).toHaveText('2 °C to 6 °C');
  await storeRow.click();
  await expect(customerPage).toHaveURL(/\/storeElement\?store=[0-9a-f-]{36}&origin=[0-9a-f-]{36}$/);
  await expect(customerPage.getByTestId('page-title')).toHaveText(elementName);

  await customerPage.getByTestId('element-tab-temperatures').click();
  const storeMinimum = customerPage.getByTestId('field-minimum_temperature');
  const storeMaximum = customerPage.getByTestId('field-maximum_temperature');
  await expect(storeMaximum).toHaveValue(celsius(6));
  await expect(storeMaximum).toHaveAttribute('readonly', '');
  await expect(storeMaximum).not.toBeEditable();
  await expect(customerPage.getByTestId('locked-maximum_temperature')).toBeVisible();
  await expect(customerPage.getByTestId('locked-maximum_temperature')).toHaveAttribute(
    'aria-label',
    'Locked by the database',
  );
  await expect(storeMinimum).toHaveValue(celsius(2));
  await expect(storeMinimum).toBeEditable();
  await expect(customerPage.getByTestId('inherited-minimum_temperature')).toBeVisible();
  await expect(customerPage.getByTestId('locked-minimum_temperature')).toHaveCount(0);

  await fillTemperature(storeMinimum, 3);
  await expect(customerPage.getByTestId('reset-minimum_temperature')).toBeVisible();
  await saveElement(customerPage);
  // The first save makes the store's own copy: the screen now names it.
  await expect(customerPage).toHaveURL(/\/storeElement\?id=[0-9a-f-]{36}$/);
  const storeElementUrl = customerPage.url();

  await customerPage.reload();
  await expect(customerPage.getByTestId('page-title')).toHaveText(elementName);
  await customerPage.getByTestId('element-tab-temperatures').click();
  await expect(storeMinimum).toHaveValue(celsius(3));
  await expect(customerPage.getByTestId('reset-minimum_temperature')).toBeVisible();
  await expect(storeMaximum).toHaveValue(celsius(6));
  await expect(storeMaximum).not.toBeEditable();
  await expect(customerPage.getByTestId('locked-maximum_temperature')).toBeVisible();

  await customerPage.getByTestId('element-back').click();
  await expect(customerPage).toHaveURL(new RegExp(`/storeDatabase\\?id=${storeId}&tab=1`));
  await expect(customerPage.getByTestId('elements-search')).toHaveValue(elementName);
  await expect(storeRow).toHaveCount(1);
  await expect(storeRow.getByTestId('element-row-origin')).toHaveAttribute(
    'data-origin',
    'overridden',
  );
  await expect(storeRow.getByTestId('element-row-origin')).toHaveText('Overridden');
  await expect(storeRow.getByTestId('element-row-temperatures')).toHaveText('3 °C to 6 °C');
  const storeElementPath = new URL(storeElementUrl);
  await expect(storeRow).toHaveAttribute(
    'href',
    storeElementPath.pathname + storeElementPath.search,
  );

  // 3. The database element kept its minimum; its maximum changes and the store follows.
  await page.goto(databaseElementUrl);
  await expect(page.getByTestId('page-title')).toHaveText(elementName);
  await page.getByTestId('element-tab-temperatures').click();
  await expect(minimum).toHaveValue(celsius(2));
  await expect(maximum).toHaveValue(celsius(6));
  await expect(minimumLock).toHaveAttribute('aria-pressed', 'false');
  await expect(maximumLock).toHaveAttribute('aria-pressed', 'true');
  await fillTemperature(maximum, 7);
  await saveElement(page);
  await page.reload();
  await page.getByTestId('element-tab-temperatures').click();
  await expect(maximum).toHaveValue(celsius(7));
  await expect(minimum).toHaveValue(celsius(2));

  await customerPage.goto(storeElementUrl);
  await expect(customerPage.getByTestId('page-title')).toHaveText(elementName);
  await customerPage.getByTestId('element-tab-temperatures').click();
  await expect(storeMaximum).toHaveValue(celsius(7));
  await expect(storeMaximum).not.toBeEditable();
  await expect(storeMinimum).toHaveValue(celsius(3));
  await expect(customerPage.getByTestId('reset-minimum_temperature')).toBeVisible();

  // 4. The store's allergens screen lists the element under its type; so does its PDF.
  await customerPage.getByTestId('element-back').click();
  await expect(storeRow.getByTestId('element-row-temperatures')).toHaveText('3 °C to 7 °C');
  await customerPage.getByTestId('elements-allergens').click();
  await expect(customerPage).toHaveURL(`/allergens?store=${storeId}`);
  await expect(customerPage.getByTestId('page-title')).toHaveText(demoCatalogue.customerStoreName);
  const allergenRow = customerPage.getByTestId('allergen-row').filter({ hasText: elementName });
  await expect(allergenRow).toHaveCount(1);
  // Its group is the nearest group row above it.
  await expect(
    allergenRow.locator('xpath=preceding-sibling::tr[@data-testid="allergen-group"][1]'),
  ).toHaveText(demoCatalogue.typeName);
  const carried = allergenRow.locator('[data-carried="true"]');
  await expect(carried).toHaveCount(2);
  await expect(allergenRow.getByTestId(`allergen-cell-${egg.letter}`)).toHaveAttribute(
    'data-carried',
    'true',
  );
  await expect(allergenRow.getByTestId(`allergen-cell-${celery.letter}`)).toHaveAttribute(
    'data-carried',
    'true',
  );
  await expect(allergenRow.getByRole('img', { name: /Eggs/ })).toBeVisible();

  const downloadPromise = customerPage.waitForEvent('download');
  await customerPage.getByTestId('allergens-pdf').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(await download.failure()).toBeNull();
  expect(await downloadedPdfText(download)).toContain(elementName);
  await expect(customerPage.getByTestId('allergens-pdf-progress')).toHaveCount(0);
  await expect(customerPage.getByTestId('notice-error')).toHaveCount(0);

  // The database's allergens screen lists it too, from the database screen's button.
  await page.goto(`/database?id=${databaseId}`);
  await page.getByTestId('database-allergens').click();
  await expect(page).toHaveURL(`/allergens?database=${databaseId}`);
  const databaseAllergenRow = page.getByTestId('allergen-row').filter({ hasText: elementName });
  await expect(databaseAllergenRow).toHaveCount(1);
  await expect(databaseAllergenRow.locator('[data-carried="true"]')).toHaveCount(2);
});

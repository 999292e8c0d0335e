import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { demoCatalogue } from '../support/catalogue';
import { uniqueContentName } from '../support/content';
import { demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';

/*
 * The distributor's shop (issue 19, spec 001 §2.1, §2.3, §2.10, §5, §8): the demo distributor
 * adds an item on /shop (a new card: active, price 100), gives one of its databases a price of
 * its own in the per-database prices (the price-updated toast), sees it on that database's Shop
 * tab while another database keeps the default, and resets it; the manager sees the tab
 * read-only; an order placed through the API shows in the Orders tab. Axe at desktop and 390 px.
 *
 * The demo data stays usable: the item has a name of its own and ends inactive, the price is
 * reset, the second database is the one this spec keeps for itself (created on the first run),
 * and the order is for Lyon Bellecour (Paris Opéra is the tablet journeys' store).
 */

test.use({ signedInAs: 'distributor' });

/** The distributor's second database, the one keeping the default price. */
const secondDatabaseName = 'E2E shop second database';
/** The store of the demo database the API order is for (not the tablet journeys' store). */
const orderStoreName = 'Bistro Lyon Bellecour';
const overridePrice = 12.5;
const phone = { width: 390, height: 844 } as const;

type Api = Awaited<ReturnType<typeof apiSession>>;

/** The distributor's databases by name: the demo one, and the second one (made when missing). */
async function distributorDatabases(api: Api): Promise<{ demo: string; second: string }> {
  const list = async () =>
    (await api.get<{ items: { id: string; name: string }[] }>('/databases')).items;
  let items = await list();
  if (!items.some((item) => item.name === secondDatabaseName)) {
    await api.post('/databases', { name: secondDatabaseName });
    items = await list();
  }
  const demo = items.find((item) => item.name === demoCatalogue.databaseName);
  const second = items.find((item) => item.name === secondDatabaseName);
  expect(demo, demoCatalogue.databaseName).toBeDefined();
  expect(second, secondDatabaseName).toBeDefined();
  return { demo: demo!.id, second: second!.id };
}

/** A shop card (item) by its name, on /shop or a database's Shop tab. */
function shopCard(page: Page, name: string): Locator {
  return page.locator(`[data-testid="shop-item-card"][aria-label="${name}"]`);
}

/** The page's full width: more than the viewport means a horizontal scroll. */
function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

function notice(page: Page, text: string): Locator {
  return page.getByTestId('notice-success').filter({ hasText: text });
}

/** Opens a database's screen on its Shop tab (tab index 5) and answers the item's card. */
async function openDatabaseShop(page: Page, databaseId: string, itemName: string) {
  await page.goto(`/database?id=${databaseId}`);
  await page.getByTestId('database-tab-shop').click();
  await expect(page).toHaveURL(/[?&]tab=5(&|$)/);
  await expect(page.getByTestId('database-shop')).toBeVisible();
  const card = shopCard(page, itemName);
  await expect(card).toBeVisible();
  return card;
}

/** The per-database prices of an item, opened from its card's Price button. */
async function openPrices(page: Page, itemName: string): Promise<Locator> {
  await shopCard(page, itemName).getByTestId('shop-item-prices').click();
  const dialog = page.getByRole('dialog', { name: `Prices per database: ${itemName}` });
  await expect(dialog.getByTestId('shop-prices-table')).toBeVisible();
  return dialog;
}

test('the distributor adds a shop item, prices it for one database, sees it on the database Shop tab (the manager read-only), and an order shows in the Orders tab', async ({
  page,
  browser,
  sessionStateOf,
}, testInfo) => {
  test.setTimeout(90_000);
  const api = await apiSession(page.request);
  const databases = await distributorDatabases(api);
  const name = uniqueContentName('E2E shop item');
  const description = 'Boîte de 100 gants nitrile, taille M';

  /* ---------- 1. /shop: a new card, active at 100 €, named and saved ---------- */
  await page.goto('/shop');
  await expect(page.getByRole('heading', { name: 'Shop', level: 1 })).toBeVisible();
  await expect(page.getByTestId('shop-tab-items')).toHaveAttribute('aria-selected', 'true');
  const cards = page.getByTestId('shop-item-card');
  const before = await cards.count();
  await page.getByTestId('shop-item-add').click();
  await expect(cards).toHaveCount(before + 1);
  const card = cards.last();
  await expect(card.getByTestId('shop-item-active')).toBeChecked();
  await expect(card.getByTestId('shop-item-price')).toHaveValue('100 €');
  // Not saved yet: no per-database prices.
  await expect(card.getByTestId('shop-item-prices')).toBeDisabled();
  await card.getByTestId('shop-item-name').fill(name);
  await card.getByTestId('shop-item-description').fill(description);
  await page.getByTestId('shop-save').click();
  await expect(notice(page, 'Saved successfully.')).toBeVisible();
  // Read again from the server.
  await page.reload();
  const saved = shopCard(page, name);
  await expect(saved.getByTestId('shop-item-description')).toHaveValue(description);
  await expect(saved.getByTestId('shop-item-price')).toHaveValue('100 €');
  await expect(saved.getByTestId('shop-item-active')).toBeChecked();
  await expect(saved.getByTestId('shop-item-prices')).toBeEnabled();
  await expectNoSeriousA11yViolations(page, 'shop (desktop)');

  /* ---------- 2. A price of its own for the demo database only ---------- */
  let dialog = await openPrices(page, name);
  const demoPrice = dialog.getByRole('textbox', {
    name: `Price for ${demoCatalogue.databaseName}`,
    exact: true,
  });
  const secondPrice = dialog.getByRole('textbox', {
    name: `Price for ${secondDatabaseName}`,
    exact: true,
  });
  // Both follow the distributor's price (empty, the default as placeholder).
  await expect(demoPrice).toHaveValue('');
  await expect(demoPrice).toHaveAttribute('placeholder', '€100.00');
  await expect(secondPrice).toHaveValue('');
  await expectNoSeriousA11yViolations(page, 'shop prices per database');
  await demoPrice.fill(String(overridePrice));
  await dialog.getByTestId('shop-prices-apply').click();
  await expect(notice(page, 'Price updated.')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The modal reads the saved prices again.
  dialog = await openPrices(page, name);
  await expect(demoPrice).toHaveValue('12.5 €');
  await expect(secondPrice).toHaveValue('');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  /* ---------- 3. The databases' Shop tab: 12.5 for the demo one, the default elsewhere ---------- */
  let databaseCard = await openDatabaseShop(page, databases.demo, name);
  await expect(databaseCard.getByTestId('shop-item-price')).toHaveValue('12.5 €');
  await expect(databaseCard.getByTestId('shop-item-description')).toHaveValue(description);
  await expect(page.getByTestId('database-shop-save')).toBeVisible();
  await expect(databaseCard.getByTestId('shop-item-name')).toBeEditable();
  await expectNoSeriousA11yViolations(page, 'database shop tab');
  databaseCard = await openDatabaseShop(page, databases.second, name);
  await expect(databaseCard.getByTestId('shop-item-price')).toHaveValue('100 €');

  /* ---------- 4. The manager: the same tab, read-only ---------- */
  const { baseURL, locale, viewport } = testInfo.project.use;
  const managerContext = await browser.newContext({
    baseURL,
    locale,
    viewport,
    storageState: await sessionStateOf('manager'),
  });
  try {
    const managerPage = await managerContext.newPage();
    const managerCard = await openDatabaseShop(managerPage, databases.demo, name);
    await expect(managerPage.getByTestId('database-shop-read-only')).toHaveText(
      'Only the distributor and administrators change the shop.',
    );
    await expect(managerPage.getByTestId('database-shop-save')).toHaveCount(0);
    await expect(managerPage.getByTestId('shop-item-add')).toHaveCount(0);
    await expect(managerCard.getByTestId('shop-item-price')).toHaveValue('12.5 €');
    await expect(managerCard.getByTestId('shop-item-name')).not.toBeEditable();
    await expect(managerCard.getByTestId('shop-item-description')).not.toBeEditable();
    await expect(managerCard.getByTestId('shop-item-price')).not.toBeEditable();
    await expect(managerCard.getByTestId('shop-item-active')).toBeDisabled();
    await expect(managerCard.getByTestId('shop-item-move-left')).toBeDisabled();
  } finally {
    await managerContext.close();
  }

  /* ---------- 5. An order through the API, at the database's price; the Orders tab ---------- */
  const { items: stores } = await api.get<{
    items: { id: string; name: string; database: string | null }[];
  }>('/stores', { search: 'Bellecour' });
  const store = stores.find((item) => item.name === orderStoreName);
  expect(store?.database, orderStoreName).toBe(databases.demo);
  const storeShop = await api.get<{
    available: boolean;
    items: { id: string; name: string; price: number }[];
  }>(`/stores/${store!.id}/shop`);
  expect(storeShop.available).toBe(true);
  const orderable = storeShop.items.find((item) => item.name === name);
  expect(orderable?.price).toBe(overridePrice);
  const note = `E2E order ${randomUUID().slice(0, 8)}`;
  const body = {
    idempotency_key: randomUUID(),
    lines: [{ item_id: orderable!.id, quantity: 2 }],
    note,
  };
  type OrderResponse = { order: { id: string; total: number; store_name: string } };
  const { order } = await api.post<OrderResponse>(`/stores/${store!.id}/shop/orders`, body);
  expect(order.total).toBe(25);
  // The same key again: the same order, recorded once.
  const again = await api.post<OrderResponse>(`/stores/${store!.id}/shop/orders`, body);
  expect(again.order.id).toBe(order.id);

  await page.goto('/shop');
  await page.getByTestId('shop-tab-orders').click();
  await expect(page).toHaveURL(/[?&]tab=orders(&|$)/);
  const rows = page.getByTestId('shop-order-row').filter({ hasText: note });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(orderStoreName);
  await expect(rows).toContainText(demoCatalogue.databaseName);
  await expect(rows).toContainText(`2 × ${name} (€12.50)`);
  await expect(rows).toContainText('€25.00');
  await expect(rows).toContainText(
    `by ${demoUsers.distributor.name} ${demoUsers.distributor.surname}`,
  );
  // Newest first.
  await expect(page.getByTestId('shop-order-row').first()).toContainText(note);
  await expectNoSeriousA11yViolations(page, 'shop orders (desktop)');

  /* ---------- 6. At 390 px: orders and items fit, no serious axe violation ---------- */
  await page.setViewportSize(phone);
  await expect(rows).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(phone.width);
  await expectNoSeriousA11yViolations(page, 'shop orders (390 px)');
  await page.getByTestId('shop-tab-items').click();
  await expect(shopCard(page, name)).toBeVisible();
  await expect(page.getByTestId('shop-save')).toBeInViewport();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(phone.width);
  await expectNoSeriousA11yViolations(page, 'shop (390 px)');

  /* ---------- 7. Reset (at 390 px): the default price again ---------- */
  dialog = await openPrices(page, name);
  await expect(demoPrice).toHaveValue('12.5 €');
  await expectNoSeriousA11yViolations(page, 'shop prices per database (390 px)');
  await dialog
    .locator(`[data-testid="shop-price-row"][data-database-id="${databases.demo}"]`)
    .getByRole('button', { name: 'Reset to €100.00', exact: true })
    .click();
  await expect(demoPrice).toHaveValue('');
  await dialog.getByTestId('shop-prices-apply').click();
  await expect(notice(page, 'Price updated.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.setViewportSize(viewport!);
  databaseCard = await openDatabaseShop(page, databases.demo, name);
  await expect(databaseCard.getByTestId('shop-item-price')).toHaveValue('100 €');
  const afterReset = await api.get<{ items: { name: string; price: number }[] }>(
    `/stores/${store!.id}/shop`,
  );
  expect(afterReset.items.find((item) => item.name === name)?.price).toBe(100);

  /* ---------- 8. Deactivated: no longer orderable (and out of the other journeys' way) ---------- */
  await page.goto('/shop');
  const active = shopCard(page, name).getByRole('switch', { name: 'Active', exact: true });
  await active.uncheck();
  await expect(active).not.toBeChecked();
  await page.getByTestId('shop-save').click();
  await expect(notice(page, 'Saved successfully.')).toBeVisible();
  const afterDeactivation = await api.get<{ items: { name: string }[] }>(
    `/stores/${store!.id}/shop`,
  );
  expect(afterDeactivation.items.map((item) => item.name)).not.toContain(name);
});

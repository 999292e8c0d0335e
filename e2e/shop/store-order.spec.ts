import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { uniqueContentName } from '../support/content';
import { demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';
import { readMails } from '../support/mail';

/*
 * A store orders from the back-office (issue 19): the demo customer, owner of Bistro Lyon
 * Bellecour, opens the store's Shop tab, chooses quantities with the steppers, adds a note,
 * confirms and sends; the order is e-mailed to the distributor's shop e-mail, listed in the
 * store's past orders and in the distributor's Orders tab; the demo manager (the store is not
 * manager-owned) reads the orders without the order form. Axe at desktop and 390 px.
 *
 * The demo data stays usable: the item has a name of its own and ends inactive; the shop
 * e-mail is the one the tablet journey uses.
 */

test.use({ signedInAs: 'customer' });

const storeName = 'Bistro Lyon Bellecour';
const distributorName = 'Mise Distribution France';
const shopEmail = 'orders@shop.e2e.test';
const phone = { width: 390, height: 844 } as const;

type ShopItem = {
  id: string;
  version: number;
  active: boolean;
  name: string;
  description: string;
  price: number;
  illustration_path: string | null;
};
type DistributorShop = {
  distributor: { id: string; shop_email: string | null };
  items: ShopItem[];
};

const asInput = (item: ShopItem) => ({
  id: item.id,
  version: item.version,
  active: item.active,
  name: item.name,
  description: item.description,
  price: item.price,
  illustration_path: item.illustration_path,
});

function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test('a store owner orders from the back-office Shop tab; the distributor gets the e-mail and sees the order', async ({
  page,
  browser,
  sessionStateOf,
}, testInfo) => {
  test.setTimeout(90_000);
  const { baseURL, locale, viewport } = testInfo.project.use;
  const contextOf = async (role: 'distributor' | 'manager') =>
    browser.newContext({ baseURL, locale, viewport, storageState: await sessionStateOf(role) });

  /* ---------- 0. The distributor's shop: an item of this journey's own, and the e-mail ---------- */
  const distributorContext = await contextOf('distributor');
  const itemName = uniqueContentName('E2E store order item');
  const note = `Back-office order ${Date.now().toString(36)}`;
  try {
    const distributorApi = await apiSession(distributorContext.request);
    const { csrfToken } = (await (
      await distributorContext.request.get('/api/auth/csrf')
    ).json()) as { csrfToken: string };
    /** Reads the distributor's shop and saves what `change` makes of it. */
    const saveShop = async (change: (shop: DistributorShop) => unknown) => {
      const { shop } = await distributorApi.get<{ shop: DistributorShop }>('/shop');
      const response = await distributorContext.request.put(
        `/api/distributors/${shop.distributor.id}/shop`,
        { data: change(shop), headers: { 'x-csrf-token': csrfToken, origin: baseURL! } },
      );
      expect(response.ok(), await response.text()).toBe(true);
    };
    await saveShop((shop: DistributorShop) => ({
      shop_email: shopEmail,
      items: [
        ...shop.items.map(asInput),
        {
          active: true,
          name: itemName,
          description: 'Sacs poubelle 100 L',
          price: 7.5,
          illustration_path: null,
        },
      ],
    }));

    /* ---------- 1. The owner opens the store's Shop tab ---------- */
    const api = await apiSession(page.request);
    const { items: stores } = await api.get<{ items: { id: string; name: string }[] }>('/stores', {
      search: 'Bellecour',
    });
    const store = stores.find((item) => item.name === storeName);
    expect(store, storeName).toBeDefined();
    await page.goto(`/storeDatabase?id=${store!.id}`);
    await page.getByTestId('store-tab-shop').click();
    await expect(page).toHaveURL(/[?&]tab=6(&|$)/);
    await expect(page.getByRole('heading', { name: 'Your order', level: 2 })).toBeVisible();
    const card = page.getByTestId('store-shop-item').filter({ hasText: itemName });
    await expect(card).toContainText('€7.50 per unit');
    await expect(page.getByTestId('store-shop-send')).toBeDisabled();

    /* ---------- 2. Quantities, total, note; confirm and send ---------- */
    const more = card.getByRole('button', { name: `One more: ${itemName}`, exact: true });
    await more.click();
    await more.click();
    await more.click();
    await more.click();
    await card.getByRole('button', { name: `One less: ${itemName}`, exact: true }).click();
    await expect(card.getByRole('textbox', { name: `Quantity of ${itemName}` })).toHaveValue('3');
    const basket = page.getByTestId('store-shop-basket');
    await expect(basket.getByTestId('store-shop-basket-line')).toHaveText([
      `3 × ${itemName}€22.50`,
    ]);
    await expect(page.getByTestId('store-shop-total')).toHaveText('€22.50');
    await page.getByTestId('store-shop-note').fill(note);
    await expectNoSeriousA11yViolations(page, 'store shop tab (desktop)');

    await page.getByTestId('store-shop-send').click();
    const dialog = page.getByRole('dialog', { name: 'Send the order?' });
    await expect(dialog).toContainText(`Send the order of 3 items (€22.50) to ${distributorName}?`);
    await dialog.getByTestId('confirm-dialog-confirm').click();
    await expect(
      page.getByTestId('notice-success').filter({ hasText: `Order sent to ${distributorName}.` }),
    ).toBeVisible();
    await expect(page.getByTestId('store-shop-total')).toHaveText('€0.00');

    /* ---------- 3. The store's past orders: newest first, who, what, total, status ---------- */
    const row = page.getByTestId('shop-order-row').filter({ hasText: note });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('shop-order-row').first()).toContainText(note);
    await expect(row).toContainText(`by ${demoUsers.customer.name} ${demoUsers.customer.surname}`);
    await expect(row).toContainText(`3 × ${itemName} (€7.50)`);
    await expect(row).toContainText('€22.50');
    await expect(row).toContainText('Sent');

    /* ---------- 4. The e-mail to the distributor's shop e-mail ---------- */
    await expect
      .poll(
        () =>
          readMails().find((mail) => mail.to.includes(shopEmail) && mail.text.includes(note)) !==
          undefined,
        { message: `the order e-mail to ${shopEmail}`, timeout: 10_000 },
      )
      .toBe(true);
    const mail = readMails().find((entry) => entry.text.includes(note))!;
    expect(mail.subject).toContain(storeName);
    expect(mail.text).toContain(`3 × ${itemName}`);
    expect(mail.text).toContain(`${demoUsers.customer.name} ${demoUsers.customer.surname}`);

    /* ---------- 5. At 390 px: the tab fits, no serious axe violation ---------- */
    await page.setViewportSize(phone);
    await expect(card).toBeVisible();
    await expect(page.getByTestId('store-shop-send')).toBeAttached();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(phone.width);
    await expectNoSeriousA11yViolations(page, 'store shop tab (390 px)');
    await page.setViewportSize(viewport!);

    /* ---------- 6. The distributor's Orders tab lists it ---------- */
    const distributorPage = await distributorContext.newPage();
    await distributorPage.goto('/shop?tab=orders');
    const distributorRow = distributorPage.getByTestId('shop-order-row').filter({ hasText: note });
    await expect(distributorRow).toHaveCount(1);
    await expect(distributorRow).toContainText(storeName);
    await expect(distributorRow).toContainText(
      `by ${demoUsers.customer.name} ${demoUsers.customer.surname}`,
    );
    await expect(distributorRow).toContainText('€22.50');

    /* ---------- 7. The manager: the store is not manager-owned, its orders read-only ---------- */
    const managerContext = await contextOf('manager');
    try {
      const managerPage = await managerContext.newPage();
      await managerPage.goto(`/storeDatabase?id=${store!.id}&tab=6`);
      await expect(managerPage.getByTestId('store-shop-read-only')).toBeVisible();
      await expect(managerPage.getByTestId('store-shop-send')).toHaveCount(0);
      await expect(managerPage.getByTestId('shop-order-row').filter({ hasText: note })).toHaveCount(
        1,
      );
      await expectNoSeriousA11yViolations(managerPage, 'store shop tab (read-only manager)');
    } finally {
      await managerContext.close();
    }

    /* ---------- 8. The item ends inactive (out of the other journeys' way) ---------- */
    await saveShop((shop: DistributorShop) => ({
      shop_email: shop.distributor.shop_email,
      items: shop.items.map((item) =>
        item.name === itemName ? { ...asInput(item), active: false } : asInput(item),
      ),
    }));
  } finally {
    await distributorContext.close();
  }
});

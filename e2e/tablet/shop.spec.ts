import { expectNoSeriousA11yViolations } from '../support/a11y';
import {
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identifyPastTrainingsPrompt,
  pairTablet,
  test,
  waitForServiceWorker,
} from '../support/tablet';

/*
 * The store's shop on the tablet (issue 19): an employee whose role grants the shop orders
 * supplies from the distributor's shop, once online and once during a network cut; the
 * distributor's orders list has each order exactly once. At phone width.
 */

test.use({ viewport: { width: 390, height: 844 } });

test('an employee orders from the shop on the tablet, online and during a network cut; each order is recorded once', async ({
  page,
  context,
  admin,
}, testInfo) => {
  test.setTimeout(120_000);
  const { api } = admin;
  const put = async (path: string, data: unknown) => {
    const response = await api.request.put(`/api${path}`, { data, headers: api.headers });
    expect(response.ok(), `PUT ${path}: ${await response.text()}`).toBe(true);
    return response.json();
  };
  const store = await demoStore(api);
  const { store: detail } = await api.get<{
    store: { distributor: string; database: string };
  }>(`/stores/${store.id}`);

  // The distributor's shop: two items (and its e-mail).
  type Item = {
    id: string;
    version: number;
    active: boolean;
    name: string;
    description: string;
    price: number;
    illustration_path: string | null;
  };
  const { shop } = await api.get<{ shop: { items: Item[] } }>(
    `/distributors/${detail.distributor}/shop`,
  );
  const suffix = Date.now().toString(36);
  const gloves = `E2E gloves ${suffix}`;
  const apron = `E2E apron ${suffix}`;
  // A 2×2 red PNG as the gloves' picture.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
    'base64',
  );
  const uploaded = await api.request.post(
    `/api/distributors/${detail.distributor}/shop/illustrations`,
    {
      headers: api.headers,
      multipart: { file: { name: 'gloves.png', mimeType: 'image/png', buffer: png } },
    },
  );
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const picture = (await uploaded.json()) as { path: string };
  await put(`/distributors/${detail.distributor}/shop`, {
    shop_email: 'orders@shop.e2e.test',
    items: [
      ...shop.items.map((item) => ({
        id: item.id,
        version: item.version,
        active: item.active,
        name: item.name,
        description: item.description,
        price: item.price,
        illustration_path: item.illustration_path,
      })),
      {
        active: true,
        name: gloves,
        description: 'Box of 100, size M',
        price: 12.5,
        illustration_path: picture.path,
      },
      { active: true, name: apron, description: '', price: 4, illustration_path: null },
    ],
  });

  // Lucas's role (Cuisinier) grants the shop.
  const roles = await api.get<{
    items: { id: string; name: string; active: boolean; features_permissions: object }[];
  }>(`/databases/${detail.database}/employeeRoles`);
  await put(`/databases/${detail.database}/employeeRoles`, {
    roles: roles.items.map((role) => ({
      id: role.id,
      name: role.name,
      active: role.active,
      features_permissions:
        role.name === 'Cuisinier'
          ? { ...role.features_permissions, shop: true }
          : role.features_permissions,
    })),
  });

  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} shop`);
  await identifyPastTrainingsPrompt(page, demoTablet.employee, demoTablet.pin);
  await page.getByRole('button', { name: 'Shop', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Shop', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: `One more: ${gloves}` }).click();
  await page.getByRole('button', { name: `One more: ${gloves}` }).click();
  await page.getByRole('textbox', { name: `Quantity of ${apron}` }).fill('3');
  await expect(page.getByTestId('shop-total')).toHaveText('€37.00');
  await expect(page.getByText('5 items · €37.00')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expect(page.locator('.shop-item__picture img')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('phone-basket.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page, 'tablet shop (phone)');

  await page.getByRole('button', { name: 'See the basket' }).click();
  await page.getByRole('button', { name: 'Send the order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this order?' });
  await expect(dialog).toContainText('5 items for €37.00');
  await expectNoSeriousA11yViolations(page, 'tablet shop confirmation');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    page.getByText('Order sent (5 items, €37.00). The distributor receives it by e-mail.'),
  ).toBeVisible();

  // A network cut: the order waits on the tablet (a reload too), then goes once.
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await page.getByRole('button', { name: `One more: ${apron}` }).click();
  await page.getByRole('button', { name: 'Send the order' }).click();
  await page
    .getByRole('dialog', { name: 'Send this order?' })
    .getByRole('button', { name: 'Send', exact: true })
    .click();
  await expect(page.getByText(/^Order kept on this tablet \(1 item, €4\.00\)/)).toBeVisible();
  await page.reload();
  await context.setOffline(false);
  await expect(page.getByTestId('network-indicator')).toHaveText('Online', { timeout: 15_000 });
  type Orders = {
    items: {
      store_name: string;
      total: number;
      lines: { name: string }[];
      ordered_by: { name: string } | null;
    }[];
  };
  // This journey's orders: those of its own items (other journeys may order for the store too).
  const journeyOrders = async () =>
    (
      await api.get<Orders>(`/distributors/${detail.distributor}/shop/orders`, { limit: '100' })
    ).items.filter((order) =>
      order.lines.some((line) => line.name === gloves || line.name === apron),
    );
  await expect.poll(async () => (await journeyOrders()).length, { timeout: 15_000 }).toBe(2);
  const ours = await journeyOrders();
  expect(ours.map((order) => order.store_name)).toEqual([
    demoTablet.storeName,
    demoTablet.storeName,
  ]);
  expect(ours.map((order) => order.total)).toEqual([4, 37]);
  expect(ours.map((order) => order.ordered_by?.name)).toEqual(['Lucas', 'Lucas']);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Shop', exact: true }).click();
  await page.getByRole('button', { name: `One more: ${gloves}` }).click();
  await page.screenshot({ path: testInfo.outputPath('landscape.png') });
});

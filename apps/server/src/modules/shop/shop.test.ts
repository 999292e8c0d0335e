import { randomUUID } from 'node:crypto';
import type {
  DatabaseShop,
  DistributorShop,
  DistributorShopItem,
  ShopItemPrices,
  ShopOrder,
} from '@mise/shared/shop/schemas';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  databaseShopItems,
  distributorShopItems,
  distributors,
  employeeRoles,
  shopOrders,
  stores,
  users,
} from '../../db/schema';
import {
  buildDatabase,
  buildEmployee,
  buildStore,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { useTestSmtpServer } from '../../test/smtp';
import { asDevice, buildDevice, employeeToken, newKey, pngUpload } from '../device/test-support';

const mail = useTestSmtpServer();
const context = useTestApp({ env: mail.env });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let distributorB: Agent;
let managerA: Agent;
let customerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

const item = (values: Partial<Record<string, unknown>> = {}) => ({
  active: true,
  name: 'Gloves',
  description: 'Box of 100',
  price: 12.5,
  illustration_path: null,
  ...values,
});

/** Replaces distributor A's shop (and database A's items) with new items, answers the shop. */
async function resetShopA(items: ReturnType<typeof item>[], shopEmail: string | null = null) {
  await context.db
    .delete(distributorShopItems)
    .where(eq(distributorShopItems.distributor_id, tenants.a.distributor.id));
  await context.db
    .delete(databaseShopItems)
    .where(eq(databaseShopItems.database_id, tenants.a.database.id));
  const response = await distributorA.inject({
    method: 'PUT',
    url: `/api/distributors/${tenants.a.distributor.id}/shop`,
    payload: { shop_email: shopEmail, items },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().shop as DistributorShop;
}

const asInput = (entry: DistributorShopItem) => ({
  id: entry.id,
  version: entry.version,
  active: entry.active,
  name: entry.name,
  description: entry.description,
  price: entry.price,
  illustration_path: entry.illustration_path,
});

/** An employee of the store whose role grants the shop (or not), identified on a new tablet. */
async function shopEmployee(
  store: { id: string; database_id: string | null },
  options: { grantsShop?: boolean; name?: string; surname?: string } = {},
) {
  const [role] = await context.db
    .insert(employeeRoles)
    .values({
      database_id: store.database_id!,
      name: 'Buyer',
      features_permissions: { shop: options.grantsShop ?? true },
    })
    .returning();
  const employee = await buildEmployee(context.db, {
    storeIds: [store.id],
    role_id: role!.id,
    ...(options.name ? { name: options.name, surname: options.surname ?? '' } : {}),
  });
  const { token } = await buildDevice(context.db, store.id);
  return {
    token,
    device: asDevice(context.app, token, await employeeToken(context.app, token, employee.id)),
  };
}

async function databaseShop(agent: Agent, databaseId: string) {
  const response = await agent.inject({ method: 'GET', url: `/api/databases/${databaseId}/shop` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().shop as DatabaseShop;
}

describe('distributor shop', () => {
  it('refuses an anonymous caller', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/shop' });
    expect(response.statusCode).toBe(401);
  });

  it('creates items in order, a null price reading as 100, and saves the shop e-mail', async () => {
    const shop = await resetShopA(
      [item({ name: 'First' }), item({ name: 'Second', price: null })],
      ' Orders@Distributor-A.test ',
    );
    expect(shop.items.map((entry) => [entry.name, entry.index, entry.price])).toEqual([
      ['First', 0, 12.5],
      ['Second', 1, 100],
    ]);
    expect(shop.distributor.shop_email).toBe('orders@distributor-a.test');
    const own = await distributorA.inject({ method: 'GET', url: '/api/shop' });
    expect(own.statusCode).toBe(200);
    expect(own.json().shop.distributor.id).toBe(tenants.a.distributor.id);
    expect(own.json().shop.items).toHaveLength(2);
  });

  it('reorders by position, deactivates, and keeps unchanged items at their version', async () => {
    const shop = await resetShopA([item({ name: 'A' }), item({ name: 'B' }), item({ name: 'C' })]);
    const [a, b, c] = shop.items as [DistributorShopItem, DistributorShopItem, DistributorShopItem];
    const response = await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: {
        shop_email: '',
        items: [asInput(c), asInput(a), { ...asInput(b), active: false }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().shop as DistributorShop;
    expect(saved.items.map((entry) => [entry.name, entry.index, entry.active])).toEqual([
      ['C', 0, true],
      ['A', 1, true],
      ['B', 2, false],
    ]);
    expect(saved.distributor.shop_email).toBeNull();
    // A stale version: 409, nothing written.
    const stale = await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: { shop_email: null, items: [{ ...asInput(a), name: 'Changed' }] },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    const [row] = await context.db
      .select()
      .from(distributorShopItems)
      .where(eq(distributorShopItems.id, a.id));
    expect(row!.name).toBe('A');
  });

  it('refuses a negative price, a sub-cent price and a bad e-mail', async () => {
    for (const payload of [
      { shop_email: null, items: [item({ price: -1 })] },
      { shop_email: null, items: [item({ price: 1.005 })] },
      { shop_email: 'nope', items: [] },
    ]) {
      const response = await distributorA.inject({
        method: 'PUT',
        url: `/api/distributors/${tenants.a.distributor.id}/shop`,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });

  it('lets the admin act on any distributor, refuses manager, customer and another tenant', async () => {
    const url = `/api/distributors/${tenants.a.distributor.id}/shop`;
    expect((await admin.inject({ method: 'GET', url })).statusCode).toBe(200);
    for (const agent of [managerA, customerA]) {
      const response = await agent.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(403);
      const put = await agent.inject({
        method: 'PUT',
        url,
        payload: { shop_email: null, items: [] },
      });
      expect(put.statusCode).toBe(403);
    }
    const other = await distributorB.inject({ method: 'GET', url });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain(tenants.a.distributor.name);
    const put = await distributorB.inject({
      method: 'PUT',
      url,
      payload: { shop_email: null, items: [item()] },
    });
    expect(put.statusCode).toBe(404);
    // GET /api/shop is the distributor's own: other roles are refused.
    expect((await managerA.inject({ method: 'GET', url: '/api/shop' })).statusCode).toBe(403);
    expect((await admin.inject({ method: 'GET', url: '/api/shop' })).statusCode).toBe(403);
  });

  it('refuses an item id of another distributor without changing it', async () => {
    const shopB = await distributorB.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.b.distributor.id}/shop`,
      payload: { shop_email: null, items: [item({ name: 'B item' })] },
    });
    const itemB = (shopB.json().shop as DistributorShop).items[0]!;
    const response = await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: { shop_email: null, items: [{ ...asInput(itemB), name: 'Hijacked' }] },
    });
    expect(response.statusCode).toBe(404);
    const [row] = await context.db
      .select()
      .from(distributorShopItems)
      .where(eq(distributorShopItems.id, itemB.id));
    expect(row!.name).toBe('B item');
  });

  it('uploads an illustration under distributors/{id}/shops/ and uses it', async () => {
    const upload = await distributorA.inject({
      method: 'POST',
      url: `/api/distributors/${tenants.a.distributor.id}/shop/illustrations`,
      ...pngUpload(),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const { path, url } = upload.json() as { path: string; url: string };
    expect(path).toMatch(
      new RegExp(`^distributors/${tenants.a.distributor.id}/shops/[a-f0-9]{16}\\.png$`),
    );
    expect(url).toBe(`/api/files/${path}`);
    const shop = await resetShopA([item({ illustration_path: path })]);
    expect(shop.items[0]!.illustration_url).toBe(url);
    const file = await managerA.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    // A path not uploaded to this shop is refused.
    const forged = await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: {
        shop_email: null,
        items: [item({ illustration_path: `distributors/${tenants.b.distributor.id}/logo.png` })],
      },
    });
    expect(forged.statusCode).toBe(400);
    // Another tenant cannot upload into this shop.
    const other = await distributorB.inject({
      method: 'POST',
      url: `/api/distributors/${tenants.a.distributor.id}/shop/illustrations`,
      ...pngUpload(),
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('database shop', () => {
  it('shows distributor items without a copy as unsaved copies with effective values', async () => {
    await resetShopA([item({ name: 'Gloves', price: null }), item({ name: 'Aprons', price: 8 })]);
    const shop = await databaseShop(distributorA, tenants.a.database.id);
    expect(shop.has_shop).toBe(true);
    expect(shop.can_edit).toBe(true);
    expect(shop.distributor?.id).toBe(tenants.a.distributor.id);
    expect(shop.items.map((entry) => [entry.name, entry.price, entry.is_saved, entry.id])).toEqual([
      ['Gloves', 100, false, null],
      ['Aprons', 8, false, null],
    ]);
    expect(shop.items[0]!.states.price).toBe('inherited');
  });

  it('saves copies with overrides; null fields keep following the distributor', async () => {
    const distributorShop = await resetShopA([
      item({ name: 'Gloves', price: 20 }),
      item({ name: 'Aprons', price: 8 }),
    ]);
    const [gloves, aprons] = distributorShop.items as [DistributorShopItem, DistributorShopItem];
    const save = await distributorA.inject({
      method: 'PUT',
      url: `/api/databases/${tenants.a.database.id}/shop`,
      payload: {
        items: [
          // Reordered: Aprons first, its price overridden.
          {
            origin_id: aprons.id,
            active: null,
            name: null,
            description: null,
            price: 6.5,
            illustration_path: null,
          },
          {
            origin_id: gloves.id,
            active: null,
            name: null,
            description: null,
            price: null,
            illustration_path: null,
          },
          {
            origin_id: null,
            active: true,
            name: 'Local soap',
            description: '',
            price: null,
            illustration_path: null,
          },
        ],
      },
    });
    expect(save.statusCode, save.body).toBe(200);
    const shop = save.json().shop as DatabaseShop;
    expect(shop.items.map((entry) => [entry.name, entry.price, entry.is_saved])).toEqual([
      ['Aprons', 6.5, true],
      ['Gloves', 20, true],
      ['Local soap', 100, true],
    ]);
    const rows = await context.db
      .select()
      .from(databaseShopItems)
      .where(eq(databaseShopItems.database_id, tenants.a.database.id));
    const byIndex = [...rows].sort((left, right) => left.index - right.index);
    expect(byIndex.map((row) => [row.name, row.index])).toEqual([
      [null, 0],
      [null, 1],
      ['Local soap', 2],
    ]);
    // The distributor renames Gloves and changes its price: the copy follows.
    await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: {
        shop_email: null,
        items: [asInput({ ...gloves, name: 'Nitrile gloves', price: 22 }), asInput(aprons)],
      },
    });
    const after = await databaseShop(distributorA, tenants.a.database.id);
    expect(after.items[1]).toMatchObject({ name: 'Nitrile gloves', price: 22 });
    expect(after.items[0]).toMatchObject({ name: 'Aprons', price: 6.5 });
    // A new distributor item appears as an unsaved copy at the end.
    const current = (await distributorA.inject({ method: 'GET', url: '/api/shop' })).json()
      .shop as DistributorShop;
    await distributorA.inject({
      method: 'PUT',
      url: `/api/distributors/${tenants.a.distributor.id}/shop`,
      payload: {
        shop_email: null,
        items: [...current.items.map(asInput), item({ name: 'Masks', price: null })],
      },
    });
    const withNew = await databaseShop(distributorA, tenants.a.database.id);
    expect(withNew.items.at(-1)).toMatchObject({
      name: 'Masks',
      price: 100,
      is_saved: false,
      id: null,
    });
    // Copying an already copied item again is a conflict.
    const twice = await distributorA.inject({
      method: 'PUT',
      url: `/api/databases/${tenants.a.database.id}/shop`,
      payload: {
        items: [
          {
            origin_id: gloves.id,
            active: null,
            name: null,
            description: null,
            price: 1,
            illustration_path: null,
          },
        ],
      },
    });
    expect(twice.statusCode).toBe(409);
  });

  it('is read-only for managers and customers, hidden from another tenant', async () => {
    const managerView = await databaseShop(managerA, tenants.a.database.id);
    expect(managerView.can_edit).toBe(false);
    expect(managerView.items.length).toBeGreaterThan(0);
    for (const agent of [managerA, customerA]) {
      const response = await agent.inject({
        method: 'PUT',
        url: `/api/databases/${tenants.a.database.id}/shop`,
        payload: { items: [] },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    const other = await distributorB.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/shop`,
    });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain(tenants.a.distributor.id);
    const adminView = await databaseShop(admin, tenants.a.database.id);
    expect(adminView.can_edit).toBe(true);
  });

  it('refuses a copy of another distributor item', async () => {
    const shopB = (await distributorB.inject({ method: 'GET', url: '/api/shop' })).json()
      .shop as DistributorShop;
    const response = await admin.inject({
      method: 'PUT',
      url: `/api/databases/${tenants.a.database.id}/shop`,
      payload: {
        items: [
          {
            origin_id: shopB.items[0]!.id,
            active: null,
            name: null,
            description: null,
            price: null,
            illustration_path: null,
          },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('shop/unknown-origin');
  });

  it('a database without a distributor has no shop', async () => {
    const orphan = await buildDatabase(context.db, { name: 'Orphan database' });
    const shop = await databaseShop(admin, orphan.id);
    expect(shop).toMatchObject({ has_shop: false, distributor: null, items: [] });
    const save = await admin.inject({
      method: 'PUT',
      url: `/api/databases/${orphan.id}/shop`,
      payload: { items: [] },
    });
    expect(save.statusCode).toBe(409);
    expect(save.json().error.code).toBe('shop/unavailable');
  });
});

describe('per-database prices', () => {
  it('sets and resets the price of one item per database', async () => {
    const second = await buildDatabase(context.db, {
      name: 'A second database',
      distributor_id: tenants.a.distributor.id,
    });
    const shop = await resetShopA([item({ name: 'Thermometer', price: 30 })]);
    const thermometer = shop.items[0]!;
    const url = `/api/distributors/${tenants.a.distributor.id}/shop/items/${thermometer.id}/prices`;
    const table = await distributorA.inject({ method: 'GET', url });
    expect(table.statusCode, table.body).toBe(200);
    const rows = (table.json() as ShopItemPrices).rows;
    expect(rows.map((row) => [row.database_name, row.price, row.own_price])).toEqual([
      ['A second database', 30, null],
      [tenants.a.database.name, 30, null],
    ]);
    const apply = await distributorA.inject({
      method: 'PUT',
      url,
      payload: { prices: [{ database_id: second.id, price: 25.9, version: 0 }] },
    });
    expect(apply.statusCode, apply.body).toBe(200);
    const applied = (apply.json() as ShopItemPrices).rows.find(
      (row) => row.database_id === second.id,
    )!;
    expect(applied).toMatchObject({ price: 25.9, own_price: 25.9 });
    expect(applied.database_item_id).not.toBeNull();
    // The database shop shows the override; the other database follows the distributor.
    const secondShop = await databaseShop(distributorA, second.id);
    expect(secondShop.items[0]).toMatchObject({ name: 'Thermometer', price: 25.9, is_saved: true });
    expect((await databaseShop(distributorA, tenants.a.database.id)).items[0]!.price).toBe(30);
    // Reset: null follows the default again.
    const reset = await distributorA.inject({
      method: 'PUT',
      url,
      payload: { prices: [{ database_id: second.id, price: null, version: applied.version }] },
    });
    expect(reset.statusCode).toBe(200);
    const afterReset = (reset.json() as ShopItemPrices).rows.find(
      (row) => row.database_id === second.id,
    )!;
    expect(afterReset).toMatchObject({ price: 30, own_price: null });
    // A stale version is refused.
    const stale = await distributorA.inject({
      method: 'PUT',
      url,
      payload: { prices: [{ database_id: second.id, price: 1, version: applied.version }] },
    });
    expect(stale.statusCode).toBe(409);
  });

  it('refuses a database of another distributor, and other roles', async () => {
    const shop = await resetShopA([item({ name: 'Thermometer' })]);
    const url = `/api/distributors/${tenants.a.distributor.id}/shop/items/${shop.items[0]!.id}/prices`;
    const foreign = await distributorA.inject({
      method: 'PUT',
      url,
      payload: { prices: [{ database_id: tenants.b.database.id, price: 1 }] },
    });
    expect(foreign.statusCode).toBe(404);
    const [copies] = await context.db
      .select({ total: count() })
      .from(databaseShopItems)
      .where(eq(databaseShopItems.database_id, tenants.b.database.id));
    expect(copies!.total).toBe(0);
    expect((await managerA.inject({ method: 'GET', url })).statusCode).toBe(403);
    expect((await distributorB.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('store orders', () => {
  it('lists the active items a tablet may order, records an order once and e-mails it', async () => {
    const shop = await resetShopA(
      [
        item({ name: 'Gloves', price: 12.5 }),
        item({ name: 'Retired', active: false }),
        item({ name: 'Aprons', price: null }),
      ],
      'orders@distributor-a.test',
    );
    await context.db
      .update(users)
      .set({ language: 'fr' })
      .where(eq(users.id, tenants.a.users.distributor.id));
    const store = tenants.a.stores[0]!;
    const { token, device } = await shopEmployee(store, { name: 'Alice', surname: 'Martin' });

    const list = await asDevice(context.app, token)({ method: 'GET', url: '/api/device/shop' });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().items as { id: string; name: string; price: number }[];
    expect(items.map((entry) => [entry.name, entry.price])).toEqual([
      ['Gloves', 12.5],
      ['Aprons', 100],
    ]);
    expect(list.json().available).toBe(true);
    const retired = shop.items.find((entry) => entry.name === 'Retired')!;

    const key = newKey();
    const payload = {
      idempotency_key: key,
      lines: [
        { item_id: items[0]!.id, quantity: 3 },
        { item_id: items[1]!.id, quantity: 1 },
      ],
      note: 'Before Friday',
    };
    const first = await device({ method: 'POST', url: '/api/device/shop/orders', payload });
    expect(first.statusCode, first.body).toBe(200);
    const order = first.json().order as ShopOrder;
    expect(order).toMatchObject({
      total: 137.5,
      status: 'sent',
      email_to: 'orders@distributor-a.test',
      store_id: store.id,
      ordered_by: { kind: 'employee', name: 'Alice', surname: 'Martin' },
    });
    const message = await mail.server.waitForMessage((received) =>
      received.envelopeTo.includes('orders@distributor-a.test'),
    );
    expect(message.subject).toContain(store.name);
    expect(message.subject).toContain('Commande boutique');
    expect(message.body).toContain('3 × Gloves');
    expect(message.body).toContain('137,50');
    expect(message.body).toContain('Before Friday');
    expect(message.body).toContain('Alice Martin');

    // The retry is recorded once and sends nothing more.
    const sentBefore = mail.server.messages.length;
    const retry = await device({ method: 'POST', url: '/api/device/shop/orders', payload });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().order.id).toBe(order.id);
    const [recorded] = await context.db
      .select({ total: count() })
      .from(shopOrders)
      .where(and(eq(shopOrders.store_id, store.id), eq(shopOrders.idempotency_key, key)));
    expect(recorded!.total).toBe(1);
    expect(mail.server.messages.length).toBe(sentBefore);

    // The same key with another order is a conflict.
    const conflict = await device({
      method: 'POST',
      url: '/api/device/shop/orders',
      payload: { ...payload, lines: [{ item_id: items[0]!.id, quantity: 4 }] },
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency/conflict');

    // An inactive item cannot be ordered.
    const inactive = await device({
      method: 'POST',
      url: '/api/device/shop/orders',
      payload: { idempotency_key: newKey(), lines: [{ item_id: retired.id, quantity: 1 }] },
    });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error.code).toBe('shop/unknown-item');

    // An employee whose role does not grant the shop cannot order.
    const other = await shopEmployee(store, { grantsShop: false });
    const refused = await other.device({
      method: 'POST',
      url: '/api/device/shop/orders',
      payload: { ...payload, idempotency_key: newKey() },
    });
    expect(refused.statusCode).toBe(403);

    // Without an identified employee the tablet cannot order.
    const anonymous = await asDevice(
      context.app,
      token,
    )({
      method: 'POST',
      url: '/api/device/shop/orders',
      payload: { ...payload, idempotency_key: newKey() },
    });
    expect(anonymous.statusCode).toBe(401);

    // The distributor lists it, newest first; the other tenant cannot.
    const listed = await distributorA.inject({
      method: 'GET',
      url: `/api/distributors/${tenants.a.distributor.id}/shop/orders?limit=5`,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items[0].id).toBe(order.id);
    expect(listed.json().total).toBeGreaterThanOrEqual(1);
    const foreign = await distributorB.inject({
      method: 'GET',
      url: `/api/distributors/${tenants.a.distributor.id}/shop/orders`,
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await customerA.inject({
          method: 'GET',
          url: `/api/distributors/${tenants.a.distributor.id}/shop/orders`,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('follows the database copy: its price and the items it deactivated', async () => {
    const shop = await resetShopA([item({ name: 'Gloves', price: 10 })], null);
    const database = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    const store = await buildStore(context.db, {
      database_id: database.id,
      distributor_id: tenants.a.distributor.id,
    });
    const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
    const customer = await signIn(context.app, owner.email, testPassword);
    await distributorA.inject({
      method: 'PUT',
      url: `/api/databases/${database.id}/shop`,
      payload: {
        items: [
          {
            origin_id: shop.items[0]!.id,
            active: null,
            name: null,
            description: null,
            price: 7,
            illustration_path: null,
          },
        ],
      },
    });
    const list = await customer.inject({ method: 'GET', url: `/api/stores/${store.id}/shop` });
    expect(list.statusCode, list.body).toBe(200);
    const [gloves] = list.json().items as { id: string; price: number }[];
    expect(gloves!.price).toBe(7);
    // A back-office order by the owner: recorded without e-mail (the distributor has none).
    const response = await customer.inject({
      method: 'POST',
      url: `/api/stores/${store.id}/shop/orders`,
      payload: { idempotency_key: newKey(), lines: [{ item_id: gloves!.id, quantity: 2 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().order).toMatchObject({
      total: 14,
      status: 'no-email',
      email_to: null,
      ordered_by: { kind: 'user' },
    });
    // Another tenant's customer cannot order for this store.
    const other = await signIn(context.app, tenants.b.users.customer.email, testPassword);
    const refused = await other.inject({
      method: 'POST',
      url: `/api/stores/${store.id}/shop/orders`,
      payload: { idempotency_key: newKey(), lines: [{ item_id: gloves!.id, quantity: 1 }] },
    });
    expect(refused.statusCode).toBe(404);
    // The database deactivates its copy: the store can no longer order it.
    const databaseShopView = await databaseShop(distributorA, database.id);
    const copy = databaseShopView.items[0]!;
    await distributorA.inject({
      method: 'PUT',
      url: `/api/databases/${database.id}/shop`,
      payload: {
        items: [
          {
            ...copy.own,
            id: copy.id,
            origin_id: copy.origin_id,
            version: copy.version,
            active: false,
          },
        ],
      },
    });
    const after = await customer.inject({ method: 'GET', url: `/api/stores/${store.id}/shop` });
    expect(after.json().items).toEqual([]);
  });

  it('a store whose database has no distributor, or hides the shop, cannot order', async () => {
    const orphan = await buildDatabase(context.db);
    const store = await buildStore(context.db, {
      database_id: orphan.id,
      distributor_id: tenants.a.distributor.id,
    });
    const { token, device } = await shopEmployee(store);
    const list = await asDevice(context.app, token)({ method: 'GET', url: '/api/device/shop' });
    expect(list.json()).toEqual({ available: false, distributor_name: null, items: [] });
    const order = await device({
      method: 'POST',
      url: '/api/device/shop/orders',
      payload: { idempotency_key: newKey(), lines: [{ item_id: randomUUID(), quantity: 1 }] },
    });
    expect(order.statusCode).toBe(409);
    expect(order.json().error.code).toBe('shop/unavailable');

    await resetShopA([item()]);
    const hidden = tenants.a.stores[1]!;
    await context.db
      .update(stores)
      .set({ hidden_extensions: ['shop'] })
      .where(eq(stores.id, hidden.id));
    const hiddenDevice = await buildDevice(context.db, hidden.id);
    const hiddenList = await asDevice(
      context.app,
      hiddenDevice.token,
    )({
      method: 'GET',
      url: '/api/device/shop',
    });
    expect(hiddenList.json().available).toBe(false);
  });

  it('a failed e-mail leaves the order pending; its retry sends it', async () => {
    await resetShopA([item({ name: 'Gloves' })], 'orders@distributor-a.test');
    const store = tenants.a.stores[0]!;
    const { device } = await shopEmployee(store);
    const [gloves] = (await device({ method: 'GET', url: '/api/device/shop' })).json().items as {
      id: string;
    }[];
    // An e-mail address the SMTP server cannot take (nodemailer refuses it before sending).
    await context.db
      .update(distributors)
      .set({ shop_email: 'broken address' })
      .where(eq(distributors.id, tenants.a.distributor.id));
    const payload = { idempotency_key: newKey(), lines: [{ item_id: gloves!.id, quantity: 1 }] };
    const first = await device({ method: 'POST', url: '/api/device/shop/orders', payload });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().order.status).toBe('pending');
    // The address is fixed on the order and the request retried: it leaves once.
    await context.db
      .update(shopOrders)
      .set({ email_to: 'orders-retry@distributor-a.test' })
      .where(eq(shopOrders.id, first.json().order.id));
    const retry = await device({ method: 'POST', url: '/api/device/shop/orders', payload });
    expect(retry.json().order.status).toBe('sent');
    await mail.server.waitForMessage((received) =>
      received.envelopeTo.includes('orders-retry@distributor-a.test'),
    );
  });
});

describe('OpenAPI', () => {
  it('documents the shop routes', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths as Record<string, unknown>);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/shop',
        '/api/distributors/{id}/shop',
        '/api/distributors/{id}/shop/items/{itemId}/prices',
        '/api/databases/{id}/shop',
        '/api/device/shop/orders',
      ]),
    );
  });
});

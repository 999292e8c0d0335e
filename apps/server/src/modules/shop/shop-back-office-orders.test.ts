import { randomUUID } from 'node:crypto';
import type { ShopOrder, ShopOrderList, StoreShop } from '@mise/shared/shop/schemas';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopOrders, users } from '../../db/schema';
import {
  buildDatabase,
  buildStore,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { useTestSmtpServer } from '../../test/smtp';
import { newKey } from '../device/test-support';

/*
 * A store's order from the back-office (issue 19): POST /api/stores/:storeId/shop/orders and the
 * store's orders list GET /api/stores/:storeId/shop/orders.
 */

const mail = useTestSmtpServer();
const context = useTestApp({ env: mail.env });
const shopEmail = 'orders@distributor-a.test';

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let distributorB: Agent;
let managerA: Agent;
let managerB: Agent;
let customerA: Agent;
let customerB: Agent;
/** Store A1 (customer-owned), store A2 (manager-owned): both of database A. */
let storeA1: { id: string; name: string };
let storeA2: { id: string; name: string };
let gloves: { id: string; price: number };
let aprons: { id: string; price: number };
let foreignItem: { id: string };

async function storeShop(agent: Agent, storeId: string) {
  const response = await agent.inject({ method: 'GET', url: `/api/stores/${storeId}/shop` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StoreShop;
}

function order(agent: Agent, storeId: string, payload: Record<string, unknown>) {
  return agent.inject({ method: 'POST', url: `/api/stores/${storeId}/shop/orders`, payload });
}

async function ordersOf(storeId: string) {
  const [row] = await context.db
    .select({ total: count() })
    .from(shopOrders)
    .where(eq(shopOrders.store_id, storeId));
  return row!.total;
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  storeA1 = tenants.a.stores[0]!;
  storeA2 = await buildStore(context.db, {
    name: 'Store A-managed',
    database_id: tenants.a.database.id,
    distributor_id: tenants.a.distributor.id,
    manager_owned: true,
  });
  // Named accounts, so the e-mail and the list can say who ordered.
  await context.db
    .update(users)
    .set({ name: 'Chloé', surname: 'Owner' })
    .where(eq(users.id, tenants.a.users.customer.id));
  await context.db
    .update(users)
    .set({ name: 'Marc', surname: 'Manager' })
    .where(eq(users.id, tenants.a.users.manager.id));
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  managerB = await signIn(context.app, tenants.b.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  customerB = await signIn(context.app, tenants.b.users.customer.email, testPassword);

  const saved = await distributorA.inject({
    method: 'PUT',
    url: `/api/distributors/${tenants.a.distributor.id}/shop`,
    payload: {
      shop_email: shopEmail,
      items: [
        {
          active: true,
          name: 'Gloves',
          description: 'Box of 100',
          price: 12.5,
          illustration_path: null,
        },
        { active: true, name: 'Aprons', description: '', price: null, illustration_path: null },
      ],
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const foreign = await distributorB.inject({
    method: 'PUT',
    url: `/api/distributors/${tenants.b.distributor.id}/shop`,
    payload: {
      shop_email: null,
      items: [{ active: true, name: 'B item', description: '', price: 1, illustration_path: null }],
    },
  });
  expect(foreign.statusCode, foreign.body).toBe(200);
  foreignItem = (await storeShop(customerB, tenants.b.stores[0]!.id)).items[0]!;
  const items = (await storeShop(customerA, storeA1.id)).items;
  gloves = items.find((entry) => entry.name === 'Gloves')!;
  aprons = items.find((entry) => entry.name === 'Aprons')!;
});

describe('POST /api/stores/:storeId/shop/orders', () => {
  it('refuses an anonymous caller', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: `/api/stores/${storeA1.id}/shop/orders`,
      payload: { idempotency_key: newKey(), lines: [{ item_id: gloves.id, quantity: 1 }] },
    });
    expect(response.statusCode).toBe(401);
  });

  it('records the owner’s order, priced by the server, and e-mails it to the shop e-mail', async () => {
    const before = mail.server.messages.length;
    const response = await order(customerA, storeA1.id, {
      idempotency_key: newKey(),
      lines: [
        { item_id: gloves.id, quantity: 4 },
        { item_id: aprons.id, quantity: 1 },
      ],
      note: '  Deliver on Monday  ',
    });
    expect(response.statusCode, response.body).toBe(200);
    const placed = response.json().order as ShopOrder;
    expect(placed).toMatchObject({
      store_id: storeA1.id,
      store_name: storeA1.name,
      database_id: tenants.a.database.id,
      distributor_id: tenants.a.distributor.id,
      // 4 × 12.50 + 1 × 100 (an unset price is the default).
      total: 150,
      note: 'Deliver on Monday',
      status: 'sent',
      email_to: shopEmail,
      ordered_by: { kind: 'user', name: 'Chloé', surname: 'Owner' },
    });
    expect(placed.lines).toEqual([
      { item_id: gloves.id, name: 'Gloves', price: 12.5, quantity: 4 },
      { item_id: aprons.id, name: 'Aprons', price: 100, quantity: 1 },
    ]);
    const message = await mail.server.waitForMessage(
      (received) =>
        received.envelopeTo.includes(shopEmail) && received.body.includes('Chloé Owner'),
    );
    expect(mail.server.messages.length).toBe(before + 1);
    expect(message.subject).toContain(storeA1.name);
    expect(message.body).toContain('4 × Gloves');
    expect(message.body).toContain('1 × Aprons');
    expect(message.body).toContain('Deliver on Monday');
  });

  it('lets the store’s distributor, an admin and the manager of a manager-owned store order', async () => {
    for (const [agent, storeId] of [
      [distributorA, storeA1.id],
      [admin, storeA1.id],
      [managerA, storeA2.id],
    ] as const) {
      const response = await order(agent, storeId, {
        idempotency_key: newKey(),
        lines: [{ item_id: gloves.id, quantity: 2 }],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().order).toMatchObject({
        store_id: storeId,
        total: 25,
        status: 'sent',
        ordered_by: { kind: 'user' },
      });
    }
    await mail.server.waitForMessage(
      (received) =>
        received.envelopeTo.includes(shopEmail) && received.body.includes('Marc Manager'),
    );
  });

  it('refuses a manager on a store that is not manager-owned (403) and other tenants (404)', async () => {
    const beforeA1 = await ordersOf(storeA1.id);
    const beforeA2 = await ordersOf(storeA2.id);
    const payload = () => ({
      idempotency_key: newKey(),
      lines: [{ item_id: gloves.id, quantity: 1 }],
    });
    const readOnly = await order(managerA, storeA1.id, payload());
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().error.code).toBe('permission/denied');
    // Store A2 is not the customer's: outside its scope.
    expect((await order(customerA, tenants.a.stores[1]!.id, payload())).statusCode).toBe(404);
    for (const agent of [distributorB, managerB, customerB]) {
      const response = await order(agent, storeA1.id, payload());
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not-found');
    }
    expect((await order(customerA, randomUUID(), payload())).statusCode).toBe(404);
    expect(await ordersOf(storeA1.id)).toBe(beforeA1);
    expect(await ordersOf(storeA2.id)).toBe(beforeA2);
  });

  it('validates the body and records nothing for an invalid one', async () => {
    const before = await ordersOf(storeA1.id);
    const line = { item_id: gloves.id, quantity: 1 };
    const invalid: Record<string, unknown>[] = [
      { lines: [line] },
      { idempotency_key: 'short', lines: [line] },
      { idempotency_key: newKey(), lines: [] },
      { idempotency_key: newKey(), lines: [{ ...line, quantity: 0 }] },
      { idempotency_key: newKey(), lines: [{ ...line, quantity: 10_000 }] },
      { idempotency_key: newKey(), lines: [{ ...line, quantity: 1.5 }] },
      { idempotency_key: newKey(), lines: [line, line] },
      { idempotency_key: newKey(), lines: [{ item_id: 'not-an-id', quantity: 1 }] },
      { idempotency_key: newKey(), lines: [line], note: 'x'.repeat(1001) },
      // Tenant ids come from the path, never from the body.
      { idempotency_key: newKey(), lines: [line], store_id: tenants.b.stores[0]!.id },
      { idempotency_key: newKey(), lines: [{ ...line, price: 0.01 }] },
    ];
    for (const payload of invalid) {
      const response = await order(customerA, storeA1.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    // An item of another distributor's shop is not in this store's shop.
    const foreign = await order(customerA, storeA1.id, {
      idempotency_key: newKey(),
      lines: [{ item_id: foreignItem.id, quantity: 1 }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.code).toBe('shop/unknown-item');
    expect(await ordersOf(storeA1.id)).toBe(before);
  });

  it('records a retried request once and sends one e-mail; another body with the key is 409', async () => {
    const payload = {
      idempotency_key: newKey(),
      lines: [{ item_id: aprons.id, quantity: 3 }],
      note: 'Retry me',
    };
    const first = await order(distributorA, storeA1.id, payload);
    expect(first.statusCode, first.body).toBe(200);
    await mail.server.waitForMessage((received) => received.body.includes('Retry me'));
    const before = await ordersOf(storeA1.id);
    const sent = mail.server.messages.length;
    const retry = await order(distributorA, storeA1.id, payload);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().order.id).toBe(first.json().order.id);
    expect(await ordersOf(storeA1.id)).toBe(before);
    // Give a second e-mail the time to arrive, if one were (wrongly) sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      mail.server.messages.filter((message) => message.body.includes('Retry me')),
    ).toHaveLength(1);
    expect(mail.server.messages.length).toBe(sent);
    const conflict = await order(distributorA, storeA1.id, {
      ...payload,
      lines: [{ item_id: aprons.id, quantity: 4 }],
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency/conflict');
  });

  it('a store whose database has no distributor has no shop and cannot order', async () => {
    const orphan = await buildDatabase(context.db);
    const store = await buildStore(context.db, {
      database_id: orphan.id,
      distributor_id: tenants.a.distributor.id,
    });
    const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
    const agent = await signIn(context.app, owner.email, testPassword);
    expect(await storeShop(agent, store.id)).toEqual({
      available: false,
      distributor_name: null,
      items: [],
    });
    const response = await order(agent, store.id, {
      idempotency_key: newKey(),
      lines: [{ item_id: gloves.id, quantity: 1 }],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('shop/unavailable');
    expect(await ordersOf(store.id)).toBe(0);
  });
});

describe('GET /api/stores/:storeId/shop/orders', () => {
  it('lists the store’s own orders, newest first, to whoever sees the store', async () => {
    const placed = await order(customerA, storeA1.id, {
      idempotency_key: newKey(),
      lines: [{ item_id: gloves.id, quantity: 7 }],
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const latest = placed.json().order as ShopOrder;

    // The manager may not order for store A1 but reads its orders.
    for (const agent of [customerA, managerA, distributorA, admin]) {
      const response = await agent.inject({
        method: 'GET',
        url: `/api/stores/${storeA1.id}/shop/orders?limit=3`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json() as ShopOrderList;
      expect(list.items[0]!.id).toBe(latest.id);
      expect(list.items).toHaveLength(3);
      expect(list.total).toBe(await ordersOf(storeA1.id));
      expect(list.items.every((entry) => entry.store_id === storeA1.id)).toBe(true);
      const dates = list.items.map((entry) => entry.created_at);
      expect([...dates].sort().reverse()).toEqual(dates);
    }
    // Store A2's orders are its own.
    const other = await managerA.inject({
      method: 'GET',
      url: `/api/stores/${storeA2.id}/shop/orders`,
    });
    expect(other.json().items.map((entry: ShopOrder) => entry.store_id)).toEqual([storeA2.id]);
  });

  it('hides a store outside the scope and refuses an anonymous caller', async () => {
    for (const agent of [distributorB, managerB, customerB]) {
      const response = await agent.inject({
        method: 'GET',
        url: `/api/stores/${storeA1.id}/shop/orders`,
      });
      expect(response.statusCode).toBe(404);
    }
    const anonymous = await context.app.inject({
      method: 'GET',
      url: `/api/stores/${storeA1.id}/shop/orders`,
    });
    expect(anonymous.statusCode).toBe(401);
    const badPage = await customerA.inject({
      method: 'GET',
      url: `/api/stores/${storeA1.id}/shop/orders?limit=0`,
    });
    expect(badPage.statusCode).toBe(400);
  });
});

import type { StoreDetail } from '@mise/shared/organisation/schemas';
import type {
  CreateShopOrderBody,
  ShopOrder,
  ShopOrderList,
  StoreShop,
} from '@mise/shared/shop/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

/** WCAG 2.1 A/AA violations of a rendered part (contrast needs a layout: e2e checks it). */
async function axeViolations(element: Element): Promise<string[]> {
  const results = await axe.run(element, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

const gloves = {
  id: buildId(),
  name: 'Gloves',
  description: 'Box of 100',
  price: 12.5,
  illustration_url: null,
};
const aprons = {
  id: buildId(),
  name: 'Aprons',
  description: '',
  price: 8.2,
  illustration_url: null,
};
const shop: StoreShop = {
  available: true,
  distributor_name: 'Frais Distribution',
  items: [gloves, aprons],
};

function buildOrder(store: StoreDetail, overrides: Partial<ShopOrder> = {}): ShopOrder {
  return {
    id: buildId(),
    distributor_id: buildId(),
    database_id: store.database ?? buildId(),
    database_name: 'Base Paris',
    store_id: store.id,
    store_name: store.name,
    lines: [{ item_id: gloves.id, name: 'Gloves', price: 12.5, quantity: 2 }],
    total: 25,
    note: '',
    status: 'sent',
    email_to: 'orders@frais.fr',
    ordered_by: { kind: 'employee', name: 'Alice', surname: 'Martin' },
    created_at: '2026-11-20T09:30:00Z',
    ...overrides,
  };
}

function renderStoreShop(
  store: StoreDetail,
  options: { role?: 'admin' | 'distributor' | 'manager' | 'customer'; orders?: ShopOrder[] } = {},
  extra: Record<string, MockHandler> = {},
) {
  const orders = [...(options.orders ?? [])];
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'customer' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`GET /api/stores/${store.id}/shop`]: { body: shop },
    [`GET /api/stores/${store.id}/shop/orders`]: () => ({
      body: { items: orders, total: orders.length } satisfies ShopOrderList,
    }),
    [`POST /api/stores/${store.id}/shop/orders`]: ({ body }) => {
      const sent = body as CreateShopOrderBody;
      const order = buildOrder(store, {
        lines: sent.lines.map((line) => {
          const item = shop.items.find((entry) => entry.id === line.item_id)!;
          return { item_id: item.id, name: item.name, price: item.price, quantity: line.quantity };
        }),
        total: 66,
        note: sent.note ?? '',
        ordered_by: { kind: 'user', name: 'Chloé', surname: 'Owner' },
        created_at: '2026-11-26T10:00:00Z',
      });
      orders.unshift(order);
      return { body: { order } };
    },
    ...extra,
  });
  return { ...renderApp(`/storeDatabase?id=${store.id}&tab=6`), api };
}

const storeWithDatabase = (overrides: Partial<StoreDetail> = {}) =>
  buildStore({ database: buildId(), database_name: 'Base Paris', ...overrides });

const orderPath = (store: StoreDetail) => `/api/stores/${store.id}/shop/orders`;
const itemCard = (name: string) =>
  screen
    .getAllByTestId('store-shop-item')
    .find((card) => within(card).getByTestId('store-shop-item-name').textContent === name)!;

describe('store shop tab', { timeout: 20_000 }, () => {
  it('orders items with steppers and a note, confirms, sends and lists the order', async () => {
    const store = storeWithDatabase();
    const past = buildOrder(store);
    const { user, api } = renderStoreShop(store, { orders: [past] });

    await screen.findByTestId('store-shop-items', {}, { timeout: 10_000 });
    expect(screen.getByTestId('store-tab-shop').textContent).toBe('Shop');
    // The past order: who, what, total and e-mail status.
    const history = await screen.findByTestId('shop-orders-table');
    expect(within(history).getByText('by Alice Martin')).toBeTruthy();
    expect(within(history).getByText('2 × Gloves (€12.50)')).toBeTruthy();
    expect(within(history).getByText('Sent')).toBeTruthy();
    expect(within(history).queryByText('Store')).toBeNull();
    expect(
      (screen.getByTestId('store-shop-send') as HTMLButtonElement).disabled,
      'nothing to send yet',
    ).toBe(true);

    const glovesCard = itemCard('Gloves');
    expect(within(glovesCard).getByText('€12.50 per unit')).toBeTruthy();
    await user.click(within(glovesCard).getByRole('button', { name: 'One more: Gloves' }));
    await user.click(within(glovesCard).getByRole('button', { name: 'One more: Gloves' }));
    await user.click(within(glovesCard).getByRole('button', { name: 'One more: Gloves' }));
    await user.click(within(glovesCard).getByRole('button', { name: 'One less: Gloves' }));
    const apronsQuantity = within(itemCard('Aprons')).getByRole('textbox', {
      name: 'Quantity of Aprons',
    });
    await user.type(apronsQuantity, '5');
    expect(screen.getByTestId('store-shop-total').textContent).toBe('€66.00');
    const basket = screen.getByTestId('store-shop-basket');
    expect(
      within(basket)
        .getAllByTestId('store-shop-basket-line')
        .map((line) => line.textContent),
    ).toEqual(['2 × Gloves€25.00', '5 × Aprons€41.00']);
    await user.type(screen.getByTestId('store-shop-note'), 'Before Friday');
    expect(await axeViolations(document.body)).toEqual([]);

    await user.click(screen.getByTestId('store-shop-send'));
    expect(
      await screen.findByText('Send the order of 7 items (€66.00) to Frais Distribution?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));

    expect(await screen.findByText('Order sent to Frais Distribution.')).toBeTruthy();
    const [call] = api.callsTo('POST', orderPath(store));
    const body = call!.body as CreateShopOrderBody;
    expect(body).toEqual({
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      lines: [
        { item_id: gloves.id, quantity: 2 },
        { item_id: aprons.id, quantity: 5 },
      ],
      note: 'Before Friday',
    });
    // The basket is emptied and the history read again, newest first.
    await waitFor(() => expect(screen.getAllByTestId('shop-order-row')).toHaveLength(2));
    expect(screen.getByTestId('store-shop-total').textContent).toBe('€0.00');
    expect((screen.getByTestId('store-shop-note') as HTMLTextAreaElement).value).toBe('');
    expect(screen.getAllByTestId('shop-order-row')[0]!.textContent).toContain('by Chloé Owner');
  });

  it('sends a retry with the same idempotency key; a changed order gets a new one', async () => {
    const store = storeWithDatabase();
    let attempts = 0;
    const { user, api } = renderStoreShop(
      store,
      {},
      {
        [`POST /api/stores/${store.id}/shop/orders`]: () => {
          attempts += 1;
          return attempts < 3
            ? apiError(503, 'unavailable', 'Try again')
            : { body: { order: buildOrder(store, { status: 'no-email', email_to: null }) } };
        },
      },
    );
    await screen.findByTestId('store-shop-items', {}, { timeout: 10_000 });
    const more = within(itemCard('Gloves')).getByRole('button', { name: 'One more: Gloves' });
    await user.click(more);

    async function send() {
      await user.click(screen.getByTestId('store-shop-send'));
      await user.click(await screen.findByTestId('confirm-dialog-confirm'));
      await waitFor(() => expect(screen.queryByTestId('confirm-dialog-confirm')).toBeNull());
    }
    await send();
    await waitFor(() => expect(api.callsTo('POST', orderPath(store))).toHaveLength(1));
    await waitFor(() =>
      expect((screen.getByTestId('store-shop-send') as HTMLButtonElement).disabled).toBe(false),
    );
    await send();
    await waitFor(() => expect(api.callsTo('POST', orderPath(store))).toHaveLength(2));
    const keys = () =>
      api
        .callsTo('POST', orderPath(store))
        .map((call) => (call.body as CreateShopOrderBody).idempotency_key);
    expect(keys()[1]).toBe(keys()[0]);
    // The basket is still there after the failures; changing it makes another order.
    await waitFor(() =>
      expect((screen.getByTestId('store-shop-send') as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(more);
    await send();
    await waitFor(() => expect(api.callsTo('POST', orderPath(store))).toHaveLength(3));
    expect(keys()[2]).not.toBe(keys()[0]);
    expect(
      await screen.findByText(
        'Order recorded. Frais Distribution has no shop e-mail: it was not e-mailed.',
      ),
    ).toBeTruthy();
  });

  it('says clearly when the store has no shop', async () => {
    const store = storeWithDatabase();
    renderStoreShop(
      store,
      {},
      {
        [`GET /api/stores/${store.id}/shop`]: {
          body: { available: false, distributor_name: null, items: [] },
        },
      },
    );
    expect(
      await screen.findByText('This store has no shop.', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.queryByTestId('store-shop-send')).toBeNull();
    expect(await screen.findByTestId('shop-orders-empty')).toBeTruthy();
    expect(await axeViolations(document.body)).toEqual([]);
  });

  it('shows a read-only manager the past orders without the order form', async () => {
    const store = storeWithDatabase({ is_read_only: true });
    const { api } = renderStoreShop(store, { role: 'manager', orders: [buildOrder(store)] });
    expect(await screen.findByTestId('store-shop-read-only', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByTestId('shop-orders-table')).toBeTruthy();
    expect(screen.queryByTestId('store-shop-items')).toBeNull();
    expect(api.callsTo('GET', `/api/stores/${store.id}/shop`)).toHaveLength(0);
  });

  it('has no Shop tab when the store hides the shop extension', async () => {
    const store = storeWithDatabase({ hidden_extensions: ['shop'] });
    const { api } = renderStoreShop(store);
    expect(await screen.findByTestId('store-tab-general', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('store-tab-shop')).toBeNull();
    expect(api.callsTo('GET', `/api/stores/${store.id}/shop`)).toHaveLength(0);
  });
});

import type {
  DistributorShop,
  DistributorShopItem,
  SaveDistributorShopBody,
  SaveShopItemPricesBody,
  ShopItemPrices,
  ShopOrderList,
} from '@mise/shared/shop/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();

/** WCAG 2.1 A/AA violations of a rendered part (contrast needs a layout: e2e checks it). */
async function axeViolations(element: Element): Promise<string[]> {
  const results = await axe.run(element, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

function buildItem(overrides: Partial<DistributorShopItem> = {}): DistributorShopItem {
  return {
    id: buildId(),
    active: true,
    name: 'Gloves',
    description: 'Box of 100',
    price: 12.5,
    illustration_path: null,
    illustration_url: null,
    index: 0,
    version: 1,
    ...overrides,
  };
}

function buildShop(items: DistributorShopItem[], shopEmail: string | null = null): DistributorShop {
  return {
    distributor: { id: distributorId, name: 'Frais Distribution', shop_email: shopEmail },
    items,
    can_edit: true,
  };
}

function renderShop(
  shop: DistributorShop,
  handlers: Record<string, MockHandler> = {},
  path = '/shop',
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
    'GET /api/shop': { body: { shop } },
    [`PUT /api/distributors/${distributorId}/shop`]: { body: { shop } },
    ...handlers,
  });
  return { ...renderApp(path), api };
}

const cards = () => screen.getAllByTestId('shop-item-card');
const cardNames = () =>
  cards().map((card) => (within(card).getByTestId('shop-item-name') as HTMLInputElement).value);

describe('distributor shop screen', { timeout: 20_000 }, () => {
  it('shows the distributor, the shop e-mail and the active items; inactive ones with the toggle', async () => {
    const { user } = renderShop(
      buildShop(
        [buildItem({ name: 'Gloves' }), buildItem({ name: 'Retired', active: false, index: 1 })],
        'orders@frais.fr',
      ),
    );
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    expect(screen.getByTestId('page-title').textContent).toBe('Shop');
    expect(screen.getByTestId('page-subtitle').textContent).toBe('Frais Distribution');
    expect((screen.getByTestId('shop-email') as HTMLInputElement).value).toBe('orders@frais.fr');
    expect(cardNames()).toEqual(['Gloves']);
    await user.click(screen.getByTestId('shop-show-inactive'));
    expect(cardNames()).toEqual(['Gloves', 'Retired']);
    expect(await axeViolations(document.body)).toEqual([]);
  });

  it('adds a new item (active, 100 €), edits a decimal price, reorders and saves in that order', async () => {
    const gloves = buildItem({ name: 'Gloves', index: 0 });
    const aprons = buildItem({ name: 'Aprons', index: 1, price: 8 });
    const { user, api } = renderShop(buildShop([gloves, aprons]));
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });

    const price = within(cards()[1]!).getByTestId('shop-item-price');
    await user.clear(price);
    await user.type(price, '9.95');
    await user.click(within(cards()[0]!).getByTestId('shop-item-move-right'));
    expect(cardNames()).toEqual(['Aprons', 'Gloves']);

    await user.click(screen.getByTestId('shop-item-add'));
    const added = cards()[2]!;
    expect((within(added).getByTestId('shop-item-active') as HTMLInputElement).checked).toBe(true);
    expect((within(added).getByTestId('shop-item-price') as HTMLInputElement).value).toBe('100 €');
    await user.type(within(added).getByTestId('shop-item-name'), 'Masks');
    await user.type(screen.getByTestId('shop-email'), 'orders@frais.fr');
    await user.click(screen.getByTestId('shop-save'));

    await waitFor(() =>
      expect(api.callsTo('PUT', `/api/distributors/${distributorId}/shop`)).toHaveLength(1),
    );
    const body = api.callsTo('PUT', `/api/distributors/${distributorId}/shop`)[0]!
      .body as SaveDistributorShopBody;
    expect(body.shop_email).toBe('orders@frais.fr');
    expect(body.items).toEqual([
      {
        id: aprons.id,
        version: 1,
        active: true,
        name: 'Aprons',
        description: 'Box of 100',
        price: 9.95,
        illustration_path: null,
      },
      {
        id: gloves.id,
        version: 1,
        active: true,
        name: 'Gloves',
        description: 'Box of 100',
        price: 12.5,
        illustration_path: null,
      },
      {
        active: true,
        name: 'Masks',
        description: '',
        price: 100,
        illustration_path: null,
      },
    ]);
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
  });

  it('refuses a negative price as typed and an invalid shop e-mail, sending nothing', async () => {
    const { user, api } = renderShop(buildShop([buildItem()]));
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    const price = within(cards()[0]!).getByTestId('shop-item-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '-5');
    expect(price.value).toBe('5 €');
    await user.type(screen.getByTestId('shop-email'), 'not-an-address');
    await user.click(screen.getByTestId('shop-save'));
    expect((await screen.findAllByText('Enter a valid e-mail address.')).length).toBeGreaterThan(0);
    expect(api.callsTo('PUT', `/api/distributors/${distributorId}/shop`)).toHaveLength(0);
  });

  it('shows a stale save as a conflict', async () => {
    const { user } = renderShop(buildShop([buildItem()]), {
      [`PUT /api/distributors/${distributorId}/shop`]: apiError(409, 'conflict/stale-version'),
    });
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    await user.type(within(cards()[0]!).getByTestId('shop-item-name'), ' XL');
    await user.click(screen.getByTestId('shop-save'));
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
  });

  it('sets and resets prices per database, then toasts price-updated', async () => {
    const item = buildItem({ name: 'Thermometer', price: 30 });
    const north = buildId();
    const south = buildId();
    const prices: ShopItemPrices = {
      item,
      rows: [
        {
          database_id: north,
          database_name: 'North',
          database_item_id: buildId(),
          active: true,
          illustration_url: null,
          name: 'Thermometer',
          description: '',
          price: 25,
          own_price: 25,
          version: 3,
        },
        {
          database_id: south,
          database_name: 'South',
          database_item_id: null,
          active: true,
          illustration_url: null,
          name: 'Thermometer',
          description: '',
          price: 30,
          own_price: null,
          version: 0,
        },
      ],
    };
    const pricesPath = `/api/distributors/${distributorId}/shop/items/${item.id}/prices`;
    const { user, api } = renderShop(buildShop([item]), {
      [`GET ${pricesPath}`]: { body: prices },
      [`PUT ${pricesPath}`]: { body: prices },
    });
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    await user.click(within(cards()[0]!).getByTestId('shop-item-prices'));
    const dialog = await screen.findByRole('dialog');
    const rows = await within(dialog).findAllByTestId('shop-price-row');
    expect(rows.map((row) => row.dataset.databaseId)).toEqual([north, south]);
    expect(await axeViolations(dialog)).toEqual([]);
    // Reset North (back to the distributor's price), set South to 27.50.
    await user.click(within(rows[0]!).getByTestId('shop-price-reset'));
    await user.type(within(rows[1]!).getByTestId('shop-price-input'), '27.5');
    await user.click(within(dialog).getByTestId('shop-prices-apply'));

    await waitFor(() => expect(api.callsTo('PUT', pricesPath)).toHaveLength(1));
    expect(api.callsTo('PUT', pricesPath)[0]!.body as SaveShopItemPricesBody).toEqual({
      prices: [
        { database_id: north, price: null, version: 3 },
        { database_id: south, price: 27.5, version: 0 },
      ],
    });
    expect(await screen.findByText('Price updated.')).toBeTruthy();
  });

  it('cannot open the prices of an item not saved yet', async () => {
    const { user } = renderShop(buildShop([]));
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    expect(screen.getByTestId('shop-empty')).toBeTruthy();
    await user.click(screen.getByTestId('shop-item-add'));
    expect(
      (within(cards()[0]!).getByTestId('shop-item-prices') as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = renderShop(buildShop([buildItem()]));
    await screen.findByTestId('shop-items', {}, { timeout: 10_000 });
    await user.type(within(cards()[0]!).getByTestId('shop-item-name'), ' XL');
    await user.click(screen.getByTestId('nav-home'));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/shop');
  });

  it('lists the stores orders on the orders tab', async () => {
    const orders: ShopOrderList = {
      total: 1,
      items: [
        {
          id: buildId(),
          distributor_id: distributorId,
          database_id: buildId(),
          database_name: 'Base Boulangeries',
          store_id: buildId(),
          store_name: 'Boulangerie du Port',
          lines: [{ item_id: buildId(), name: 'Gloves', price: 12.5, quantity: 3 }],
          total: 37.5,
          note: 'Before Friday',
          status: 'sent',
          email_to: 'orders@frais.fr',
          ordered_by: { kind: 'employee', name: 'Alice', surname: 'Martin' },
          created_at: '2026-03-02T09:30:00Z',
        },
      ],
    };
    const { api } = renderShop(
      buildShop([]),
      { [`GET /api/distributors/${distributorId}/shop/orders`]: { body: orders } },
      '/shop?tab=orders',
    );
    const row = await screen.findByTestId('shop-order-row', {}, { timeout: 10_000 });
    expect(row.textContent).toContain('Boulangerie du Port');
    expect(row.textContent).toContain('3 × Gloves');
    expect(row.textContent).toContain('by Alice Martin');
    expect(row.textContent).toContain('Sent');
    expect(await axeViolations(document.body)).toEqual([]);
    const call = api.callsTo('GET', `/api/distributors/${distributorId}/shop/orders`)[0]!;
    expect(call.query.get('offset')).toBe('0');
    expect(screen.queryByTestId('shop-save')).toBeNull();
  });
});

import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import type {
  DatabaseShop,
  DatabaseShopItem,
  SaveDatabaseShopBody,
  ShopItemValues,
} from '@mise/shared/shop/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({
    name: 'Base Boulangeries',
    distributor: distributorId,
    version: 2,
    ...overrides,
  });
}

const gloves: ShopItemValues = {
  active: true,
  name: 'Gloves',
  description: 'Box of 100',
  price: 20,
  illustration_path: null,
};
const unset = { active: null, name: null, description: null, price: null, illustration_path: null };
const inherited = {
  active: 'inherited',
  name: 'inherited',
  description: 'inherited',
  price: 'inherited',
  illustration_path: 'inherited',
} as const;

/** A saved copy of Gloves with its price overridden, and an unsaved copy of Aprons. */
function buildShop(databaseId: string, canEdit: boolean): DatabaseShop {
  const savedCopy: DatabaseShopItem = {
    ...gloves,
    price: 17.5,
    id: buildId(),
    origin_id: buildId(),
    is_saved: true,
    illustration_url: null,
    own: { ...unset, price: 17.5 },
    origin: gloves,
    states: { ...inherited, price: 'overridden' },
    index: 0,
    version: 4,
  };
  const aprons = { ...gloves, name: 'Aprons', price: 8 };
  const unsavedCopy: DatabaseShopItem = {
    ...aprons,
    id: null,
    origin_id: buildId(),
    is_saved: false,
    illustration_url: null,
    own: unset,
    origin: aprons,
    states: inherited,
    index: 1,
    version: 0,
  };
  return {
    database: { id: databaseId, name: 'Base Boulangeries' },
    distributor: { id: distributorId, name: 'Frais Distribution' },
    has_shop: true,
    can_edit: canEdit,
    items: [savedCopy, unsavedCopy],
  };
}

function renderShopTab(role: 'distributor' | 'manager', shop?: (id: string) => DatabaseShop) {
  const database = buildDatabase();
  const data = shop ? shop(database.id) : buildShop(database.id, role === 'distributor');
  const path = `/api/databases/${database.id}/shop`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET ${path}`]: { body: { shop: data } },
    [`PUT ${path}`]: { body: { shop: data } },
  });
  return { ...renderApp(`/database?id=${database.id}&tab=5`), api, path, data };
}

const cards = () => screen.getAllByTestId('shop-item-card');

describe('database shop tab', { timeout: 20_000 }, () => {
  it('shows distributor items without a copy as unsaved, and saves overrides only', async () => {
    const { user, api, path, data } = renderShopTab('distributor');
    await screen.findByTestId('database-shop', {}, { timeout: 10_000 });
    expect(within(cards()[1]!).getByTestId('shop-item-unsaved')).toBeTruthy();
    expect(within(cards()[0]!).queryByTestId('shop-item-unsaved')).toBeNull();
    // Rename the unsaved copy; the saved copy's price is emptied: it follows the distributor.
    await user.clear(within(cards()[1]!).getByTestId('shop-item-name'));
    await user.type(within(cards()[1]!).getByTestId('shop-item-name'), 'Kitchen aprons');
    await user.clear(within(cards()[0]!).getByTestId('shop-item-price'));
    await user.click(screen.getByTestId('shop-item-add'));
    await user.type(within(cards()[2]!).getByTestId('shop-item-name'), 'Local soap');
    await user.click(screen.getByTestId('database-shop-save'));

    await waitFor(() => expect(api.callsTo('PUT', path)).toHaveLength(1));
    const body = api.callsTo('PUT', path)[0]!.body as SaveDatabaseShopBody;
    expect(body.items).toEqual([
      { id: data.items[0]!.id, version: 4, origin_id: data.items[0]!.origin_id, ...unset },
      { origin_id: data.items[1]!.origin_id, ...unset, name: 'Kitchen aprons' },
      {
        origin_id: null,
        active: true,
        name: 'Local soap',
        description: '',
        price: 100,
        illustration_path: null,
      },
    ]);
  });

  it('is read-only for a manager', async () => {
    renderShopTab('manager');
    await screen.findByTestId('database-shop', {}, { timeout: 10_000 });
    expect(screen.getByTestId('database-shop-read-only')).toBeTruthy();
    expect(screen.queryByTestId('database-shop-save')).toBeNull();
    expect(screen.queryByTestId('shop-item-add')).toBeNull();
    const name = within(cards()[0]!).getByTestId('shop-item-name') as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect((within(cards()[0]!).getByTestId('shop-item-active') as HTMLInputElement).disabled).toBe(
      true,
    );
  });

  it('a database without a distributor has no shop', async () => {
    renderShopTab('distributor', (id) => ({
      database: { id, name: 'Orphan' },
      distributor: null,
      has_shop: false,
      can_edit: true,
      items: [],
    }));
    expect(await screen.findByTestId('database-shop-none', {}, { timeout: 10_000 })).toBeTruthy();
  });
});

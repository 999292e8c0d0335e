import { describe, expect, it } from 'vitest';
import {
  distributorItemValues,
  effectiveShopItem,
  indexByPosition,
  mergeDatabaseShop,
  moveItem,
  newShopItemValues,
  orderTotal,
  type ShopItemValues,
  shopItemOverrides,
  shopPrice,
} from './rules';
import {
  createShopOrderBodySchema,
  saveDatabaseShopBodySchema,
  saveDistributorShopBodySchema,
} from './schemas';

const origin: ShopItemValues = {
  active: true,
  name: 'Thermometer',
  description: 'Probe thermometer',
  price: 42.5,
  illustration_path: 'distributors/d/shops/a.png',
};
const unset = { active: null, name: null, description: null, price: null, illustration_path: null };

describe('default price and new items (spec 001 §5, §9)', () => {
  it('creates an item active at price 100', () => {
    expect(newShopItemValues()).toEqual({
      active: true,
      name: '',
      description: '',
      price: 100,
      illustration_path: null,
    });
  });

  it('reads a distributor price never set as 100, and keeps 0 as 0', () => {
    expect(shopPrice(null)).toBe(100);
    expect(shopPrice(0)).toBe(0);
    expect(distributorItemValues({ ...origin, price: null, illustration_path: null }).price).toBe(
      100,
    );
  });
});

describe('effectiveShopItem (inheritance distributor -> database)', () => {
  it('follows the distributor item for every null field', () => {
    const { values, states } = effectiveShopItem(unset, origin);
    expect(values).toEqual(origin);
    expect(states).toEqual({
      active: 'inherited',
      name: 'inherited',
      description: 'inherited',
      price: 'inherited',
      illustration_path: 'inherited',
    });
  });

  it('a null price on the copy is the distributor price, itself 100 when unset', () => {
    const noPrice = distributorItemValues({ ...origin, price: null });
    expect(effectiveShopItem({ ...unset }, noPrice).values.price).toBe(100);
    expect(effectiveShopItem({ ...unset, price: 12 }, noPrice).values.price).toBe(12);
  });

  it('keeps the copy own values, a price of 0 included', () => {
    const { values, states } = effectiveShopItem(
      { ...unset, name: 'Local name', price: 0, active: false },
      origin,
    );
    expect(values.name).toBe('Local name');
    expect(values.price).toBe(0);
    expect(values.active).toBe(false);
    expect(values.description).toBe('Probe thermometer');
    expect(states.name).toBe('overridden');
    expect(states.description).toBe('inherited');
  });

  it('an item the distributor deactivated is inactive in every database (locked)', () => {
    const { values, states } = effectiveShopItem(
      { ...unset, active: true },
      { ...origin, active: false },
    );
    expect(values.active).toBe(false);
    expect(states.active).toBe('locked');
  });

  it('an item of the database own takes the new-item defaults for null fields', () => {
    const { values, states } = effectiveShopItem({ ...unset, name: 'Gloves' }, null);
    expect(values).toEqual({ ...newShopItemValues(), name: 'Gloves' });
    expect(states.price).toBe('own');
  });
});

describe('shopItemOverrides', () => {
  it('stores null for values equal to the distributor item, the change otherwise', () => {
    expect(shopItemOverrides({ ...origin, price: 42.5 }, origin)).toEqual(unset);
    expect(shopItemOverrides({ ...origin, name: 'Other', price: 30 }, origin)).toEqual({
      ...unset,
      name: 'Other',
      price: 30,
    });
  });

  it('compares prices to the cent', () => {
    expect(shopItemOverrides({ ...origin, price: 42.499999999 }, origin).price).toBeNull();
  });

  it('keeps every value without an origin', () => {
    expect(shopItemOverrides(origin, null)).toEqual(origin);
  });
});

describe('mergeDatabaseShop (spec 001 §4)', () => {
  const distributorItems = [
    { id: 'd2', index: 1 },
    { id: 'd1', index: 0 },
    { id: 'd3', index: 2 },
  ];

  it('lists saved rows by index, then distributor items without a copy as unsaved', () => {
    const merged = mergeDatabaseShop(distributorItems, [
      { id: 'c3', origin_id: 'd3', index: 0 },
      { id: 'own', origin_id: null, index: 1 },
    ]);
    expect(merged.map((entry) => [entry.copy?.id ?? null, entry.origin?.id ?? null])).toEqual([
      ['c3', 'd3'],
      ['own', null],
      [null, 'd1'],
      [null, 'd2'],
    ]);
  });

  it('drops a copy whose distributor item is gone', () => {
    const merged = mergeDatabaseShop([], [{ id: 'c9', origin_id: 'gone', index: 0 }]);
    expect(merged).toEqual([]);
  });
});

describe('reorder', () => {
  it('gives each item its index by position', () => {
    expect(indexByPosition([{ id: 'b' }, { id: 'a' }])).toEqual([
      { id: 'b', index: 0 },
      { id: 'a', index: 1 },
    ]);
  });

  it('moves a card left or right, and not past either end', () => {
    expect(moveItem(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('orders', () => {
  it('sums the lines in cents', () => {
    expect(
      orderTotal([
        { price: 0.1, quantity: 3 },
        { price: 19.99, quantity: 2 },
      ]),
    ).toBe(40.28);
  });

  it('refuses an empty order, a zero quantity and an item twice', () => {
    const line = { item_id: '0195d8a4-0000-7000-8000-000000000001', quantity: 1 };
    const body = { idempotency_key: 'order-0001', lines: [line] };
    expect(createShopOrderBodySchema.safeParse(body).success).toBe(true);
    expect(createShopOrderBodySchema.safeParse({ ...body, lines: [] }).success).toBe(false);
    expect(
      createShopOrderBodySchema.safeParse({ ...body, lines: [{ ...line, quantity: 0 }] }).success,
    ).toBe(false);
    expect(createShopOrderBodySchema.safeParse({ ...body, lines: [line, line] }).success).toBe(
      false,
    );
  });
});

describe('shop inputs (spec 001 §5)', () => {
  const item = {
    active: true,
    name: 'A',
    description: '',
    price: 100,
    illustration_path: null,
  };

  it('accepts decimal prices to the cent, refuses negative and sub-cent prices', () => {
    const parse = (price: number | null) =>
      saveDistributorShopBodySchema.safeParse({ shop_email: null, items: [{ ...item, price }] })
        .success;
    expect(parse(12.5)).toBe(true);
    expect(parse(0)).toBe(true);
    expect(parse(null)).toBe(true);
    expect(parse(-1)).toBe(false);
    expect(parse(1.005)).toBe(false);
  });

  it('checks the shop e-mail', () => {
    const parse = (shop_email: string | null) =>
      saveDistributorShopBodySchema.safeParse({ shop_email, items: [] });
    expect(parse('').success).toBe(true);
    expect(parse(' Shop@Example.com ').data?.shop_email).toBe('shop@example.com');
    expect(parse('not-an-email').success).toBe(false);
  });

  it('refuses two copies of the same distributor item', () => {
    const copy = { ...item, origin_id: '0195d8a4-0000-7000-8000-000000000001' };
    expect(saveDatabaseShopBodySchema.safeParse({ items: [copy, copy] }).success).toBe(false);
  });
});

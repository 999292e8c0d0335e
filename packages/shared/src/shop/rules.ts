import { type FieldState, resolveInheritance } from '../catalogue/rules';
import { defaultShopItemPrice, type ShopItemFieldKey, shopItemFieldKeys } from './constants';

/* The shop's pure rules (spec 001 §3.12, §4, §5, §9). */

export type ShopItemValues = {
  active: boolean;
  name: string;
  description: string;
  price: number;
  illustration_path: string | null;
};
export type ShopItemOwnValues = { [K in keyof ShopItemValues]: ShopItemValues[K] | null };

/** A freshly added item: active, price 100 (spec 001 §5, §9). */
export function newShopItemValues(): ShopItemValues {
  return {
    active: true,
    name: '',
    description: '',
    price: defaultShopItemPrice,
    illustration_path: null,
  };
}

/** A stored price: null (never set) reads as the default 100. */
export function shopPrice(price: number | null | undefined): number {
  return price ?? defaultShopItemPrice;
}

/** A distributor item's values as the shop shows them (its price resolved). */
export function distributorItemValues(row: {
  active: boolean;
  name: string;
  description: string;
  price: number | null;
  illustration_path: string | null;
}): ShopItemValues {
  return {
    active: row.active,
    name: row.name,
    description: row.description,
    price: shopPrice(row.price),
    illustration_path: row.illustration_path,
  };
}

export type EffectiveShopItem = {
  values: ShopItemValues;
  states: Record<ShopItemFieldKey, FieldState>;
};

/**
 * A database item's effective values (spec 001 §3.12) through the catalogue's one inheritance
 * rule: a null field follows the distributor item (a null price: the distributor item's
 * price, itself 100 when unset). A distributor item deactivated by the distributor locks
 * `active`: its copies are inactive whatever they say. Without an origin, null fields take the
 * defaults of a new item (active, price 100).
 */
export function effectiveShopItem(
  own: Partial<ShopItemOwnValues>,
  origin: ShopItemValues | null,
): EffectiveShopItem {
  const { values, states } = resolveInheritance<ShopItemFieldKey, unknown>(
    shopItemFieldKeys,
    own,
    origin ? { values: origin, locks: { active: !origin.active } } : null,
  );
  const defaults = newShopItemValues();
  return {
    values: {
      active: (values.active as boolean | null) ?? defaults.active,
      name: (values.name as string | null) ?? defaults.name,
      description: (values.description as string | null) ?? defaults.description,
      price: (values.price as number | null) ?? defaults.price,
      illustration_path: (values.illustration_path as string | null) ?? null,
    },
    states,
  };
}

/**
 * What a database copy stores once edited (the editor shows effective values): a field equal
 * to the distributor item's is stored null so it keeps following the distributor; a field the
 * user changed is the copy's own. Without an origin every value is the item's own.
 */
export function shopItemOverrides(
  edited: ShopItemValues,
  origin: ShopItemValues | null,
): ShopItemOwnValues {
  if (!origin) return { ...edited };
  const own = {} as Record<ShopItemFieldKey, unknown>;
  for (const key of shopItemFieldKeys) {
    own[key] = samePrice(key, edited[key], origin[key]) ? null : edited[key];
  }
  return own as ShopItemOwnValues;
}

function samePrice(key: ShopItemFieldKey, left: unknown, right: unknown): boolean {
  if (key === 'price') return Math.round(Number(left) * 100) === Math.round(Number(right) * 100);
  return left === right;
}

/**
 * A database's shop list (spec 001 §4): its saved rows by index, then the distributor's items
 * it has no copy of (shown as new unsaved copies), in the distributor's order. Copies of an item
 * the distributor no longer has are dropped (the database follows the distributor's shop).
 */
export function mergeDatabaseShop<
  D extends { id: string; index: number },
  C extends { id: string; origin_id: string | null; index: number },
>(
  distributorItems: readonly D[],
  databaseItems: readonly C[],
): { copy: C | null; origin: D | null }[] {
  const byId = new Map(distributorItems.map((item) => [item.id, item]));
  const copied = new Set<string>();
  const saved = [...databaseItems]
    .sort(byIndex)
    .filter((row) => row.origin_id === null || byId.has(row.origin_id))
    .map((row) => {
      if (row.origin_id) copied.add(row.origin_id);
      return { copy: row, origin: row.origin_id ? (byId.get(row.origin_id) ?? null) : null };
    });
  const unsaved = [...distributorItems]
    .sort(byIndex)
    .filter((item) => !copied.has(item.id))
    .map((item) => ({ copy: null, origin: item }));
  return [...saved, ...unsaved];
}

function byIndex(left: { index: number; id: string }, right: { index: number; id: string }) {
  return left.index - right.index || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);
}

/** On save, each item gets its index by its position (spec 001 §4). */
export function indexByPosition<T>(items: readonly T[]): (T & { index: number })[] {
  return items.map((item, index) => ({ ...item, index }));
}

/**
 * Move-left (-1) and move-right (+1) of a card: swaps it with its neighbour; at either end the
 * list is returned unchanged.
 */
export function moveItem<T>(items: readonly T[], position: number, direction: -1 | 1): T[] {
  const target = position + direction;
  const copy = [...items];
  if (position < 0 || position >= copy.length || target < 0 || target >= copy.length) return copy;
  [copy[position], copy[target]] = [copy[target] as T, copy[position] as T];
  return copy;
}

/** Euros rounded to the cent. */
export function roundPrice(value: number): number {
  return Math.round(value * 100) / 100;
}

/** An order's total in euros: unit price × quantity per line, summed in cents. */
export function orderTotal(lines: readonly { price: number; quantity: number }[]): number {
  const cents = lines.reduce((sum, line) => sum + Math.round(line.price * 100) * line.quantity, 0);
  return cents / 100;
}

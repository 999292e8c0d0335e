import {
  moveItem,
  newShopItemValues,
  type ShopItemValues,
  shopItemOverrides,
} from '@mise/shared/shop/rules';
import type {
  DatabaseShop,
  DatabaseShopItem,
  DistributorShop,
  SaveDatabaseShopBody,
  SaveDistributorShopBody,
} from '@mise/shared/shop/schemas';

/*
 * What the shop screens edit before Save: one draft per card, in the shop's order. The price is
 * null while its field is empty (a null price is the default, 100).
 */

export type ShopCardValues = Omit<ShopItemValues, 'price'> & {
  price: number | null;
  illustration_url: string | null;
};

export type ShopItemDraft = {
  /** Stable across renders (the id, or a local key for a new card). */
  key: string;
  id: string | null;
  version: number;
  values: ShopCardValues;
  /** Database level: the distributor item copied (null for an item of the database's own). */
  origin_id: string | null;
  origin: ShopItemValues | null;
  /** Database level: false for a distributor item shown as a copy not saved yet. */
  isSaved: boolean;
};

let localKeySequence = 0;
const localKey = () => {
  localKeySequence += 1;
  return `new-${localKeySequence}`;
};

/** A new card: active, price 100 (spec 001 §5). */
export function newItemDraft(): ShopItemDraft {
  return {
    key: localKey(),
    id: null,
    version: 0,
    values: { ...newShopItemValues(), illustration_url: null },
    origin_id: null,
    origin: null,
    isSaved: false,
  };
}

export function distributorDrafts(shop: DistributorShop): ShopItemDraft[] {
  return shop.items.map((item) => ({
    key: item.id,
    id: item.id,
    version: item.version,
    values: {
      active: item.active,
      name: item.name,
      description: item.description,
      price: item.price,
      illustration_path: item.illustration_path,
      illustration_url: item.illustration_url,
    },
    origin_id: null,
    origin: null,
    isSaved: true,
  }));
}

export function distributorSaveBody(
  drafts: readonly ShopItemDraft[],
  shopEmail: string,
): SaveDistributorShopBody {
  return {
    shop_email: shopEmail.trim() === '' ? null : shopEmail.trim(),
    items: drafts.map((draft) => ({
      ...(draft.id ? { id: draft.id, version: draft.version } : {}),
      active: draft.values.active,
      name: draft.values.name.trim(),
      description: draft.values.description.trim(),
      price: draft.values.price,
      illustration_path: draft.values.illustration_path,
    })),
  };
}

function databaseDraft(item: DatabaseShopItem): ShopItemDraft {
  return {
    key: item.id ?? `origin-${item.origin_id}`,
    id: item.id,
    version: item.version,
    values: {
      active: item.active,
      name: item.name,
      description: item.description,
      price: item.price,
      illustration_path: item.illustration_path,
      illustration_url: item.illustration_url,
    },
    origin_id: item.origin_id,
    origin: item.origin,
    isSaved: item.is_saved,
  };
}

export function databaseDrafts(shop: DatabaseShop): ShopItemDraft[] {
  return shop.items.map(databaseDraft);
}

/**
 * The database save: each card's values as overrides of its distributor item (a value equal to
 * the distributor's is sent null and keeps following it; an emptied price follows it too).
 */
export function databaseSaveBody(drafts: readonly ShopItemDraft[]): SaveDatabaseShopBody {
  return {
    items: drafts.map((draft) => {
      const edited: ShopItemValues = {
        active: draft.values.active,
        name: draft.values.name.trim(),
        description: draft.values.description.trim(),
        price: draft.values.price ?? draft.origin?.price ?? newShopItemValues().price,
        illustration_path: draft.values.illustration_path,
      };
      const own = shopItemOverrides(edited, draft.origin);
      return {
        ...(draft.id ? { id: draft.id, version: draft.version } : {}),
        origin_id: draft.origin_id,
        ...own,
        price: draft.values.price === null && draft.origin ? null : own.price,
      };
    }),
  };
}

/**
 * Move-left / move-right among the cards shown (the toggle may hide inactive ones): the card
 * swaps places with its nearest shown neighbour.
 */
export function moveShownCard(
  drafts: readonly ShopItemDraft[],
  key: string,
  direction: -1 | 1,
  isShown: (draft: ShopItemDraft) => boolean,
): ShopItemDraft[] {
  const position = drafts.findIndex((draft) => draft.key === key);
  if (position === -1) return [...drafts];
  let target = position + direction;
  while (target >= 0 && target < drafts.length && !isShown(drafts[target]!)) target += direction;
  if (target < 0 || target >= drafts.length) return [...drafts];
  if (Math.abs(target - position) === 1) return moveItem(drafts, position, direction);
  const copy = [...drafts];
  [copy[position], copy[target]] = [copy[target]!, copy[position]!];
  return copy;
}

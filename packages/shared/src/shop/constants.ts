/**
 * The shop (spec 001 §2.3, §2.10, §3.12, §4, §5, §9; issue 19 for a store's orders).
 */

/** Price of a shop item whose price is unset, and of a freshly added item (spec 001 §5, §9). */
export const defaultShopItemPrice = 100;

/**
 * Prices the server accepts, in euros, to the cent. The spec only gives the number picker's
 * default bounds (±999999999999999); a price is never negative and the column holds
 * 10 digits with 2 decimals (see docs/decisions.md).
 */
export const shopPriceRange = { min: 0, max: 99_999_999.99 } as const;

/** Quantity of one line of a store's order. */
export const shopOrderQuantityRange = { min: 1, max: 9999 } as const;
/** Lines of one order. */
export const shopOrderMaxLines = 200;
/** A note the store adds to its order. */
export const shopOrderNoteMaxLength = 1000;
/** Items of one shop (distributor or database). */
export const shopMaxItems = 500;

export const shopNameMaxLength = 120;
export const shopDescriptionMaxLength = 2000;

/** Orders listed per page for the distributor. */
export const shopOrdersPageSize = 20;

/** The fields a database copy inherits from its distributor item (spec 001 §3.12). */
export const shopItemFieldKeys = [
  'active',
  'name',
  'description',
  'price',
  'illustration_path',
] as const;
export type ShopItemFieldKey = (typeof shopItemFieldKeys)[number];

/** Status of a recorded order: e-mailed, or kept without e-mail (the distributor has none). */
export const shopOrderStatuses = ['pending', 'sent', 'no-email'] as const;
export type ShopOrderStatus = (typeof shopOrderStatuses)[number];

import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { fieldStateSchema } from '../catalogue/schemas';
import {
  shopDescriptionMaxLength,
  shopItemFieldKeys,
  shopMaxItems,
  shopNameMaxLength,
  shopOrderMaxLines,
  shopOrderNoteMaxLength,
  shopOrderQuantityRange,
  shopOrderStatuses,
  shopOrdersPageSize,
  shopPriceRange,
} from './constants';

/*
 * The shop (spec 001 §2.3, §2.10, §3.12, §4, §5, §7, §8; issue 19 for a store's orders).
 *
 * Back-office (session):
 *   GET  /api/shop                                    the signed-in distributor's shop
 *   GET  /api/distributors/:id/shop                   a distributor's shop (its distributor, admin)
 *   PUT  /api/distributors/:id/shop                   save: shop_email and the items, in order
 *   POST /api/distributors/:id/shop/illustrations     an item picture (multipart) -> { path, url }
 *   GET  /api/distributors/:id/shop/items/:itemId/prices   the per-database prices table
 *   PUT  /api/distributors/:id/shop/items/:itemId/prices   set or reset prices per database
 *   GET  /api/distributors/:id/shop/orders            the stores' orders, newest first, paged
 *   GET  /api/databases/:id/shop                      distributor items merged with the copies
 *   PUT  /api/databases/:id/shop                      save the database's items (distributor, admin)
 *   POST /api/databases/:id/shop/illustrations        a copy's own picture (multipart)
 *   GET  /api/stores/:storeId/shop                    the store's orderable items
 *   POST /api/stores/:storeId/shop/orders             an order (whoever may edit the store: its
 *                                                     owners, distributor, admins, managers of a
 *                                                     manager-owned store)
 *   GET  /api/stores/:storeId/shop/orders             the store's orders, newest first, paged
 *                                                     (whoever sees the store)
 *
 * Tablet (Bearer device token; the order also `x-employee-token`):
 *   GET  /api/device/shop                             the store's orderable items
 *   POST /api/device/shop/orders                      an order; a retry with the same key is recorded once
 *
 * Prices are euros with cents (numbers). A null price on a distributor item means the default
 * (100); on a database copy it means the distributor item's price.
 */

const price = z.number().min(shopPriceRange.min).max(shopPriceRange.max).multipleOf(0.01);
const name = z.string().trim().max(shopNameMaxLength);
const description = z.string().trim().max(shopDescriptionMaxLength);
/** A key returned by an illustrations upload (`distributors/<id>/shops/<file>`). */
const illustrationPath = z.string().min(1).max(500);
const version = z.number().int().min(0);

export const shopItemFieldKeySchema = z.enum(shopItemFieldKeys);
export const shopPriceSchema = price;

/** POST …/shop/illustrations: the stored picture, to send as an item's `illustration_path`. */
export const shopIllustrationResponseSchema = z.object({ path: z.string(), url: z.string() });
export type ShopIllustration = z.infer<typeof shopIllustrationResponseSchema>;

/* ---------- Distributor shop (spec 001 §2.10, §3.12) ---------- */

export const distributorShopItemSchema = z.object({
  id: idSchema,
  active: z.boolean(),
  name: z.string(),
  description: z.string(),
  /** Euros; a price never set reads as the default 100. */
  price: z.number(),
  illustration_path: z.string().nullable(),
  /** `/api/files/<path>`, or null without a picture. */
  illustration_url: z.string().nullable(),
  index: z.number().int(),
  version: z.number().int(),
});
export type DistributorShopItem = z.infer<typeof distributorShopItemSchema>;

export const distributorShopSchema = z.object({
  distributor: z.object({
    id: idSchema,
    name: z.string(),
    shop_email: z.string().nullable(),
  }),
  /** Ordered by index. Inactive items included (the screen's toggle hides them). */
  items: z.array(distributorShopItemSchema),
  can_edit: z.boolean(),
});
export type DistributorShop = z.infer<typeof distributorShopSchema>;
export const distributorShopResponseSchema = z.object({ shop: distributorShopSchema });

export const distributorShopItemInputSchema = z.strictObject({
  /** Absent or null: a new item. */
  id: idSchema.nullable().optional(),
  /** The version read; required with an id (a stale one answers 409 conflict/stale-version). */
  version: version.optional(),
  active: z.boolean(),
  name,
  description,
  /** Null: the default price (100). */
  price: price.nullable(),
  illustration_path: illustrationPath.nullable(),
});
export type DistributorShopItemInput = z.infer<typeof distributorShopItemInputSchema>;

/**
 * PUT /api/distributors/:id/shop (the screen's modify button): the shop e-mail and the items in
 * their order; each gets its index by its position (spec 001 §4). Items not sent keep their
 * values and follow the sent ones. Nothing is deleted: an item is deactivated.
 */
export const saveDistributorShopBodySchema = z.strictObject({
  /** '' or null: no shop e-mail (orders are then recorded but not e-mailed). */
  shop_email: z
    .union([z.literal(''), z.string().trim().toLowerCase().max(254).pipe(z.email())])
    .nullable(),
  items: z
    .array(distributorShopItemInputSchema)
    .max(shopMaxItems)
    .refine(hasUniqueIds, 'an item is listed twice'),
});
export type SaveDistributorShopBody = z.infer<typeof saveDistributorShopBodySchema>;

/* ---------- Per-database prices of one distributor item (spec 001 §2.10, §8) ---------- */

export const shopItemPriceRowSchema = z.object({
  database_id: idSchema,
  database_name: z.string(),
  /** The database's copy of the item, null when it has none yet. */
  database_item_id: idSchema.nullable(),
  /** Effective values of the database's copy (the distributor item's when there is none). */
  active: z.boolean(),
  illustration_url: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  /** Effective price in euros. */
  price: z.number(),
  /** The database's own price; null follows the distributor item's price. */
  own_price: z.number().nullable(),
  /** Version of the database's copy (0 without one). */
  version: z.number().int(),
});
export type ShopItemPriceRow = z.infer<typeof shopItemPriceRowSchema>;

export const shopItemPricesResponseSchema = z.object({
  item: distributorShopItemSchema,
  /** Every database of the distributor, by name. */
  rows: z.array(shopItemPriceRowSchema),
});
export type ShopItemPrices = z.infer<typeof shopItemPricesResponseSchema>;

/** PUT …/items/:itemId/prices (apply): a price per database, null to reset to the default. */
export const saveShopItemPricesBodySchema = z.strictObject({
  prices: z
    .array(
      z.strictObject({
        database_id: idSchema,
        price: price.nullable(),
        /** The copy's version read (0 or absent when the database had no copy). */
        version: version.optional(),
      }),
    )
    .max(1000)
    .refine(
      (rows) => new Set(rows.map((row) => row.database_id)).size === rows.length,
      'a database is listed twice',
    ),
});
export type SaveShopItemPricesBody = z.infer<typeof saveShopItemPricesBodySchema>;

/* ---------- Database shop (spec 001 §2.1, §2.3, §3.12, §4) ---------- */

export const shopItemValuesSchema = z.object({
  active: z.boolean(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  illustration_path: z.string().nullable(),
});
export type ShopItemValues = z.infer<typeof shopItemValuesSchema>;

export const shopItemOwnValuesSchema = z.object({
  active: z.boolean().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  price: z.number().nullable(),
  illustration_path: z.string().nullable(),
});
export type ShopItemOwnValues = z.infer<typeof shopItemOwnValuesSchema>;

export const databaseShopItemSchema = shopItemValuesSchema.extend({
  /** The database's row; null for a distributor item without a database copy yet. */
  id: idSchema.nullable(),
  /** The distributor item it copies; null for an item of the database's own. */
  origin_id: idSchema.nullable(),
  /** False for a distributor item shown as a new copy not yet saved (spec 001 §4). */
  is_saved: z.boolean(),
  illustration_url: z.string().nullable(),
  /** The database's own values: null follows the distributor item. */
  own: shopItemOwnValuesSchema,
  /** The distributor item's values (null without origin). */
  origin: shopItemValuesSchema.nullable(),
  /**
   * Per field: own (no origin), inherited (null, the origin's applies), overridden, or locked
   * (`active` when the distributor deactivated the item: the copy is inactive too).
   */
  states: z.record(shopItemFieldKeySchema, fieldStateSchema),
  index: z.number().int(),
  version: z.number().int(),
});
export type DatabaseShopItem = z.infer<typeof databaseShopItemSchema>;

export const databaseShopSchema = z.object({
  database: z.object({ id: idSchema, name: z.string() }),
  distributor: z.object({ id: idSchema, name: z.string() }).nullable(),
  /** False for a database without a distributor: it has no shop (spec 001 §4), items empty. */
  has_shop: z.boolean(),
  /** Distributor (of the database) and admin only (spec 001 §2.1, §6). */
  can_edit: z.boolean(),
  /** Saved items by index, then the distributor's items without a copy, by their index. */
  items: z.array(databaseShopItemSchema),
});
export type DatabaseShop = z.infer<typeof databaseShopSchema>;
export const databaseShopResponseSchema = z.object({ shop: databaseShopSchema });

export const databaseShopItemInputSchema = z.strictObject({
  /** Absent or null: a new row (a copy of `origin_id`, or an item of the database's own). */
  id: idSchema.nullable().optional(),
  origin_id: idSchema.nullable(),
  version: version.optional(),
  /** Null: follow the distributor item (without origin: active, '' , price 100, no picture). */
  active: z.boolean().nullable(),
  name: name.nullable(),
  description: description.nullable(),
  price: price.nullable(),
  illustration_path: illustrationPath.nullable(),
});
export type DatabaseShopItemInput = z.infer<typeof databaseShopItemInputSchema>;

/**
 * PUT /api/databases/:id/shop: the database's items in their order (each gets its index by its
 * position). Unsaved copies sent are created; rows not sent keep their values after the sent.
 */
export const saveDatabaseShopBodySchema = z.strictObject({
  items: z
    .array(databaseShopItemInputSchema)
    .max(shopMaxItems)
    .refine(hasUniqueIds, 'an item is listed twice')
    .refine((items) => {
      const origins = items.map((item) => item.origin_id).filter((id) => id !== null);
      return new Set(origins).size === origins.length;
    }, 'a distributor item is copied twice'),
});
export type SaveDatabaseShopBody = z.infer<typeof saveDatabaseShopBodySchema>;

/* ---------- A store's shop and orders (issue 19) ---------- */

/** One item a store may order: an active item of its database's shop, effective values. */
export const storeShopItemSchema = z.object({
  /** The database copy's id, or the distributor item's for one without a copy: order by it. */
  id: idSchema,
  name: z.string(),
  description: z.string(),
  price: z.number(),
  illustration_url: z.string().nullable(),
});
export type StoreShopItem = z.infer<typeof storeShopItemSchema>;

/** GET /api/device/shop and GET /api/stores/:storeId/shop. */
export const storeShopResponseSchema = z.object({
  /**
   * False when the store cannot order: its database has no distributor, or the shop extension
   * is hidden for the store or its database. Items are then empty.
   */
  available: z.boolean(),
  distributor_name: z.string().nullable(),
  items: z.array(storeShopItemSchema),
});
export type StoreShop = z.infer<typeof storeShopResponseSchema>;

export const shopOrderLineInputSchema = z.strictObject({
  /** A `StoreShopItem.id`. */
  item_id: idSchema,
  quantity: z.number().int().min(shopOrderQuantityRange.min).max(shopOrderQuantityRange.max),
});

/**
 * POST /api/stores/:storeId/shop/orders and POST /api/device/shop/orders. Priced by the
 * server at the time of the order; an unknown or inactive item answers 400 'shop/unknown-item'.
 * The same key again answers the first order and records nothing (another body with it: 409
 * 'idempotency/conflict').
 */
export const createShopOrderBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  lines: z
    .array(shopOrderLineInputSchema)
    .min(1)
    .max(shopOrderMaxLines)
    .refine(
      (lines) => new Set(lines.map((line) => line.item_id)).size === lines.length,
      'an item is ordered twice',
    ),
  note: z.string().trim().max(shopOrderNoteMaxLength).default(''),
});
export type CreateShopOrderBody = z.input<typeof createShopOrderBodySchema>;

export const shopOrderLineSchema = z.object({
  item_id: idSchema,
  name: z.string(),
  /** Unit price in euros when ordered. */
  price: z.number(),
  quantity: z.number().int(),
});
export type ShopOrderLine = z.infer<typeof shopOrderLineSchema>;

export const shopOrderSchema = z.object({
  id: idSchema,
  distributor_id: idSchema,
  database_id: idSchema,
  database_name: z.string(),
  store_id: idSchema,
  store_name: z.string(),
  lines: z.array(shopOrderLineSchema),
  /** Euros. */
  total: z.number(),
  note: z.string(),
  /** sent: e-mailed to `email_to`; no-email: the distributor has no shop e-mail; pending: queued. */
  status: z.enum(shopOrderStatuses),
  email_to: z.string().nullable(),
  /** Who ordered: an employee on a tablet, or a back-office user. */
  ordered_by: z
    .object({ kind: z.enum(['employee', 'user']), name: z.string(), surname: z.string() })
    .nullable(),
  created_at: z.string(),
});
export type ShopOrder = z.infer<typeof shopOrderSchema>;
export const shopOrderResponseSchema = z.object({ order: shopOrderSchema });

export const listShopOrdersQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(shopOrdersPageSize),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListShopOrdersQuery = z.infer<typeof listShopOrdersQuerySchema>;
export const listShopOrdersResponseSchema = z.object({
  items: z.array(shopOrderSchema),
  total: z.number().int(),
});
export type ShopOrderList = z.infer<typeof listShopOrdersResponseSchema>;

function hasUniqueIds(items: readonly { id?: string | null }[]): boolean {
  const ids = items.map((item) => item.id).filter((id): id is string => typeof id === 'string');
  return new Set(ids).size === ids.length;
}

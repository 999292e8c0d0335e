import { randomBytes } from 'node:crypto';
import {
  distributorItemValues,
  effectiveShopItem,
  mergeDatabaseShop,
  type ShopItemOwnValues,
  type ShopItemValues,
} from '@mise/shared/shop/rules';
import type {
  DatabaseShop,
  DatabaseShopItem,
  DistributorShop,
  DistributorShopItem,
  SaveDatabaseShopBody,
  SaveDistributorShopBody,
  SaveShopItemPricesBody,
  ShopIllustration,
  ShopItemPrices,
  StoreShop,
} from '@mise/shared/shop/schemas';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseShopItems, databases, distributorShopItems, distributors } from '../../db/schema';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { deleteQueuedFiles, queueStorageDeletions } from '../files/storage-deletions';

/*
 * The shop (spec 001 §2.3, §2.10, §3.12, §4, §5, §7): the distributor's items, the databases'
 * copies that inherit from them, and what a store may order (issue 19).
 */

type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;
type Deps = Pick<AppDeps, 'db' | 'storage'>;
type DistributorItemRow = typeof distributorShopItems.$inferSelect;
type DatabaseItemRow = typeof databaseShopItems.$inferSelect;

const fileUrl = (path: string | null) => (path ? `/api/files/${path}` : null);
const priceOf = (value: string | null): number | null => (value === null ? null : Number(value));
const priceText = (value: number | null): string | null =>
  value === null ? null : value.toFixed(2);

/** Shop pictures live under the distributor (spec 001 §7: distributors/{id}/shops/{file}). */
export const shopFolder = (distributorId: string) => `distributors/${distributorId}/shops/`;

/** Shop and store-access editing: distributor and admin only (spec 001 §2.1, §6). */
export function canEditShop(scope: Scope): boolean {
  return scope.isAll || scope.role === 'distributor';
}

/* ---------- Distributor shop ---------- */

/** The distributor whose shop the caller edits: its own (distributor) or any (admin). */
export async function findShopDistributor(db: Database, scope: Scope, distributorId: string) {
  const distributor = await findDistributorInScope(db, scope, distributorId);
  if (!canEditShop(scope)) throw forbidden();
  return distributor;
}

/** GET /api/shop: the signed-in distributor's own distributor. */
export function ownDistributorId(scope: Scope): string {
  const id = scope.role === 'distributor' ? scope.distributorIds[0] : undefined;
  if (!id) throw forbidden();
  return id;
}

function presentDistributorItem(row: DistributorItemRow): DistributorShopItem {
  const values = distributorItemValues({ ...row, price: priceOf(row.price) });
  return {
    id: row.id,
    ...values,
    illustration_url: fileUrl(values.illustration_path),
    index: row.index,
    version: row.version,
  };
}

async function distributorItems(db: Executor, distributorId: string) {
  return db
    .select()
    .from(distributorShopItems)
    .where(eq(distributorShopItems.distributor_id, distributorId))
    .orderBy(asc(distributorShopItems.index), asc(distributorShopItems.id));
}

export async function getDistributorShop(
  db: Database,
  scope: Scope,
  distributorId: string,
): Promise<DistributorShop> {
  const distributor = await findShopDistributor(db, scope, distributorId);
  const rows = await distributorItems(db, distributor.id);
  return {
    distributor: {
      id: distributor.id,
      name: distributor.name,
      shop_email: distributor.shop_email,
    },
    items: rows.map(presentDistributorItem),
    can_edit: true,
  };
}

/**
 * A picture named by a save: unchanged, or a file uploaded under the distributor's shop folder
 * that exists. Anything else is refused (the key is the server's, never the caller's choice).
 */
async function assertIllustration(
  storage: Storage,
  distributorId: string,
  path: string | null,
  current: string | null,
): Promise<void> {
  if (path === null || path === current) return;
  const folder = shopFolder(distributorId);
  const name = path.startsWith(folder) ? path.slice(folder.length) : '';
  if (!/^[a-f0-9]{16}\.(png|jpg|webp)$/.test(name) || !(await storage.stat(path))) {
    throw new AppError('validation/invalid-input', 'This picture was not uploaded to this shop.', [
      { path: 'illustration_path', message: 'unknown picture' },
    ]);
  }
}

/** Of the pictures a save replaced, those no shop item refers to any more. */
async function unreferenced(tx: Executor, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const [distributorRows, databaseRows] = await Promise.all([
    tx
      .select({ path: distributorShopItems.illustration_path })
      .from(distributorShopItems)
      .where(inArray(distributorShopItems.illustration_path, paths)),
    tx
      .select({ path: databaseShopItems.illustration_path })
      .from(databaseShopItems)
      .where(inArray(databaseShopItems.illustration_path, paths)),
  ]);
  const used = new Set([...distributorRows, ...databaseRows].map((row) => row.path));
  return paths.filter((path) => !used.has(path));
}

/**
 * PUT /api/distributors/:id/shop (spec 001 §2.10, §4, §7): the shop e-mail and the items in
 * their order, in one transaction. Each item gets its index by its position; an item sent with
 * a stale version answers 409 and nothing is written; unchanged items keep their version.
 */
export async function saveDistributorShop(
  deps: Deps,
  scope: Scope,
  distributorId: string,
  body: SaveDistributorShopBody,
): Promise<DistributorShop> {
  const { db, storage } = deps;
  const distributor = await findShopDistributor(db, scope, distributorId);
  const replaced: string[] = [];
  let deletions: string[] = [];
  await db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(distributorShopItems)
      .where(eq(distributorShopItems.distributor_id, distributor.id))
      .orderBy(asc(distributorShopItems.index), asc(distributorShopItems.id))
      .for('update');
    const byId = new Map(existing.map((row) => [row.id, row]));
    const now = new Date();
    for (const [position, item] of body.items.entries()) {
      const values = {
        active: item.active,
        name: item.name,
        description: item.description,
        price: priceText(item.price),
        illustration_path: item.illustration_path,
        illustration_url: fileUrl(item.illustration_path),
        index: position,
      };
      if (!item.id) {
        await assertIllustration(storage, distributor.id, item.illustration_path, null);
        await tx
          .insert(distributorShopItems)
          .values({ ...values, distributor_id: distributor.id, created_at: now, updated_at: now });
        continue;
      }
      const row = byId.get(item.id);
      if (!row) throw notFound();
      byId.delete(item.id);
      if (item.version !== row.version) throw new AppError('conflict/stale-version');
      if (isSame(row, values)) continue;
      await assertIllustration(
        storage,
        distributor.id,
        item.illustration_path,
        row.illustration_path,
      );
      if (row.illustration_path && row.illustration_path !== item.illustration_path) {
        replaced.push(row.illustration_path);
      }
      await tx
        .update(distributorShopItems)
        .set({ ...values, version: sql`${distributorShopItems.version} + 1`, updated_at: now })
        .where(eq(distributorShopItems.id, row.id));
    }
    // Items not sent follow the sent ones, in their order.
    await reindexRest(tx, distributorShopItems, [...byId.values()], body.items.length, now);
    const email = body.shop_email || null;
    if (email !== distributor.shop_email) {
      await tx
        .update(distributors)
        .set({ shop_email: email, updated_at: now })
        .where(eq(distributors.id, distributor.id));
    }
    deletions = await unreferenced(tx, replaced);
    await queueStorageDeletions(tx, deletions);
  });
  await deleteQueuedFiles(db, storage, deletions);
  return getDistributorShop(db, scope, distributor.id);
}

function isSame(
  row: {
    active: boolean | null;
    name: string | null;
    description: string | null;
    price: string | null;
    illustration_path: string | null;
    index: number;
  },
  values: {
    active: boolean | null;
    name: string | null;
    description: string | null;
    price: string | null;
    illustration_path: string | null;
    index: number;
  },
): boolean {
  return (
    row.active === values.active &&
    row.name === values.name &&
    row.description === values.description &&
    priceOf(row.price) === priceOf(values.price) &&
    row.illustration_path === values.illustration_path &&
    row.index === values.index
  );
}

async function reindexRest(
  tx: Executor,
  table: typeof distributorShopItems | typeof databaseShopItems,
  rows: { id: string; index: number }[],
  start: number,
  now: Date,
): Promise<void> {
  for (const [offset, row] of rows.entries()) {
    if (row.index === start + offset) continue;
    await tx
      .update(table)
      .set({ index: start + offset, version: sql`${table.version} + 1`, updated_at: now })
      .where(eq(table.id, row.id));
  }
}

/** POST …/shop/illustrations: a picture stored under the distributor's shop folder. */
export async function storeIllustration(
  storage: Storage,
  distributorId: string,
  image: { data: Buffer; extension: string },
): Promise<ShopIllustration> {
  const path = `${shopFolder(distributorId)}${randomBytes(8).toString('hex')}.${image.extension}`;
  await storage.put(path, image.data);
  return { path, url: fileUrl(path)! };
}

/* ---------- Database shop ---------- */

function ownValuesOf(row: DatabaseItemRow | null): ShopItemOwnValues {
  if (!row) {
    return { active: null, name: null, description: null, price: null, illustration_path: null };
  }
  return {
    active: row.active,
    name: row.name,
    description: row.description,
    price: priceOf(row.price),
    illustration_path: row.illustration_path,
  };
}

function originValuesOf(row: DistributorItemRow): ShopItemValues {
  return distributorItemValues({ ...row, price: priceOf(row.price) });
}

function presentDatabaseItem(
  entry: { copy: DatabaseItemRow | null; origin: DistributorItemRow | null },
  position: number,
): DatabaseShopItem {
  const origin = entry.origin ? originValuesOf(entry.origin) : null;
  const own = ownValuesOf(entry.copy);
  const { values, states } = effectiveShopItem(own, origin);
  return {
    ...values,
    id: entry.copy?.id ?? null,
    origin_id: entry.copy ? entry.copy.origin_id : (entry.origin?.id ?? null),
    is_saved: entry.copy !== null,
    illustration_url: fileUrl(values.illustration_path),
    own,
    origin,
    states,
    index: position,
    version: entry.copy?.version ?? 0,
  };
}

/** A database's shop list: its rows merged with its distributor's items (spec 001 §4). */
async function databaseShopEntries(db: Executor, databaseId: string, distributorId: string) {
  const [origins, copies] = await Promise.all([
    distributorItems(db, distributorId),
    db.select().from(databaseShopItems).where(eq(databaseShopItems.database_id, databaseId)),
  ]);
  return mergeDatabaseShop(origins, copies);
}

/**
 * GET /api/databases/:id/shop: whoever sees the database reads it; only the distributor and
 * admins may edit (can_edit). A database without a distributor has no shop (spec 001 §4).
 */
export async function getDatabaseShop(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<DatabaseShop> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  const base = {
    database: { id: database.id, name: database.name },
    can_edit: canEditShop(scope),
  };
  if (!database.distributor_id) {
    return { ...base, distributor: null, has_shop: false, items: [] };
  }
  const [distributor] = await db
    .select({ id: distributors.id, name: distributors.name })
    .from(distributors)
    .where(eq(distributors.id, database.distributor_id));
  const entries = await databaseShopEntries(db, database.id, database.distributor_id);
  return {
    ...base,
    distributor: distributor ?? null,
    has_shop: true,
    items: entries.map(presentDatabaseItem),
  };
}

/** The database whose shop the caller changes: in scope, distributor or admin, with a shop. */
async function findEditableDatabaseShop(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canEditShop(scope)) throw forbidden();
  if (!database.distributor_id) throw new AppError('shop/unavailable');
  return { ...database, distributor_id: database.distributor_id };
}

/**
 * PUT /api/databases/:id/shop (spec 001 §2.3, §4): the database's items in their order, in one
 * transaction. A new row copies a distributor item (or is the database's own); null fields
 * follow the distributor item. A copy of an item already copied meanwhile, or a stale version,
 * answers 409 and nothing is written.
 */
export async function saveDatabaseShop(
  deps: Deps,
  scope: Scope,
  databaseId: string,
  body: SaveDatabaseShopBody,
): Promise<DatabaseShop> {
  const { db, storage } = deps;
  const database = await findEditableDatabaseShop(db, scope, databaseId);
  const replaced: string[] = [];
  let deletions: string[] = [];
  await db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(databaseShopItems)
      .where(eq(databaseShopItems.database_id, database.id))
      .orderBy(asc(databaseShopItems.index), asc(databaseShopItems.id))
      .for('update');
    const origins = new Set(
      (
        await tx
          .select({ id: distributorShopItems.id })
          .from(distributorShopItems)
          .where(eq(distributorShopItems.distributor_id, database.distributor_id))
      ).map((row) => row.id),
    );
    const byId = new Map(existing.map((row) => [row.id, row]));
    const copiedOrigins = new Set(existing.map((row) => row.origin_id));
    const now = new Date();
    for (const [position, item] of body.items.entries()) {
      const values = {
        active: item.active,
        name: item.name,
        description: item.description,
        price: priceText(item.price),
        illustration_path: item.illustration_path,
        illustration_url: fileUrl(item.illustration_path),
        index: position,
      };
      if (!item.id) {
        if (item.origin_id !== null) {
          if (!origins.has(item.origin_id)) throw new AppError('shop/unknown-origin');
          // Copied by someone else since this list was read.
          if (copiedOrigins.has(item.origin_id)) throw new AppError('conflict/stale-version');
        }
        await assertIllustration(storage, database.distributor_id, item.illustration_path, null);
        await tx.insert(databaseShopItems).values({
          ...values,
          database_id: database.id,
          origin_id: item.origin_id,
          created_at: now,
          updated_at: now,
        });
        continue;
      }
      const row = byId.get(item.id);
      if (!row) throw notFound();
      byId.delete(item.id);
      if (item.origin_id !== row.origin_id) {
        throw new AppError('validation/invalid-input', 'The origin of an item cannot change.', [
          { path: 'origin_id', message: 'cannot change' },
        ]);
      }
      if (item.version !== row.version) throw new AppError('conflict/stale-version');
      if (isSame(row, values)) continue;
      await assertIllustration(
        storage,
        database.distributor_id,
        item.illustration_path,
        row.illustration_path,
      );
      if (row.illustration_path && row.illustration_path !== item.illustration_path) {
        replaced.push(row.illustration_path);
      }
      await tx
        .update(databaseShopItems)
        .set({ ...values, version: sql`${databaseShopItems.version} + 1`, updated_at: now })
        .where(eq(databaseShopItems.id, row.id));
    }
    await reindexRest(tx, databaseShopItems, [...byId.values()], body.items.length, now);
    deletions = await unreferenced(tx, replaced);
    await queueStorageDeletions(tx, deletions);
  });
  await deleteQueuedFiles(db, storage, deletions);
  return getDatabaseShop(db, scope, database.id);
}

/** The distributor folder a database's shop pictures go to (distributor and admin only). */
export async function databaseShopDistributor(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<string> {
  return (await findEditableDatabaseShop(db, scope, databaseId)).distributor_id;
}

/* ---------- Per-database prices of one distributor item (spec 001 §2.10) ---------- */

async function findDistributorItem(db: Executor, distributorId: string, itemId: string) {
  const [item] = await db
    .select()
    .from(distributorShopItems)
    .where(
      and(
        eq(distributorShopItems.id, itemId),
        eq(distributorShopItems.distributor_id, distributorId),
      ),
    );
  if (!item) throw notFound();
  return item;
}

/** GET …/items/:itemId/prices: every database of the distributor with its copy's values. */
export async function getItemPrices(
  db: Database,
  scope: Scope,
  distributorId: string,
  itemId: string,
): Promise<ShopItemPrices> {
  const distributor = await findShopDistributor(db, scope, distributorId);
  const item = await findDistributorItem(db, distributor.id, itemId);
  const [databaseRows, copies] = await Promise.all([
    db
      .select({ id: databases.id, name: databases.name })
      .from(databases)
      .where(eq(databases.distributor_id, distributor.id))
      .orderBy(asc(databases.name), asc(databases.id)),
    db.select().from(databaseShopItems).where(eq(databaseShopItems.origin_id, item.id)),
  ]);
  const copyOf = new Map(copies.map((copy) => [copy.database_id, copy]));
  const origin = originValuesOf(item);
  return {
    item: presentDistributorItem(item),
    rows: databaseRows.map((database) => {
      const copy = copyOf.get(database.id) ?? null;
      const { values } = effectiveShopItem(ownValuesOf(copy), origin);
      return {
        database_id: database.id,
        database_name: database.name,
        database_item_id: copy?.id ?? null,
        active: values.active,
        illustration_url: fileUrl(values.illustration_path),
        name: values.name,
        description: values.description,
        price: values.price,
        own_price: priceOf(copy?.price ?? null),
        version: copy?.version ?? 0,
      };
    }),
  };
}

/**
 * PUT …/items/:itemId/prices (apply): sets or resets (null) the price of the item per database,
 * in one transaction. A database without a copy gets one (its other fields following the
 * distributor item), placed after its other items. A stale version answers 409.
 */
export async function saveItemPrices(
  db: Database,
  scope: Scope,
  distributorId: string,
  itemId: string,
  body: SaveShopItemPricesBody,
): Promise<ShopItemPrices> {
  const distributor = await findShopDistributor(db, scope, distributorId);
  await db.transaction(async (tx) => {
    const item = await findDistributorItem(tx, distributor.id, itemId);
    const ids = body.prices.map((row) => row.database_id);
    const owned = ids.length
      ? await tx
          .select({ id: databases.id })
          .from(databases)
          .where(and(inArray(databases.id, ids), eq(databases.distributor_id, distributor.id)))
      : [];
    if (owned.length !== new Set(ids).size) throw notFound();
    const copies = ids.length
      ? await tx
          .select()
          .from(databaseShopItems)
          .where(
            and(
              eq(databaseShopItems.origin_id, item.id),
              inArray(databaseShopItems.database_id, ids),
            ),
          )
          .for('update')
      : [];
    const copyOf = new Map(copies.map((copy) => [copy.database_id, copy]));
    const now = new Date();
    for (const row of body.prices) {
      const copy = copyOf.get(row.database_id);
      if (!copy) {
        if ((row.version ?? 0) !== 0) throw new AppError('conflict/stale-version');
        if (row.price === null) continue;
        const [last] = await tx
          .select({ index: sql<number>`coalesce(max(${databaseShopItems.index}), -1)` })
          .from(databaseShopItems)
          .where(eq(databaseShopItems.database_id, row.database_id));
        await tx
          .insert(databaseShopItems)
          .values({
            database_id: row.database_id,
            origin_id: item.id,
            price: priceText(row.price),
            index: Number(last?.index ?? -1) + 1,
            created_at: now,
            updated_at: now,
          })
          .onConflictDoNothing();
        continue;
      }
      if (row.version !== undefined && row.version !== copy.version) {
        throw new AppError('conflict/stale-version');
      }
      if (priceOf(copy.price) === row.price) continue;
      await tx
        .update(databaseShopItems)
        .set({
          price: priceText(row.price),
          version: sql`${databaseShopItems.version} + 1`,
          updated_at: now,
        })
        .where(eq(databaseShopItems.id, copy.id));
    }
  });
  return getItemPrices(db, scope, distributor.id, itemId);
}

/* ---------- A store's shop (issue 19) ---------- */

export type StoreShopContext = {
  storeId: string;
  storeName: string;
  databaseId: string | null;
  databaseName: string | null;
  distributorId: string | null;
  distributorName: string | null;
  shopEmail: string | null;
  /** Hidden extensions of the store and its database. */
  isShopHidden: boolean;
};

/**
 * The items a store may order: the active items of its database's shop with their effective
 * values, in the shop's order. Ids are the database copy's, or the distributor item's for an
 * item without a copy.
 */
export async function storeShopItems(db: Database, context: StoreShopContext): Promise<StoreShop> {
  if (!context.databaseId || !context.distributorId || context.isShopHidden) {
    return { available: false, distributor_name: context.distributorName, items: [] };
  }
  const entries = await databaseShopEntries(db, context.databaseId, context.distributorId);
  const items = entries
    .map((entry, position) => presentDatabaseItem(entry, position))
    .filter((item) => item.active)
    .map((item) => ({
      id: (item.id ?? item.origin_id)!,
      name: item.name,
      description: item.description,
      price: item.price,
      illustration_url: item.illustration_url,
    }));
  return { available: true, distributor_name: context.distributorName, items };
}

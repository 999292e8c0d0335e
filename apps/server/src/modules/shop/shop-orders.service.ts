import { orderTotal, roundPrice } from '@mise/shared/shop/rules';
import type {
  CreateShopOrderBody,
  ListShopOrdersQuery,
  ShopOrder,
  ShopOrderList,
  StoreShop,
} from '@mise/shared/shop/schemas';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import {
  databases,
  distributors,
  employeeRoles,
  employees,
  shopOrders,
  stores,
  users,
} from '../../db/schema';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden } from '../../platform/errors';
import { countPastPage } from '../../platform/paging';
import type { Scope } from '../../platform/scope';
import { findEditableStore, findStoreInScope } from '../stores/stores.service';
import { findShopDistributor, type StoreShopContext, storeShopItems } from './shop.service';
import { type ShopMailLanguage, shopOrderMail } from './shop-mail';

/*
 * A store's orders from its distributor's shop (issue 19; the spec does not show them): priced
 * by the server, recorded once per idempotency key, e-mailed to the distributor's shop_email and
 * listed for the distributor.
 */

type OrderRow = typeof shopOrders.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'mailer' | 'now'>;

/** Who orders: a back-office user, or an employee identified on a paired tablet. */
export type ShopOrderActor =
  | { kind: 'user'; userId: string }
  | { kind: 'employee'; employeeId: string; deviceId: string };

/** The store, its database, the database's distributor (the shop's owner) and its e-mail. */
export async function storeShopContext(db: Database, storeId: string): Promise<StoreShopContext> {
  const [row] = await db
    .select({
      storeId: stores.id,
      storeName: stores.name,
      storeHidden: stores.hidden_extensions,
      databaseId: databases.id,
      databaseName: databases.name,
      databaseHidden: databases.hidden_extensions,
      distributorId: distributors.id,
      distributorName: distributors.name,
      shopEmail: distributors.shop_email,
    })
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .leftJoin(distributors, eq(distributors.id, databases.distributor_id))
    .where(eq(stores.id, storeId));
  if (!row) throw new AppError('not-found');
  const hidden = new Set([...row.storeHidden, ...(row.databaseHidden ?? [])]);
  return {
    storeId: row.storeId,
    storeName: row.storeName,
    databaseId: row.databaseId,
    databaseName: row.databaseName,
    distributorId: row.distributorId,
    distributorName: row.distributorName,
    shopEmail: row.shopEmail,
    isShopHidden: hidden.has('shop'),
  };
}

/** GET /api/device/shop: the items the device's store may order. */
export async function deviceShop(db: Database, storeId: string): Promise<StoreShop> {
  return storeShopItems(db, await storeShopContext(db, storeId));
}

/**
 * POST /api/device/shop/orders: the identified employee's role must grant the shop
 * (`features_permissions.shop`, as the tablet shows the entry), else 403.
 */
export async function createDeviceOrder(
  deps: Deps,
  log: FastifyBaseLogger,
  actor: { storeId: string; deviceId: string; employee: { id: string } },
  body: CreateShopOrderBody,
): Promise<ShopOrder> {
  const [role] = await deps.db
    .select({ features: employeeRoles.features_permissions, active: employeeRoles.active })
    .from(employees)
    .innerJoin(employeeRoles, eq(employeeRoles.id, employees.role_id))
    .where(eq(employees.id, actor.employee.id))
    .limit(1);
  if (!role?.active || role.features?.shop !== true) throw forbidden();
  return createOrder(
    deps,
    log,
    actor.storeId,
    { kind: 'employee', employeeId: actor.employee.id, deviceId: actor.deviceId },
    body,
  );
}

/** GET /api/stores/:storeId/shop: for whoever may order for the store. */
export async function backOfficeStoreShop(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<StoreShop> {
  const store = await findEditableStore(db, scope, storeId);
  return storeShopItems(db, await storeShopContext(db, store.id));
}

/** POST /api/stores/:storeId/shop/orders: the store's owners, its distributor, admins, and its
 * database's managers when the store is manager-owned (the store editing rule, spec 000 §6). */
export async function createBackOfficeOrder(
  deps: Deps,
  log: FastifyBaseLogger,
  scope: Scope,
  storeId: string,
  body: CreateShopOrderBody,
): Promise<ShopOrder> {
  const store = await findEditableStore(deps.db, scope, storeId);
  return createOrder(deps, log, store.id, { kind: 'user', userId: scope.userId }, body);
}

const sameRequest = (row: OrderRow, body: CreateShopOrderBody) => {
  const key = (lines: readonly { item_id: string; quantity: number }[]) =>
    lines
      .map((line) => `${line.item_id}:${line.quantity}`)
      .sort()
      .join(',');
  return key(row.lines) === key(body.lines) && row.note === (body.note ?? '').trim();
};

async function findByKey(db: Database, storeId: string, key: string) {
  const [row] = await db
    .select()
    .from(shopOrders)
    .where(and(eq(shopOrders.store_id, storeId), eq(shopOrders.idempotency_key, key)))
    .limit(1);
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/**
 * Records an order of the store and e-mails it to the distributor's shop_email. The lines are
 * priced from the store's shop now (an item not in it, or inactive, answers 400
 * 'shop/unknown-item'). The idempotency key is unique per store: the same request again
 * answers the recorded order (and sends its e-mail if it had not left yet); another request
 * with the key answers 409 'idempotency/conflict'.
 */
export async function createOrder(
  deps: Deps,
  log: FastifyBaseLogger,
  storeId: string,
  actor: ShopOrderActor,
  body: CreateShopOrderBody,
): Promise<ShopOrder> {
  const { db } = deps;
  const replay = async (row: OrderRow | undefined) => {
    if (!row) return null;
    if (!sameRequest(row, body)) throw new AppError('idempotency/conflict');
    await deliver(deps, log, row.id);
    return presentOrder(db, row.id);
  };
  const earlier = await replay(await findByKey(db, storeId, body.idempotency_key));
  if (earlier) return earlier;

  const context = await storeShopContext(db, storeId);
  const shop = await storeShopItems(db, context);
  if (!shop.available || !context.databaseId || !context.distributorId) {
    throw new AppError('shop/unavailable');
  }
  const items = new Map(shop.items.map((item) => [item.id, item]));
  const lines = body.lines.map((line) => {
    const item = items.get(line.item_id);
    if (!item) throw new AppError('shop/unknown-item');
    return {
      item_id: item.id,
      name: item.name,
      price: roundPrice(item.price),
      quantity: line.quantity,
    };
  });
  let row: OrderRow | undefined;
  try {
    [row] = await db
      .insert(shopOrders)
      .values({
        distributor_id: context.distributorId,
        database_id: context.databaseId,
        store_id: storeId,
        user_id: actor.kind === 'user' ? actor.userId : null,
        employee_id: actor.kind === 'employee' ? actor.employeeId : null,
        device_id: actor.kind === 'employee' ? actor.deviceId : null,
        idempotency_key: body.idempotency_key,
        lines,
        total: orderTotal(lines).toFixed(2),
        note: (body.note ?? '').trim(),
        email_to: context.shopEmail,
        status: context.shopEmail ? 'pending' : 'no-email',
        created_at: deps.now(),
      })
      .returning();
  } catch (error) {
    // Two tries of the same order at once: the loser answers the winner's order.
    if (isUniqueViolation(error)) {
      const stored = await replay(await findByKey(db, storeId, body.idempotency_key));
      if (stored) return stored;
    }
    throw error;
  }
  await deliver(deps, log, row!.id);
  return presentOrder(db, row!.id);
}

/**
 * Sends a pending order's e-mail. The order is claimed first (pending -> sent), so two tries at
 * once send it once; a failed send puts it back to pending (a retry of the request sends it).
 */
async function deliver(deps: Deps, log: FastifyBaseLogger, orderId: string): Promise<void> {
  const { db } = deps;
  const [claimed] = await db
    .update(shopOrders)
    .set({ status: 'sent' })
    .where(and(eq(shopOrders.id, orderId), eq(shopOrders.status, 'pending')))
    .returning();
  if (!claimed?.email_to) return;
  try {
    const order = await presentOrder(db, orderId);
    const mail = shopOrderMail(await mailLanguage(db, claimed.distributor_id), order);
    await deps.mailer.send({ to: [claimed.email_to], ...mail });
  } catch (error) {
    log.error({ err: error, order: orderId }, 'shop order e-mail failed');
    await db.update(shopOrders).set({ status: 'pending' }).where(eq(shopOrders.id, orderId));
  }
}

/**
 * The language of the order e-mail: that of the distributor's first account (its users'
 * chosen interface language), English otherwise.
 */
async function mailLanguage(db: Database, distributorId: string): Promise<ShopMailLanguage> {
  const [row] = await db
    .select({ language: users.language })
    .from(users)
    .where(
      and(
        eq(users.distributor_id, distributorId),
        eq(users.role, 'distributor'),
        eq(users.active, true),
      ),
    )
    .orderBy(asc(users.created_at), asc(users.id))
    .limit(1);
  const language = row?.language;
  return language === 'fr' || language === 'de' || language === 'pl' ? language : 'en';
}

const orderColumns = {
  order: shopOrders,
  database_name: databases.name,
  store_name: stores.name,
  user_name: users.name,
  user_surname: users.surname,
  employee_name: employees.name,
  employee_surname: employees.surname,
};

function presentRow(row: {
  order: OrderRow;
  database_name: string;
  store_name: string;
  user_name: string | null;
  user_surname: string | null;
  employee_name: string | null;
  employee_surname: string | null;
}): ShopOrder {
  const { order } = row;
  const orderedBy =
    row.employee_name !== null
      ? { kind: 'employee' as const, name: row.employee_name, surname: row.employee_surname ?? '' }
      : row.user_name !== null
        ? { kind: 'user' as const, name: row.user_name, surname: row.user_surname ?? '' }
        : null;
  return {
    id: order.id,
    distributor_id: order.distributor_id,
    database_id: order.database_id,
    database_name: row.database_name,
    store_id: order.store_id,
    store_name: row.store_name,
    lines: order.lines,
    total: Number(order.total),
    note: order.note,
    status: order.status,
    email_to: order.email_to,
    ordered_by: orderedBy,
    created_at: order.created_at.toISOString(),
  };
}

function ordersQuery(db: Database) {
  return db
    .select(orderColumns)
    .from(shopOrders)
    .innerJoin(databases, eq(databases.id, shopOrders.database_id))
    .innerJoin(stores, eq(stores.id, shopOrders.store_id))
    .leftJoin(users, eq(users.id, shopOrders.user_id))
    .leftJoin(employees, eq(employees.id, shopOrders.employee_id));
}

async function presentOrder(db: Database, orderId: string): Promise<ShopOrder> {
  const [row] = await ordersQuery(db).where(eq(shopOrders.id, orderId));
  if (!row) throw new AppError('not-found');
  return presentRow(row);
}

/** GET /api/distributors/:id/shop/orders: its distributor and admins, newest first. */
export async function listOrders(
  db: Database,
  scope: Scope,
  distributorId: string,
  query: ListShopOrdersQuery,
): Promise<ShopOrderList> {
  const distributor = await findShopDistributor(db, scope, distributorId);
  return pageOfOrders(db, eq(shopOrders.distributor_id, distributor.id), query);
}

/**
 * GET /api/stores/:storeId/shop/orders: the store's orders, newest first, for whoever sees the
 * store (a manager reads them on a store he may not order for).
 */
export async function listStoreOrders(
  db: Database,
  scope: Scope,
  storeId: string,
  query: ListShopOrdersQuery,
): Promise<ShopOrderList> {
  const store = await findStoreInScope(db, scope, storeId);
  return pageOfOrders(db, eq(shopOrders.store_id, store.id), query);
}

async function pageOfOrders(
  db: Database,
  where: SQL,
  { limit, offset }: ListShopOrdersQuery,
): Promise<ShopOrderList> {
  const rows = await ordersQuery(db)
    .where(where)
    .orderBy(desc(shopOrders.created_at), desc(shopOrders.id))
    .limit(limit)
    .offset(offset);
  const total = await countPastPage(rows.length, { limit, offset }, () =>
    db.select({ total: count() }).from(shopOrders).where(where),
  );
  return { items: rows.map(presentRow), total };
}

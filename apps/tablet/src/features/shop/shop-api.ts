import type {
  CreateShopOrderBody,
  ShopOrder,
  StoreShop,
  StoreShopItem,
} from '@mise/shared/shop/schemas';
import { ApiError, NetworkError } from '../../shared/api/client';
import { errorText } from '../../shared/i18n/i18n';
import { enqueue } from '../../shared/outbox/outbox';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import type { EmployeeSession } from '../../shared/session/employee-session';
import { deleteValue, readValue, writeValue } from '../../shared/storage/local-db';
import { type Basket, emptyBasket } from './shop-basket';

/*
 * The tablet's shop calls (issue 19). The list is GET /api/device/shop (the device token; kept
 * on the tablet by the cached queries, shared/offline). An order is POST
 * /api/device/shop/orders with the employee's token, through the outbox: kept in IndexedDB
 * first, sent with its idempotency key (a retry is recorded once by the server).
 */

export type { ShopOrder, StoreShop, StoreShopItem };

/** POST /api/device/shop/orders. */
export const orderPath = '/device/shop/orders';

/** The body as the outbox keeps it (the outbox adds the idempotency key). */
export type OrderDraft = Omit<CreateShopOrderBody, 'idempotency_key'>;

/** The employee's basket, kept on the tablet until the order is made (one per employee). */
export const basketKey = (employeeId: string) => ['shop-basket', employeeId] as const;
const keptBasketKey = (employeeId: string) => `shop-basket:${employeeId}`;

export async function readBasket(employeeId: string): Promise<Basket> {
  return (await readValue<Basket>(keptBasketKey(employeeId))) ?? emptyBasket;
}

export async function writeBasket(employeeId: string, basket: Basket): Promise<void> {
  if (Object.keys(basket.quantities).length === 0 && basket.note === '')
    await deleteValue(keptBasketKey(employeeId));
  else await writeValue(keptBasketKey(employeeId), basket);
}

/** Puts the order in the outbox (it is sent at once when the network allows). */
export function enqueueOrder(
  session: EmployeeSession,
  order: OrderDraft,
  label: string,
): Promise<OutboxRecord> {
  return enqueue({
    kind: 'shop-order',
    path: orderPath,
    body: { lines: order.lines, note: order.note ?? '' },
    employee_token: session.token,
    employee_name: `${session.employee.name} ${session.employee.surname}`.trim(),
    label,
    task_id: null,
  });
}

/** The text of a refusal or a failure to load. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return errorText(error.code, error.message);
  return errorText(error instanceof NetworkError ? 'network' : 'unknown');
}

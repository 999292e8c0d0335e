import { useQuery } from '@tanstack/react-query';
import type { DeviceContext } from '../../shared/api/types';
import { useDeviceState } from '../../shared/device/device-state';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { type EmployeeSession, useEmployeeSession } from '../../shared/session/employee-session';
import type { StoreShop } from './shop-api';

/**
 * Who orders from the distributor's shop on the tablet (issue 19): an identified employee whose
 * role grants the 'shop' extension explicitly (`features_permissions.shop === true`; an employee
 * without a role, or whose role does not mention it, may not: an order spends the store's
 * money), in a store where neither it nor its database hides the extension. The context must be
 * known (it is kept on the tablet after pairing).
 */
export function mayOrder(context: DeviceContext | null, session: EmployeeSession | null): boolean {
  if (!context || !session) return false;
  if (context.store.hidden_extensions.includes('shop')) return false;
  const roleId = session.employee.role_id;
  const role = roleId ? context.roles.find((candidate) => candidate.id === roleId) : undefined;
  return role?.features_permissions.shop === true;
}

/** The store's shop (GET /api/device/shop), kept on the tablet for offline use. */
export function useStoreShop(isEnabled: boolean) {
  return useQuery({ ...cachedQueryOptions<StoreShop>('shop'), enabled: isEnabled });
}

/**
 * The menu's Shop entry: shown to an employee who may order, once the server (or the copy kept
 * from it) says the store can order (its database has a distributor, the shop is not hidden).
 */
export function useIsShopShown(): boolean {
  const { context } = useDeviceState();
  const session = useEmployeeSession();
  const isAllowed = mayOrder(context, session);
  const shop = useStoreShop(isAllowed);
  return isAllowed && shop.data?.available === true;
}

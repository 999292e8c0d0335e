import { backOfficeLinkLifetimeMinutes, type backOfficePages } from '@mise/shared/device/schemas';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { devices, storeOwners, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { createDeviceLoginToken } from '../auth/auth.service';
import type { DeviceIdentity } from './employees.service';

type BackOfficePage = (typeof backOfficePages)[number];

/** The web route each tablet page opens (the web's entry rule accepts route names only). */
const routeOf: Record<BackOfficePage, string> = {
  history: 'history',
  documents: 'documents',
  settings: 'store',
};

/**
 * POST /api/device/back-office-link (issue 14): a link that opens a back-office page in tablet
 * mode (spec 000 §2 entry rule: `?token=&page=&store_id=`) signed in as the device's linked
 * user, with the device's store preselected. The token is the login token POST /api/auth
 * consumes (single use), valid `backOfficeLinkLifetimeMinutes`. 409 'device/no-linked-user'
 * when the device has no linked user, or that account is disabled or no longer an owner of
 * the store.
 */
export async function createBackOfficeLink(
  db: Database,
  device: DeviceIdentity,
  page: BackOfficePage,
): Promise<{ url: string }> {
  const [linked] = await db
    .select({ id: users.id })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.linked_user))
    .innerJoin(
      storeOwners,
      and(eq(storeOwners.user_id, users.id), eq(storeOwners.store_id, devices.store_id)),
    )
    .where(and(eq(devices.id, device.id), eq(users.active, true)))
    .limit(1);
  if (!linked) throw new AppError('device/no-linked-user');
  const token = await createDeviceLoginToken({ db }, linked.id, backOfficeLinkLifetimeMinutes);
  const query = new URLSearchParams({ token, page: routeOf[page], store_id: device.storeId });
  return { url: `/?${query.toString()}` };
}

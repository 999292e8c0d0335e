import type { DeviceContext } from '@mise/shared/device/schemas';
import type { ExtensionKey } from '@mise/shared/organisation/constants';
import { type FeatureKey, featureKeys } from '@mise/shared/people/constants';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, employeeRoles, stores } from '../../db/schema';
import { notFound } from '../../platform/errors';
import { findDevice, presentDevice } from '../devices/devices.service';
import { mergeHiddenModules } from '../stores/stores.service';
import type { DeviceIdentity } from './employees.service';

const knownFeatures = new Set<string>(featureKeys);

/**
 * GET /api/device/context: what the tablet needs about its store in one call (issue 14):
 * the store (zone, week start, hidden modules and extensions, its own with its database's),
 * the database's screen saver, its active employee roles with their features (spec 001
 * §3.10), the device as GET /api/devices/me answers it, and the server's clock.
 */
export async function deviceContext(
  db: Database,
  device: DeviceIdentity,
  now: Date,
): Promise<DeviceContext> {
  const [[store], row] = await Promise.all([
    db
      .select({
        id: stores.id,
        name: stores.name,
        timezone_name: stores.timezone_name,
        week_start: stores.week_start,
        database_id: stores.database_id,
        hidden_modules: stores.hidden_modules,
        hidden_extensions: stores.hidden_extensions,
        database_hidden_modules: databases.hidden_modules,
        database_hidden_extensions: databases.hidden_extensions,
        screen_saver_url: databases.screen_saver_url,
      })
      .from(stores)
      .leftJoin(databases, eq(databases.id, stores.database_id))
      .where(eq(stores.id, device.storeId))
      .limit(1),
    findDevice(db, device.id),
  ]);
  if (!store) throw notFound();
  const roles = store.database_id
    ? await db
        .select({
          id: employeeRoles.id,
          name: employeeRoles.name,
          features_permissions: employeeRoles.features_permissions,
        })
        .from(employeeRoles)
        .where(
          and(eq(employeeRoles.database_id, store.database_id), eq(employeeRoles.active, true)),
        )
        .orderBy(asc(employeeRoles.name), asc(employeeRoles.id))
    : [];
  return {
    store: {
      id: store.id,
      name: store.name,
      timezone_name: store.timezone_name,
      week_start: store.week_start,
      hidden_modules: mergeHiddenModules(store.hidden_modules, store.database_hidden_modules),
      hidden_extensions: [
        ...new Set([...store.hidden_extensions, ...(store.database_hidden_extensions ?? [])]),
      ] as ExtensionKey[],
    },
    screen_saver_url: store.screen_saver_url ?? null,
    roles: roles.map((role) => ({
      id: role.id,
      name: role.name,
      // Only the features the product knows (a stored legacy key is not sent).
      features_permissions: Object.fromEntries(
        Object.entries(role.features_permissions).filter(([key]) => knownFeatures.has(key)),
      ) as Partial<Record<FeatureKey, boolean>>,
    })),
    device: presentDevice(row),
    server_time: now.toISOString(),
  };
}

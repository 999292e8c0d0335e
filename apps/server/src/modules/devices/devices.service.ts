import type { Device } from '@mise/shared/organisation/schemas';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devices, storeOwners, stores, users } from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { type Scope, storeFilter } from '../../platform/scope';
import { canEditStore, findStoreInScope } from '../stores/stores.service';

type DeviceRow = typeof devices.$inferSelect;

/** The device as the API sends it; the token hash never leaves the server. */
export function presentDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    store_id: row.store_id,
    device_id: row.device_id,
    device_model: row.device_model,
    name: row.name,
    app_version: row.app_version,
    os_version: row.os_version,
    creation_timestamp: row.creation_timestamp.toISOString(),
    last_connexion: row.last_connexion?.toISOString() ?? null,
    dark_mode: row.dark_mode,
    slow_internet_mode: row.slow_internet_mode,
    audio_task_reminders: row.audio_task_reminders,
    show_unscheduled_tasks: row.show_unscheduled_tasks,
    rotation_lock: row.rotation_lock,
    prevent_screen_lock: row.prevent_screen_lock,
    calendar_types_order: row.calendar_types_order,
    linked_user: row.linked_user,
    version: row.version,
  };
}

export async function listStoreDevices(db: Database, scope: Scope, storeId: string) {
  const store = await findStoreInScope(db, scope, storeId);
  const rows = await db
    .select()
    .from(devices)
    .where(eq(devices.store_id, store.id))
    .orderBy(asc(devices.creation_timestamp), asc(devices.id));
  return rows.map(presentDevice);
}

/** A device of a store in the scope (404 otherwise) that the caller may change (403 otherwise). */
async function findEditableDevice(db: Database, scope: Scope, id: string): Promise<DeviceRow> {
  const [row] = await db
    .select({ device: devices, store: stores })
    .from(devices)
    .innerJoin(stores, eq(stores.id, devices.store_id))
    .where(and(eq(devices.id, id), storeFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  if (!canEditStore(scope, row.store)) throw forbidden();
  return row.device;
}

export async function updateDevice(
  db: Database,
  scope: Scope,
  id: string,
  body: {
    version: number;
    name?: string;
    dark_mode?: boolean;
    slow_internet_mode?: boolean;
    audio_task_reminders?: boolean;
    rotation_lock?: boolean;
    prevent_screen_lock?: boolean;
    linked_user?: string | null;
  },
): Promise<DeviceRow> {
  const device = await findEditableDevice(db, scope, id);
  const { version, ...changes } = body;
  if (changes.linked_user) {
    const [owner] = await db
      .select({ id: storeOwners.user_id })
      .from(storeOwners)
      .where(
        and(
          eq(storeOwners.store_id, device.store_id),
          eq(storeOwners.user_id, changes.linked_user),
        ),
      )
      .limit(1);
    if (!owner) throw new AppError('device/unknown-owner');
  }
  const [updated] = await db
    .update(devices)
    .set({ ...changes, version: sql`${devices.version} + 1` })
    .where(and(eq(devices.id, id), eq(devices.version, version)))
    .returning();
  if (!updated) throw new AppError('conflict/stale-version');
  return updated;
}

export async function deleteDevice(db: Database, scope: Scope, id: string): Promise<void> {
  await findEditableDevice(db, scope, id);
  await db.delete(devices).where(eq(devices.id, id));
}

/**
 * POST /api/devices/register: a tablet pairs itself with a store's key. A device_id already
 * paired with the store gets a new token on its row; a new one needs room under
 * maximum_devices. A device without a linked user gets the store's first owner (the
 * earliest active customer owner), the account its back-office links sign in as. The store row is locked so two tablets cannot both take the last place.
 */
export async function registerDevice(
  db: Database,
  body: {
    pairing_key: string;
    device_id: string;
    device_model: string;
    app_version: string;
    os_version: string;
    name?: string;
  },
): Promise<{ device: DeviceRow; token: string }> {
  const token = newToken();
  const tokenHash = hashToken(token);
  const key = body.pairing_key.toUpperCase();
  return db.transaction(async (tx) => {
    const [store] = await tx
      .select({
        id: stores.id,
        active: stores.active,
        licence: stores.mise_licence,
        maximum: stores.maximum_devices,
      })
      .from(stores)
      .where(eq(stores.pairing_key, key))
      .for('update');
    if (!store?.active) throw new AppError('device/invalid-pairing-key');
    // An active store without its licence cannot pair a tablet (its services are stopped).
    if (!store.licence) throw new AppError('device/store-unlicensed');
    // The account the tablet opens the back-office with: the store's first owner (a customer).
    const [firstOwner] = await tx
      .select({ id: users.id })
      .from(storeOwners)
      .innerJoin(users, eq(users.id, storeOwners.user_id))
      .where(
        and(eq(storeOwners.store_id, store.id), eq(users.role, 'customer'), eq(users.active, true)),
      )
      .orderBy(asc(storeOwners.created_at), asc(users.id))
      .limit(1);
    const linkedUser = firstOwner?.id ?? null;
    const details = {
      device_model: body.device_model,
      app_version: body.app_version,
      os_version: body.os_version,
      ...(body.name ? { name: body.name } : {}),
    };
    const [existing] = await tx
      .update(devices)
      .set({
        ...details,
        token_hash: tokenHash,
        last_connexion: new Date(),
        // A device paired again keeps its linked user; one without gets the first owner.
        linked_user: sql`coalesce(${devices.linked_user}, ${linkedUser}::uuid)`,
        version: sql`${devices.version} + 1`,
      })
      .where(and(eq(devices.store_id, store.id), eq(devices.device_id, body.device_id)))
      .returning();
    if (existing) return { device: existing, token };
    const [counted] = await tx
      .select({ total: count() })
      .from(devices)
      .where(eq(devices.store_id, store.id));
    if ((counted?.total ?? 0) >= store.maximum) throw new AppError('device/limit-reached');
    const [created] = await tx
      .insert(devices)
      .values({
        ...details,
        name: body.name ?? (body.device_model || body.device_id),
        store_id: store.id,
        device_id: body.device_id,
        token_hash: tokenHash,
        linked_user: linkedUser,
        last_connexion: new Date(),
      })
      .returning();
    return { device: created!, token };
  });
}

export async function findDevice(db: Database, id: string): Promise<DeviceRow> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
  if (!row) throw new AppError('auth/unauthenticated');
  return row;
}

/**
 * PATCH /api/devices/me: what the tablet runs, reported by itself, and the calendar
 * preferences its users set on the tablet. The settings of the back-office's device dialog
 * (dark mode, slow internet, reminders, rotation and screen locks) are written there only.
 */
export const reportDeviceBodySchema = z.strictObject({
  app_version: z.string().trim().max(40).optional(),
  os_version: z.string().trim().max(40).optional(),
  device_model: z.string().trim().max(120).optional(),
  show_unscheduled_tasks: z.boolean().optional(),
  calendar_types_order: z.array(z.string().trim().min(1).max(60)).max(30).optional(),
});

export async function reportDevice(
  db: Database,
  id: string,
  body: z.infer<typeof reportDeviceBodySchema>,
): Promise<DeviceRow> {
  const [updated] = await db
    .update(devices)
    .set({ ...body, last_connexion: new Date() })
    .where(eq(devices.id, id))
    .returning();
  if (!updated) throw new AppError('auth/unauthenticated');
  return updated;
}

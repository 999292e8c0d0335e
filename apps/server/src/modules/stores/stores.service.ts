import { maxStoresPerUser } from '@mise/shared/auth/constants';
import type { ExtensionKey, ModuleKey } from '@mise/shared/organisation/constants';
import type { MailLanguage } from '@mise/shared/organisation/invitation-mail';
import {
  effectiveLicencePrice,
  isSameStore,
  timezoneOffsetHours,
} from '@mise/shared/organisation/rules';
import type {
  CreateStoreBody,
  StoreDetail,
  StoreSummary,
  UpdateStoreBody,
} from '@mise/shared/organisation/schemas';
import { and, asc, count, eq, ilike, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import {
  databases,
  devices,
  distributors,
  storeInvitations,
  storeOwners,
  stores,
  users,
} from '../../db/schema';
import type { UserRow } from '../../platform/auth/sessions';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import type { Mailer } from '../../platform/mail';
import { invitationMail } from '../../platform/mail-texts';
import { countPastPage } from '../../platform/paging';
import { distributorFilter, type Scope, storeFilter } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { detachStoreOverrides } from '../elements/detach-overrides';
import { detachStoreTaskConfigurationOverrides } from '../task-configurations/detach-overrides';
import { findUserByEmail, isWithinAddersTenant } from '../users/users.service';
import { newPairingKey } from './pairing-key';

export type StoreRow = typeof stores.$inferSelect;

/**
 * The restaurant score of a store, out of 100, or null when no task was due yet. The home
 * module owns the score (its rule and query) and registers this reader at start, so the
 * store API answers the figure the home shows without stores depending on home.
 */
export type StoreScoreReader = (db: Database, storeId: string) => Promise<number | null>;
let readStoreScore: StoreScoreReader = async () => null;
export function registerStoreScoreReader(reader: StoreScoreReader): void {
  readStoreScore = reader;
}

const isStaff = (scope: Scope) => scope.role === 'admin' || scope.role === 'distributor';

/** Stores whose name, address, postal code or city hold `search`: the expression of the
 * stores_search_trgm_idx index (migration 0003). */
export function storeSearchCondition(search: string): SQL {
  return ilike(
    sql`${stores.name} || ' ' || ${stores.address} || ' ' || ${stores.postal_code} || ' ' || ${stores.city}`,
    likePattern(search),
  );
}

/** GET /api/stores: the scope's stores, names of distributor and database joined, by name. */
export async function listStores(
  db: Database,
  scope: Scope,
  query: {
    search?: string;
    includeInactive: boolean;
    databaseId?: string;
    distributorId?: string;
    limit: number;
    offset: number;
  },
): Promise<{ items: StoreSummary[]; total: number }> {
  const conditions: (SQL | undefined)[] = [storeFilter(scope)];
  if (!query.includeInactive) conditions.push(eq(stores.active, true));
  if (query.databaseId) conditions.push(eq(stores.database_id, query.databaseId));
  if (query.distributorId) conditions.push(eq(stores.distributor_id, query.distributorId));
  if (query.search) conditions.push(storeSearchCondition(query.search));
  const where = and(...conditions);
  const items = await db
    .select({
      id: stores.id,
      name: stores.name,
      address: stores.address,
      postal_code: stores.postal_code,
      city: stores.city,
      country: stores.country,
      active: stores.active,
      illustration_url: stores.illustration_url,
      distributor: stores.distributor_id,
      distributor_name: distributors.name,
      database: stores.database_id,
      database_name: databases.name,
      mise_licence: stores.mise_licence,
    })
    .from(stores)
    .leftJoin(distributors, eq(distributors.id, stores.distributor_id))
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(where)
    .orderBy(asc(stores.name), asc(stores.id))
    .limit(query.limit)
    .offset(query.offset);
  return {
    items,
    total: await countPastPage(items.length, query, () =>
      db.select({ total: count() }).from(stores).where(where),
    ),
  };
}

export async function findStoreInScope(db: Database, scope: Scope, id: string): Promise<StoreRow> {
  const [row] = await db
    .select()
    .from(stores)
    .where(and(eq(stores.id, id), storeFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A store's own hidden modules together with its database's (spec 000 §3). */
export function mergeHiddenModules(
  own: readonly string[],
  database: readonly string[] | null | undefined,
): ModuleKey[] {
  return [...new Set([...own, ...(database ?? [])])] as ModuleKey[];
}

/** The modules hidden on a store: its own and its database's (spec 000 §3). */
export async function storeHiddenModules(db: Database, store: StoreRow): Promise<ModuleKey[]> {
  const own = store.hidden_modules as ModuleKey[];
  if (!store.database_id) return own;
  const [database] = await db
    .select({ hidden_modules: databases.hidden_modules })
    .from(databases)
    .where(eq(databases.id, store.database_id));
  return mergeHiddenModules(own, database?.hidden_modules);
}

/**
 * Who may change a store and its devices (spec 000 §6): admins, its distributor, its owners,
 * and managers of its database only when the store is manager-owned. The store is already
 * known to be in the scope.
 */
export function canEditStore(scope: Scope, store: StoreRow): boolean {
  if (scope.role === 'manager') return store.manager_owned;
  return true;
}

export async function findEditableStore(db: Database, scope: Scope, id: string): Promise<StoreRow> {
  const store = await findStoreInScope(db, scope, id);
  if (!canEditStore(scope, store)) throw forbidden();
  return store;
}

const normalized = (column: typeof stores.name | typeof stores.address) =>
  sql`regexp_replace(lower(trim(${column})), '\\s+', ' ', 'g')`;
const keyOf = (value: string) => value.trim().toLocaleLowerCase().replace(/\s+/g, ' ');

type Identity = {
  name: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
};

/** form.store.invalid.exists: same name, or same full address, among the distributor's stores. */
async function assertNoDuplicate(
  db: Database,
  distributorId: string | null,
  candidate: Identity,
  exceptId?: string,
): Promise<void> {
  const rows = await db
    .select({
      name: stores.name,
      address: stores.address,
      postal_code: stores.postal_code,
      city: stores.city,
      country: stores.country,
    })
    .from(stores)
    .where(
      and(
        distributorId ? eq(stores.distributor_id, distributorId) : isNull(stores.distributor_id),
        exceptId ? ne(stores.id, exceptId) : undefined,
        or(
          sql`${normalized(stores.name)} = ${keyOf(candidate.name)}`,
          sql`${normalized(stores.address)} = ${keyOf(candidate.address)}`,
        ),
      ),
    );
  if (rows.some((row) => isSameStore(row, candidate))) {
    throw new AppError('form.store.invalid.exists');
  }
}

/** Inserts with a fresh pairing key, drawing again on the (unlikely) clash of the unique index. */
async function insertWithPairingKey(
  db: Database,
  values: typeof stores.$inferInsert,
): Promise<StoreRow> {
  for (let attempt = 0; ; attempt++) {
    const [row] = await db
      .insert(stores)
      .values({ ...values, pairing_key: newPairingKey() })
      .onConflictDoNothing({ target: stores.pairing_key })
      .returning();
    if (row) return row;
    if (attempt >= 5) throw new Error('could not draw a unique pairing key');
  }
}

/** POST /api/stores (spec 000 §5 New store). */
export async function createStore(
  db: Database,
  scope: Scope,
  body: CreateStoreBody,
): Promise<StoreRow> {
  if (!isStaff(scope)) throw forbidden();
  let distributorId: string;
  if (scope.role === 'distributor') {
    const own = scope.distributorIds[0];
    if (!own || (body.distributorId && body.distributorId !== own)) throw notFound();
    distributorId = own;
  } else {
    if (!body.distributorId) throw new AppError('store/distributor-required');
    distributorId = body.distributorId;
  }
  const [distributor] = await db
    .select({ id: distributors.id })
    .from(distributors)
    .where(and(eq(distributors.id, distributorId), distributorFilter(scope)));
  if (!distributor) throw notFound();
  let databaseId: string | null = null;
  if (body.databaseId) {
    // An unknown database, or one of another distributor, is invalid here (not a 404).
    const database = await findDatabaseInScope(db, scope, body.databaseId).catch((error) => {
      if (error instanceof AppError && error.code === 'not-found') return null;
      throw error;
    });
    if (!database || database.distributor_id !== distributorId) {
      throw new AppError('invalid-database');
    }
    databaseId = database.id;
  }
  await assertNoDuplicate(db, distributorId, body);
  return insertWithPairingKey(db, {
    name: body.name,
    address: body.address,
    postal_code: body.postal_code,
    city: body.city,
    country: body.country,
    timezone_name: body.timezone_name,
    timezone: String(timezoneOffsetHours(body.timezone_name)),
    distributor_id: distributorId,
    database_id: databaseId,
  });
}

/** PATCH /api/stores/:id with the role rules of spec 000 §6 and an optimistic version. */
export async function updateStore(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateStoreBody,
): Promise<StoreRow> {
  const store = await findEditableStore(db, scope, id);
  const { version, ...changes } = body;
  const staffOnly = [changes.maximum_devices, changes.manager_owned, changes.sensor_sticker_id];
  if (!isStaff(scope) && staffOnly.some((value) => value !== undefined)) throw forbidden();
  // Spec 000 §6 and issue 13: owners and managers may switch their store off, but turning a
  // deactivated store on again is its distributor's or an admin's decision.
  if (changes.active === true && !store.active && !isStaff(scope)) throw forbidden();
  const adminOnly = [changes.demonstration_store, changes.licence_price];
  if (scope.role !== 'admin' && adminOnly.some((value) => value !== undefined)) throw forbidden();
  if (
    changes.sensor_sticker_id !== undefined &&
    store.sensor_sticker_id !== null &&
    changes.sensor_sticker_id !== store.sensor_sticker_id
  ) {
    throw new AppError('sensor/sticker-locked');
  }
  const identity: Identity = {
    name: changes.name ?? store.name,
    address: changes.address ?? store.address,
    postal_code: changes.postal_code ?? store.postal_code,
    city: changes.city ?? store.city,
    country: changes.country ?? store.country,
  };
  const isIdentityChanged = (Object.keys(identity) as (keyof Identity)[]).some(
    (key) => identity[key] !== store[key],
  );
  if (isIdentityChanged) await assertNoDuplicate(db, store.distributor_id, identity, store.id);
  const { licence_price, timezone_name, ...rest } = changes;
  const [updated] = await db
    .update(stores)
    .set({
      ...rest,
      ...(licence_price !== undefined
        ? { licence_price: licence_price === null ? null : String(licence_price) }
        : {}),
      ...(timezone_name !== undefined
        ? { timezone_name, timezone: String(timezoneOffsetHours(timezone_name)) }
        : {}),
      version: sql`${stores.version} + 1`,
      updated_at: new Date(),
    })
    .where(and(eq(stores.id, id), eq(stores.version, version)))
    .returning();
  if (!updated) throw new AppError('conflict/stale-version');
  return updated;
}

/** POST /api/stores/:id/database (spec 000 §4, §5): the store follows the database's distributor. */
export async function assignDatabase(
  db: Database,
  scope: Scope,
  id: string,
  databaseId: string | null,
): Promise<StoreRow> {
  if (!isStaff(scope)) throw forbidden();
  const store = await findStoreInScope(db, scope, id);
  if (!databaseId) throw new AppError('invalid-database');
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!database.distributor_id) throw new AppError('invalid-database');
  if (database.distributor_id !== store.distributor_id) {
    await assertNoDuplicate(db, database.distributor_id, store, store.id);
  }
  return db.transaction(async (tx) => {
    // Overrides of the old database's elements become the store's own (effective values);
    // the store row is locked so two moves cannot detach against a stale database.
    const [current] = await tx
      .select({ database_id: stores.database_id })
      .from(stores)
      .where(eq(stores.id, store.id))
      .for('update');
    if (current && current.database_id !== database.id) {
      await detachStoreOverrides(tx, { id: store.id, database_id: current.database_id });
      await detachStoreTaskConfigurationOverrides(tx, {
        id: store.id,
        database_id: current.database_id,
      });
    }
    const [updated] = await tx
      .update(stores)
      .set({
        database_id: database.id,
        distributor_id: database.distributor_id,
        version: sql`${stores.version} + 1`,
        updated_at: new Date(),
      })
      .where(eq(stores.id, store.id))
      .returning();
    return updated!;
  });
}

/**
 * POST /api/stores/updateLicence (spec 000 §4): the monitoring server first; a falsy answer
 * aborts with nothing saved. The history grows only when the flag really changes.
 */
export async function updateLicence(
  db: Database,
  scope: Scope,
  monitoring: { updateLicence(input: { storeId: string; activated: boolean }): Promise<boolean> },
  storeId: string,
  activated: boolean,
): Promise<void> {
  if (!isStaff(scope)) throw forbidden();
  const store = await findStoreInScope(db, scope, storeId);
  const isAccepted = await monitoring.updateLicence({ storeId: store.id, activated });
  if (!isAccepted) throw new AppError('licence/monitoring-failed');
  const entry = JSON.stringify([{ timestamp: new Date().toISOString(), activated }]);
  await db
    .update(stores)
    .set({
      mise_licence: activated,
      licence_activation_history: sql`${stores.licence_activation_history} || ${entry}::jsonb`,
      version: sql`${stores.version} + 1`,
      updated_at: new Date(),
    })
    .where(and(eq(stores.id, store.id), ne(stores.mise_licence, activated)));
}

/** Owners may manage owners; so may admins and the store's distributor (not managers). */
async function findOwnersManageableStore(db: Database, scope: Scope, id: string) {
  const store = await findStoreInScope(db, scope, id);
  if (scope.role === 'manager') throw forbidden();
  return store;
}

/** Stores an invitation (a new token replaces an earlier one) and mails its link. */
async function inviteOwner(
  deps: { db: Database; mailer: Mailer; publicUrl: string; language: MailLanguage },
  scope: Scope,
  store: StoreRow,
  email: string,
  kind: 'store-new-account' | 'store-existing-account',
): Promise<void> {
  const token = newToken();
  const invitation = {
    invited_by: scope.userId,
    token_hash: hashToken(token),
    created_at: new Date(),
  };
  await deps.db
    .insert(storeInvitations)
    .values({ store_id: store.id, email, ...invitation })
    .onConflictDoUpdate({
      target: [storeInvitations.store_id, storeInvitations.email],
      set: invitation,
    });
  const link = `${deps.publicUrl.replace(/\/+$/, '')}/?email=${encodeURIComponent(email)}&invitation=${encodeURIComponent(token)}`;
  const mail = invitationMail(deps.language, { kind, place: store.name, link });
  await deps.mailer.send({ to: [email], ...mail });
}

/**
 * POST /api/stores/addOwner (spec 000 §4, §5; decisions in docs/decisions.md): only customers
 * owning fewer than 30 stores are eligible. An unknown e-mail is invited by mail, with a
 * single-use token that signup must present to turn the invitation into ownership. An
 * existing account outside the adder's tenant is invited too: it becomes an owner only when
 * its holder accepts (sign-in with the mailed link); until then the adder sees "invited" and
 * the e-mail, nothing of the account.
 */
export async function addOwner(
  deps: { db: Database; mailer: Mailer; publicUrl: string; language: MailLanguage },
  scope: Scope,
  body: { email: string; storeId: string },
): Promise<'not-elligible' | 'invited' | 'ok'> {
  const { db } = deps;
  const store = await findOwnersManageableStore(db, scope, body.storeId);
  const target = await findUserByEmail(db, body.email);
  if (!target) {
    await inviteOwner(deps, scope, store, body.email, 'store-new-account');
    return 'invited';
  }
  if (!(await isWithinAddersTenant(db, scope, target, store.distributor_id))) {
    // Nothing about the account is told (not even its role): the holder decides.
    await inviteOwner(deps, scope, store, body.email, 'store-existing-account');
    return 'invited';
  }
  // Spec 000 §5: the target must be a customer (admins, managers and distributors never are).
  if (target.role !== 'customer') return 'not-elligible';
  return (await linkOwner(db, store.id, target.id)) ? 'ok' : 'not-elligible';
}

/**
 * Makes an account an owner within the 30-store limit. The account row is locked while
 * counting, so two additions cannot both pass the limit. False when not eligible.
 */
async function linkOwner(db: Database, storeId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const owned = await tx
      .select({ store_id: storeOwners.store_id })
      .from(storeOwners)
      .where(eq(storeOwners.user_id, userId));
    if (owned.length >= maxStoresPerUser || owned.some((row) => row.store_id === storeId)) {
      return false;
    }
    await tx.insert(storeOwners).values({ store_id: storeId, user_id: userId });
    return true;
  });
}

/** DELETE /api/stores/:id/owners/:userId. */
export async function removeOwner(
  db: Database,
  scope: Scope,
  storeId: string,
  userId: string,
): Promise<void> {
  const store = await findOwnersManageableStore(db, scope, storeId);
  const removed = await db
    .delete(storeOwners)
    .where(and(eq(storeOwners.store_id, store.id), eq(storeOwners.user_id, userId)))
    .returning({ id: storeOwners.user_id });
  if (!removed.length) throw notFound();
}

/**
 * POST /api/stores/:id/invitations/withdraw: whoever may remove the store's owners withdraws a
 * pending invitation; its link then adds nobody. 404 when that e-mail has none.
 */
export async function withdrawOwnerInvitation(
  db: Database,
  scope: Scope,
  storeId: string,
  email: string,
): Promise<void> {
  const store = await findOwnersManageableStore(db, scope, storeId);
  const withdrawn = await db
    .delete(storeInvitations)
    .where(and(eq(storeInvitations.store_id, store.id), eq(storeInvitations.email, email)))
    .returning({ email: storeInvitations.email });
  if (!withdrawn.length) throw notFound();
}

/**
 * An invitation link used by its holder (signup, sign-in, or POST /api/auth/invitation
 * signed in): the token proves the e-mail received the invitation, so the invitation of that
 * e-mail becomes an ownership (a customer account, within the 30-store limit) and goes.
 * Returns whether a store invitation matched.
 */
export async function acceptStoreInvitation(
  db: Database,
  user: { id: string; email: string; role: UserRow['role'] },
  token: string,
): Promise<boolean> {
  const [invitation] = await db
    .delete(storeInvitations)
    .where(
      and(
        eq(storeInvitations.token_hash, hashToken(token)),
        eq(storeInvitations.email, user.email),
      ),
    )
    .returning({ store_id: storeInvitations.store_id });
  if (!invitation) return false;
  if (user.role === 'customer') await linkOwner(db, invitation.store_id, user.id);
  return true;
}

export async function setIllustration(
  db: Database,
  scope: Scope,
  id: string,
  url: string,
): Promise<{ store: StoreRow; previousUrl: string | null }> {
  const store = await findEditableStore(db, scope, id);
  const [updated] = await db
    .update(stores)
    .set({ illustration_url: url, version: sql`${stores.version} + 1`, updated_at: new Date() })
    .where(eq(stores.id, store.id))
    .returning();
  return { store: updated!, previousUrl: store.illustration_url };
}

/** POST /api/stores/:id/pairing-key: a new key; the tablets already paired keep their tokens. */
export async function regeneratePairingKey(
  db: Database,
  scope: Scope,
  id: string,
): Promise<string> {
  const store = await findEditableStore(db, scope, id);
  // The key is shown to admins, the distributor and owners only; managers never get one.
  if (scope.role === 'manager') throw forbidden();
  for (let attempt = 0; ; attempt++) {
    const key = newPairingKey();
    const [clash] = await db
      .select({ id: stores.id })
      .from(stores)
      .where(eq(stores.pairing_key, key));
    if (!clash) {
      await db
        .update(stores)
        .set({ pairing_key: key, version: sql`${stores.version} + 1`, updated_at: new Date() })
        .where(eq(stores.id, store.id));
      return key;
    }
    if (attempt >= 5) throw new Error('could not draw a unique pairing key');
  }
}

/** The store as GET /api/stores/:id sends it: two queries (the store with its joins, owners). */
export async function presentStore(db: Database, scope: Scope, id: string): Promise<StoreDetail> {
  const [row] = await db
    .select({
      store: stores,
      distributor_name: distributors.name,
      distributor_price: distributors.licence_price,
      database_name: databases.name,
      database_price: databases.licence_price,
      device_count: sql<number>`(select count(*) from ${devices} where ${devices.store_id} = ${stores.id})::int`,
    })
    .from(stores)
    .leftJoin(distributors, eq(distributors.id, stores.distributor_id))
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(and(eq(stores.id, id), storeFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  // An owner's store count covers the stores the viewer may see, never another tenant's.
  const counted = alias(storeOwners, 'counted');
  const visibleOwnedStores = db
    .select({ n: count() })
    .from(counted)
    .innerJoin(stores, eq(stores.id, counted.store_id))
    .where(and(eq(counted.user_id, users.id), storeFilter(scope)));
  const [owners, invitations] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        surname: users.surname,
        email: users.email,
        role: users.role,
        store_count: sql<number>`(${visibleOwnedStores})::int`,
      })
      .from(storeOwners)
      .innerJoin(users, eq(users.id, storeOwners.user_id))
      .where(eq(storeOwners.store_id, id))
      .orderBy(asc(users.name), asc(users.surname), asc(users.id)),
    scope.role === 'manager'
      ? Promise.resolve([])
      : db
          .select({ email: storeInvitations.email, created_at: storeInvitations.created_at })
          .from(storeInvitations)
          .where(eq(storeInvitations.store_id, id))
          .orderBy(asc(storeInvitations.email)),
  ]);
  const store = row.store;
  const isAdmin = scope.role === 'admin';
  const seesPairingKey = scope.role !== 'manager';
  return {
    id: store.id,
    name: store.name,
    address: store.address,
    postal_code: store.postal_code,
    city: store.city,
    country: store.country,
    active: store.active,
    illustration_url: store.illustration_url,
    distributor: store.distributor_id,
    distributor_name: row.distributor_name,
    database: store.database_id,
    database_name: row.database_name,
    mise_licence: store.mise_licence,
    score: await readStoreScore(db, store.id),
    timezone: Number(store.timezone),
    timezone_name: store.timezone_name,
    task_generation_hour: store.task_generation_hour,
    hidden_modules: store.hidden_modules as ModuleKey[],
    hidden_extensions: store.hidden_extensions as ExtensionKey[],
    slow_internet_mode: store.slow_internet_mode,
    audio_task_reminders: store.audio_task_reminders,
    licence_activation_history: store.licence_activation_history,
    manager_owned: store.manager_owned,
    maximum_devices: store.maximum_devices,
    week_start: store.week_start,
    demonstration_store: store.demonstration_store,
    licence_price: isAdmin && store.licence_price !== null ? Number(store.licence_price) : null,
    effective_licence_price: isAdmin
      ? effectiveLicencePrice({
          store: store.licence_price,
          database: row.database_price,
          distributor: row.distributor_price,
        })
      : null,
    sensor_sticker_id: store.sensor_sticker_id,
    pairing_key: seesPairingKey ? store.pairing_key : null,
    owners,
    invited_owners: invitations.map((invitation) => ({
      email: invitation.email,
      status: 'invited' as const,
      invited_at: invitation.created_at.toISOString(),
    })),
    device_count: row.device_count,
    creation_date: store.created_at.toISOString(),
    is_read_only: scope.role === 'manager' && !store.manager_owned,
    version: store.version,
  };
}

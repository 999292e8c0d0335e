import type { ExtensionKey, ModuleKey } from '@mise/shared/organisation/constants';
import type { MailLanguage } from '@mise/shared/organisation/invitation-mail';
import type {
  CreateDatabaseBody,
  DatabaseDetail,
  DatabaseSummary,
  UpdateDatabaseBody,
} from '@mise/shared/organisation/schemas';
import { and, asc, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databaseInvitations,
  databaseManagers,
  databases,
  distributors,
  stores,
  users,
} from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import type { Mailer } from '../../platform/mail';
import { invitationMail } from '../../platform/mail-texts';
import { databaseFilter, distributorFilter, type Scope, storeFilter } from '../../platform/scope';
import { findUserByEmail, isWithinAddersTenant } from '../users/users.service';

type DatabaseRow = typeof databases.$inferSelect;

const isStaff = (scope: Scope) => scope.role === 'admin' || scope.role === 'distributor';

/** Databases with their distributor's name and the caller's visible store count, one query. */
export async function listDatabases(
  db: Database,
  scope: Scope,
  query: { search?: string },
): Promise<DatabaseSummary[]> {
  const counts = db
    .select({
      database_id: stores.database_id,
      store_count: sql<number>`count(*)::int`.as('store_count'),
    })
    .from(stores)
    .where(storeFilter(scope))
    .groupBy(stores.database_id)
    .as('store_counts');
  const conditions = [databaseFilter(scope)];
  if (query.search) conditions.push(ilike(databases.name, likePattern(query.search)));
  return db
    .select({
      id: databases.id,
      name: databases.name,
      distributor: databases.distributor_id,
      distributor_name: distributors.name,
      illustration_url: databases.illustration_url,
      hidden: databases.hidden,
      store_count: sql<number>`coalesce(${counts.store_count}, 0)::int`,
      hidden_extensions: sql<ExtensionKey[]>`${databases.hidden_extensions}`,
    })
    .from(databases)
    .leftJoin(distributors, eq(distributors.id, databases.distributor_id))
    .leftJoin(counts, eq(counts.database_id, databases.id))
    .where(and(...conditions))
    .orderBy(asc(databases.name), asc(databases.id));
}

export async function findDatabaseInScope(
  db: Database,
  scope: Scope,
  id: string,
): Promise<DatabaseRow> {
  const [row] = await db
    .select()
    .from(databases)
    .where(and(eq(databases.id, id), databaseFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * The database as the API sends it. Managers are listed to admins, distributors and managers
 * (customers have no database screen); stores are those the caller may see; the licence price
 * goes to admins only.
 */
export async function presentDatabase(
  db: Database,
  scope: Scope,
  row: DatabaseRow,
): Promise<DatabaseDetail> {
  const [distributorRows, storeRows, managerRows, invitationRows] = await Promise.all([
    row.distributor_id
      ? db
          .select({ name: distributors.name })
          .from(distributors)
          .where(eq(distributors.id, row.distributor_id))
      : Promise.resolve([]),
    db
      .select({ id: stores.id })
      .from(stores)
      .where(and(eq(stores.database_id, row.id), storeFilter(scope)))
      .orderBy(asc(stores.name), asc(stores.id)),
    scope.role === 'customer'
      ? Promise.resolve([])
      : db
          .select({ id: users.id, name: users.name, surname: users.surname, email: users.email })
          .from(databaseManagers)
          .innerJoin(users, eq(users.id, databaseManagers.user_id))
          .where(eq(databaseManagers.database_id, row.id))
          .orderBy(asc(users.name), asc(users.surname), asc(users.id)),
    isStaff(scope)
      ? db
          .select({ email: databaseInvitations.email, created_at: databaseInvitations.created_at })
          .from(databaseInvitations)
          .where(eq(databaseInvitations.database_id, row.id))
          .orderBy(asc(databaseInvitations.email))
      : Promise.resolve([]),
  ]);
  return {
    id: row.id,
    name: row.name,
    distributor: row.distributor_id,
    distributor_name: distributorRows[0]?.name ?? null,
    illustration_url: row.illustration_url,
    hidden: row.hidden,
    store_count: storeRows.length,
    store_access: row.store_access,
    hidden_modules: row.hidden_modules as ModuleKey[],
    hidden_extensions: row.hidden_extensions as ExtensionKey[],
    licence_price:
      scope.role === 'admin' && row.licence_price !== null ? Number(row.licence_price) : null,
    screen_saver_url: row.screen_saver_url,
    alert_escalation_minutes: row.alert_escalation_minutes,
    managers: managerRows,
    invited_managers: invitationRows.map((invitation) => ({
      email: invitation.email,
      status: 'invited' as const,
      invited_at: invitation.created_at.toISOString(),
    })),
    stores: storeRows.map((store) => store.id),
    version: row.version,
  };
}

/** A distributor the caller may link a database to: 404 when it is not in the caller's scope. */
async function findLinkableDistributor(db: Database, scope: Scope, id: string): Promise<string> {
  const [row] = await db
    .select({ id: distributors.id })
    .from(distributors)
    .where(and(eq(distributors.id, id), distributorFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row.id;
}

/** Admins choose the distributor (or none); a distributor's database is linked to itself. */
export async function createDatabase(
  db: Database,
  scope: Scope,
  body: CreateDatabaseBody,
): Promise<DatabaseRow> {
  if (!isStaff(scope)) throw forbidden();
  let distributorId: string | null = null;
  if (scope.role === 'admin') {
    distributorId = body.distributorId
      ? await findLinkableDistributor(db, scope, body.distributorId)
      : null;
  } else {
    const own = scope.distributorIds[0];
    if (!own) throw forbidden();
    if (body.distributorId && body.distributorId !== own) throw notFound();
    distributorId = own;
  }
  const [row] = await db
    .insert(databases)
    .values({ name: body.name, distributor_id: distributorId })
    .returning();
  return row!;
}

/**
 * Database edits (spec 001 §2.1, §4, §6): customers may not edit; managers edit the databases
 * they manage but never store_access, hidden, the licence price or the distributor; the
 * store-access toggle is for admins and distributors, the licence price for admins. The
 * distributor is set once; the database's stores without a distributor join it.
 */
export async function updateDatabase(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateDatabaseBody,
): Promise<DatabaseRow> {
  const current = await findDatabaseInScope(db, scope, id);
  if (scope.role === 'customer') throw forbidden();
  if (
    scope.role === 'manager' &&
    (body.store_access !== undefined ||
      body.hidden !== undefined ||
      body.licence_price !== undefined ||
      body.distributorId !== undefined)
  ) {
    throw forbidden();
  }
  if (body.licence_price !== undefined && scope.role !== 'admin') throw forbidden();
  const { version, distributorId, licence_price, ...changes } = body;
  let newDistributorId: string | undefined;
  if (distributorId !== undefined && distributorId !== current.distributor_id) {
    if (current.distributor_id !== null) throw new AppError('database/distributor-already-set');
    newDistributorId = await findLinkableDistributor(db, scope, distributorId);
  }
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(databases)
      .set({
        ...changes,
        ...(licence_price !== undefined
          ? { licence_price: licence_price === null ? null : licence_price.toFixed(2) }
          : {}),
        ...(newDistributorId ? { distributor_id: newDistributorId } : {}),
        version: sql`${databases.version} + 1`,
        updated_at: new Date(),
      })
      .where(
        and(
          eq(databases.id, id),
          eq(databases.version, version),
          // Set once, even against a concurrent request.
          newDistributorId ? isNull(databases.distributor_id) : undefined,
        ),
      )
      .returning();
    if (!updated) throw new AppError('conflict/stale-version');
    if (newDistributorId) {
      await tx
        .update(stores)
        .set({
          distributor_id: newDistributorId,
          version: sql`${stores.version} + 1`,
          updated_at: new Date(),
        })
        .where(and(eq(stores.database_id, id), isNull(stores.distributor_id)));
    }
    return updated;
  });
}

/** Who manages the managers of a database: admins and distributors, on databases in scope. */
async function findManageableDatabase(db: Database, scope: Scope, id: string) {
  const row = await findDatabaseInScope(db, scope, id);
  if (!isStaff(scope)) throw forbidden();
  return row;
}

/**
 * POST /api/database/addManager: the e-mail must belong to an active manager account
 * (unknown e-mail: 404, another role or inactive: 409); adding an existing manager is a no-op.
 * An account outside the adder's tenant (another distributor's manager, or nobody's) is not
 * linked: its holder is mailed an invitation and becomes a manager on accepting it; the adder
 * gets "invited" and sees the e-mail only, whatever the account is.
 */
export async function addManager(
  deps: { db: Database; mailer: Mailer; publicUrl: string; language: MailLanguage },
  scope: Scope,
  body: { email: string; databaseId: string },
): Promise<'ok' | 'invited'> {
  const { db } = deps;
  const database = await findManageableDatabase(db, scope, body.databaseId);
  const user = await findUserByEmail(db, body.email);
  if (!user) throw notFound();
  if (!(await isWithinAddersTenant(db, scope, user, database.distributor_id))) {
    const token = newToken();
    const invitation = {
      invited_by: scope.userId,
      token_hash: hashToken(token),
      created_at: new Date(),
    };
    await db
      .insert(databaseInvitations)
      .values({ database_id: database.id, email: body.email, ...invitation })
      .onConflictDoUpdate({
        target: [databaseInvitations.database_id, databaseInvitations.email],
        set: invitation,
      });
    const link = `${deps.publicUrl.replace(/\/+$/, '')}/?email=${encodeURIComponent(body.email)}&invitation=${encodeURIComponent(token)}`;
    const mail = invitationMail(deps.language, {
      kind: 'database-existing-account',
      place: database.name,
      link,
    });
    await deps.mailer.send({ to: [body.email], ...mail });
    return 'invited';
  }
  if (user.role !== 'manager' || !user.active) throw new AppError('manager/not-eligible');
  await db
    .insert(databaseManagers)
    .values({ database_id: database.id, user_id: user.id })
    .onConflictDoNothing();
  return 'ok';
}

/**
 * A database invitation accepted by its holder (sign-in with the mailed link, or signed in):
 * an active manager account becomes a manager of the database. Returns whether one matched.
 */
export async function acceptManagerInvitation(
  db: Database,
  user: { id: string; email: string; role: string; active: boolean },
  token: string,
): Promise<boolean> {
  const [invitation] = await db
    .delete(databaseInvitations)
    .where(
      and(
        eq(databaseInvitations.token_hash, hashToken(token)),
        eq(databaseInvitations.email, user.email),
      ),
    )
    .returning({ database_id: databaseInvitations.database_id });
  if (!invitation) return false;
  if (user.role === 'manager' && user.active) {
    await db
      .insert(databaseManagers)
      .values({ database_id: invitation.database_id, user_id: user.id })
      .onConflictDoNothing();
  }
  return true;
}

export async function removeManager(
  db: Database,
  scope: Scope,
  databaseId: string,
  userId: string,
): Promise<DatabaseRow> {
  const database = await findManageableDatabase(db, scope, databaseId);
  const removed = await db
    .delete(databaseManagers)
    .where(and(eq(databaseManagers.database_id, databaseId), eq(databaseManagers.user_id, userId)))
    .returning();
  if (removed.length === 0) throw notFound();
  return database;
}

/**
 * POST /api/databases/:id/invitations/withdraw: whoever may remove the database's managers
 * withdraws a pending invitation; its link then adds nobody. 404 when that e-mail has none.
 */
export async function withdrawManagerInvitation(
  db: Database,
  scope: Scope,
  databaseId: string,
  email: string,
): Promise<DatabaseRow> {
  const database = await findManageableDatabase(db, scope, databaseId);
  const withdrawn = await db
    .delete(databaseInvitations)
    .where(
      and(eq(databaseInvitations.database_id, database.id), eq(databaseInvitations.email, email)),
    )
    .returning({ email: databaseInvitations.email });
  if (withdrawn.length === 0) throw notFound();
  return database;
}

export type DatabaseImage = 'illustration' | 'screen-saver';

/** Images of a database: admins, distributors and its managers. */
export async function assertCanSetImage(db: Database, scope: Scope, id: string): Promise<void> {
  await findDatabaseInScope(db, scope, id);
  if (scope.role === 'customer') throw forbidden();
}

export async function setImage(
  db: Database,
  scope: Scope,
  id: string,
  image: DatabaseImage,
  url: string,
): Promise<{ database: DatabaseRow; previousUrl: string | null }> {
  const current = await findDatabaseInScope(db, scope, id);
  if (scope.role === 'customer') throw forbidden();
  const column = image === 'illustration' ? 'illustration_url' : 'screen_saver_url';
  const [updated] = await db
    .update(databases)
    .set({ [column]: url, version: sql`${databases.version} + 1`, updated_at: new Date() })
    .where(eq(databases.id, id))
    .returning();
  return { database: updated!, previousUrl: current[column] };
}

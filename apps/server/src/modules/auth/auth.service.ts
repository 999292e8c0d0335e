import {
  loginTokenLifetimeMinutes,
  maxFailuresPerAccountPerHour,
  maxFailuresPerAddressPer15Minutes,
  maxResetMailsPerAccountPerHour,
  recentLoginMinutes,
  resetTokenLifetimeMinutes,
} from '@mise/shared/auth/constants';
import { isStrongPassword, validatePasswordChange } from '@mise/shared/auth/rules';
import type { RegisterAccountBody, SignupBody } from '@mise/shared/auth/schemas';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  authTokens,
  databaseManagers,
  loginFailures,
  sessions,
  storeOwners,
  users,
} from '../../db/schema';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import {
  createSession,
  deleteUserSessions,
  type SessionRow,
  type UserRow,
} from '../../platform/auth/sessions';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { acceptStoreInvitation, findStoreInScope } from '../stores/stores.service';
import { assertActsWithinTenant, findUserByEmail, findUserInScope } from '../users/users.service';

type Context = { db: Database };

function assertStrong(password: string): void {
  if (!isStrongPassword(password)) throw new AppError('auth/weak-password');
}

async function isThrottled(db: Database, email: string, address: string): Promise<boolean> {
  const [[byAddress], [byAccountHere], [byAccount]] = await Promise.all([
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.address, address),
          gt(loginFailures.created_at, sql`now() - interval '15 minutes'`),
        ),
      ),
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.email, email),
          eq(loginFailures.address, address),
          gt(loginFailures.created_at, sql`now() - interval '1 hour'`),
        ),
      ),
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(
        and(
          eq(loginFailures.email, email),
          gt(loginFailures.created_at, sql`now() - interval '1 hour'`),
        ),
      ),
  ]);
  if ((byAddress?.n ?? 0) >= maxFailuresPerAddressPer15Minutes) return true;
  // Past 100 failures in an hour the account is throttled only for the addresses that
  // failed on it: a stranger hammering it does not lock its owner out elsewhere.
  return (byAccount?.n ?? 0) >= maxFailuresPerAccountPerHour && (byAccountHere?.n ?? 0) > 0;
}

async function recordFailure(db: Database, email: string, address: string): Promise<void> {
  await db.insert(loginFailures).values({ email, address });
  if (Math.random() < 0.02) {
    await db
      .delete(loginFailures)
      .where(sql`${loginFailures.created_at} < now() - interval '1 day'`);
  }
}

/** E-mail and password sign-in: the same answer and similar time for an unknown e-mail. */
export async function login(
  { db }: Context,
  input: { email: string; password: string; address: string },
): Promise<{ token: string; user: UserRow }> {
  if (await isThrottled(db, input.email, input.address))
    throw new AppError('auth/too-many-attempts');
  const user = await findUserByEmail(db, input.email);
  const isValid = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !isValid || !user.active) {
    await recordFailure(db, input.email, input.address);
    throw new AppError('auth/invalid-credentials');
  }
  await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.email, input.email), eq(loginFailures.address, input.address)));
  const { token } = await createSession(db, user.id, 'password');
  return { token, user };
}

async function issueToken(
  db: Database,
  userId: string,
  purpose: 'login' | 'reset',
  minutes: number,
  createdBy: string | null,
): Promise<string> {
  const token = newToken();
  await db.insert(authTokens).values({
    token_hash: hashToken(token),
    purpose,
    user_id: userId,
    created_by: createdBy,
    expires_at: new Date(Date.now() + minutes * 60 * 1000),
  });
  return token;
}

/** Consumes a single-use token: the update only succeeds once, even under a race. */
async function consumeToken(
  db: Database,
  token: string,
  purpose: 'login' | 'reset',
): Promise<string | null> {
  const [row] = await db
    .update(authTokens)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(authTokens.token_hash, hashToken(token)),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.used_at),
        gt(authTokens.expires_at, sql`now()`),
      ),
    )
    .returning({ userId: authTokens.user_id });
  return row?.userId ?? null;
}

async function insertUser(
  db: Database,
  values: Omit<typeof users.$inferInsert, 'password_hash'> & { password: string },
): Promise<UserRow> {
  const { password, ...rest } = values;
  const password_hash = await hashPassword(password);
  const [row] = await db
    .insert(users)
    .values({ ...rest, password_hash })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) throw new AppError('auth/email-already-in-use');
  return row;
}

/** POST /api/auth/signup: public registration of a store owner (customer). */
export async function signup(
  { db }: Context,
  body: SignupBody,
): Promise<{ token: string; user: UserRow }> {
  assertStrong(body.password);
  if (await findUserByEmail(db, body.email)) throw new AppError('auth/email-already-in-use');
  const user = await insertUser(db, {
    email: body.email,
    password: body.password,
    name: body.name,
    surname: body.surname,
    phone_number: body.phone,
    role: 'customer',
  });
  if (body.invitation) await acceptStoreInvitation(db, user, body.invitation);
  const token = await issueToken(db, user.id, 'login', loginTokenLifetimeMinutes, null);
  return { token, user };
}

/** POST /api/auth/registerAccount: an admin or distributor creates an account in its scope. */
export async function registerAccount(
  { db }: Context,
  scope: Scope,
  body: RegisterAccountBody,
): Promise<UserRow> {
  if (scope.role !== 'admin' && scope.role !== 'distributor') throw forbidden();
  let distributorId: string | null = null;
  let databaseId: string | null = null;
  let storeId: string | null = null;
  if (body.role === 'distributor') {
    distributorId =
      scope.role === 'distributor'
        ? (scope.distributorIds[0] ?? null)
        : (body.distributorId ?? null);
    if (!distributorId) throw new AppError('account/select-distributor');
    if (scope.role === 'distributor' && body.distributorId && body.distributorId !== distributorId)
      throw notFound();
    await findDistributorInScope(db, scope, distributorId);
  }
  if (body.role === 'customer') {
    if (!body.storeId) throw new AppError('account/select-store');
    storeId = (await findStoreInScope(db, scope, body.storeId)).id;
  }
  if (body.role === 'manager') {
    if (!body.databaseId) throw new AppError('account/select-database');
    databaseId = (await findDatabaseInScope(db, scope, body.databaseId)).id;
  }
  assertStrong(body.password);
  if (await findUserByEmail(db, body.email)) throw new AppError('auth/email-already-in-use');
  return db.transaction(async (tx) => {
    const user = await insertUser(tx as unknown as Database, {
      email: body.email,
      password: body.password,
      name: body.name,
      surname: body.surname,
      phone_number: body.phone,
      role: body.role,
      distributor_id: distributorId,
      database_id: databaseId,
    });
    if (storeId) await tx.insert(storeOwners).values({ store_id: storeId, user_id: user.id });
    if (databaseId)
      await tx.insert(databaseManagers).values({ database_id: databaseId, user_id: user.id });
    return user;
  });
}

/** POST /api/auth/createToken: a single-use login token for an account in the caller's scope. */
export async function createLoginToken(
  { db }: Context,
  scope: Scope,
  userId: string,
): Promise<string> {
  if (scope.role !== 'admin' && scope.role !== 'distributor') throw forbidden();
  const target = await findUserInScope(db, scope, userId);
  await assertActsWithinTenant(db, scope, target);
  return issueToken(db, target.id, 'login', loginTokenLifetimeMinutes, scope.userId);
}

/** POST /api/auth: exchanges a login token for a session of its own. */
export async function signInWithToken(
  { db }: Context,
  token: string,
): Promise<{ token: string; user: UserRow }> {
  const userId = await consumeToken(db, token, 'login');
  if (!userId) throw new AppError('auth/invalid-token');
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user?.active) throw new AppError('auth/invalid-token');
  const session = await createSession(db, user.id, 'token');
  return { token: session.token, user };
}

/** Lost password: mails a single-use link when the account exists; the same answer otherwise. */
export async function requestPasswordReset(
  { db, mailer, publicUrl }: Context & { mailer: Mailer; publicUrl: string },
  email: string,
): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user?.active) return;
  // Per account: a few links an hour, then the same answer and no mail (no mail bombing).
  const [recent] = await db
    .select({ n: count() })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.user_id, user.id),
        eq(authTokens.purpose, 'reset'),
        gt(authTokens.created_at, sql`now() - interval '1 hour'`),
      ),
    );
  if ((recent?.n ?? 0) >= maxResetMailsPerAccountPerHour) return;
  const token = await issueToken(db, user.id, 'reset', resetTokenLifetimeMinutes, null);
  const link = `${publicUrl}/resetPassword?token=${encodeURIComponent(token)}`;
  // Not awaited: a known and an unknown address answer in the same time. The mailer
  // records the message (and any failure) in the outbox.
  void mailer
    .send({
      to: [user.email],
      subject: 'Mise: reset your password / réinitialisez votre mot de passe',
      text: [
        `Bonjour ${user.name},`,
        '',
        `Pour choisir un nouveau mot de passe, ouvrez ce lien (valable ${resetTokenLifetimeMinutes} minutes) :`,
        link,
        '',
        `To choose a new password, open this link (valid ${resetTokenLifetimeMinutes} minutes):`,
        link,
        '',
        "Si vous n'avez rien demandé, ignorez ce message. / If you did not ask for this, ignore this message.",
      ].join('\n'),
    })
    .catch(() => {});
}

export async function resetPassword(
  { db }: Context,
  input: { token: string; password: string; confirmation: string },
): Promise<void> {
  const mismatch = validatePasswordChange(input.password, input.confirmation);
  if (mismatch) throw new AppError(mismatch);
  assertStrong(input.password);
  const userId = await consumeToken(db, input.token, 'reset');
  if (!userId) throw new AppError('auth/reset-link-invalid');
  await db
    .update(users)
    .set({
      password_hash: await hashPassword(input.password),
      new_password_required: false,
      password_changed_at: new Date(),
      version: sql`${users.version} + 1`,
      updated_at: new Date(),
    })
    .where(eq(users.id, userId));
  await deleteUserSessions(db, userId);
}

/** Forced password change: a recent sign-in, a strong password; other sessions end. */
export async function changePassword(
  { db }: Context,
  auth: { user: UserRow; session: SessionRow },
  input: { password: string; confirmation: string },
): Promise<UserRow> {
  const invalid = validatePasswordChange(input.password, input.confirmation);
  if (invalid) throw new AppError(invalid);
  if (Date.now() - auth.session.created_at.getTime() > recentLoginMinutes * 60 * 1000) {
    throw new AppError('auth/requires-recent-login');
  }
  assertStrong(input.password);
  const [user] = await db
    .update(users)
    .set({
      password_hash: await hashPassword(input.password),
      new_password_required: false,
      password_changed_at: new Date(),
      version: sql`${users.version} + 1`,
      updated_at: new Date(),
    })
    .where(eq(users.id, auth.user.id))
    .returning();
  await deleteUserSessions(db, auth.user.id, auth.session.id);
  return user!;
}

/** "Change password" on one's own account: flag it, end every session (spec 000 §4). */
export async function requirePasswordChange({ db }: Context, userId: string): Promise<void> {
  await db
    .update(users)
    .set({
      new_password_required: true,
      version: sql`${users.version} + 1`,
      updated_at: new Date(),
    })
    .where(eq(users.id, userId));
  await db.delete(sessions).where(eq(sessions.user_id, userId));
}

/** Create an admin account (CLI for an empty production database). */
export async function createAdmin(
  { db }: Context,
  input: { email: string; password: string; name?: string; surname?: string },
): Promise<UserRow> {
  assertStrong(input.password);
  return insertUser(db, {
    email: input.email,
    password: input.password,
    name: input.name ?? 'Admin',
    surname: input.surname ?? '',
    role: 'admin',
  });
}

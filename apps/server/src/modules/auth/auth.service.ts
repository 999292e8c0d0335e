import {
  loginTokenLifetimeMinutes,
  maxFailuresPerAccountPerHour,
  maxFailuresPerAddressOnBusyAccount,
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
import { acceptManagerInvitation, findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { acceptStoreInvitation, findStoreInScope } from '../stores/stores.service';
import { assertActsWithinTenant, findUserByEmail, findUserInScope } from '../users/users.service';

type Context = { db: Database };

function assertStrong(password: string): void {
  if (!isStrongPassword(password)) throw new AppError('auth/weak-password');
}

/**
 * Seconds the caller must wait when sign-in is throttled, else null: 30 failures from an
 * address in 15 minutes, or, on an account past 100 failures in the hour, 5 failures of
 * this address on it (a stranger's flood leaves its owner a few tries).
 */
async function throttledForSeconds(
  db: Database,
  email: string,
  address: string,
): Promise<number | null> {
  const window = (minutes: number) =>
    gt(loginFailures.created_at, sql`now() - ${`${minutes} minutes`}::interval`);
  const counted = { n: count(), oldest: sql<string | null>`min(${loginFailures.created_at})` };
  const [[byAddress], [byAccountHere], [byAccount]] = await Promise.all([
    db
      .select(counted)
      .from(loginFailures)
      .where(and(eq(loginFailures.address, address), window(15))),
    db
      .select(counted)
      .from(loginFailures)
      .where(and(eq(loginFailures.email, email), eq(loginFailures.address, address), window(60))),
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(and(eq(loginFailures.email, email), window(60))),
  ]);
  const secondsLeft = (oldest: string | null | undefined, minutes: number) =>
    oldest
      ? Math.max(1, Math.ceil((new Date(oldest).getTime() + minutes * 60_000 - Date.now()) / 1000))
      : minutes * 60;
  if ((byAddress?.n ?? 0) >= maxFailuresPerAddressPer15Minutes) {
    return secondsLeft(byAddress?.oldest, 15);
  }
  if (
    (byAccount?.n ?? 0) >= maxFailuresPerAccountPerHour &&
    (byAccountHere?.n ?? 0) >= maxFailuresPerAddressOnBusyAccount
  ) {
    return secondsLeft(byAccountHere?.oldest, 60);
  }
  return null;
}

function tooManyAttempts(seconds: number): AppError {
  const error = new AppError('auth/too-many-attempts');
  error.retryAfterSeconds = seconds;
  return error;
}

async function recordFailure(db: Database, email: string, address: string): Promise<void> {
  await db.insert(loginFailures).values({ email, address });
  if (Math.random() < 0.02) {
    await db
      .delete(loginFailures)
      .where(sql`${loginFailures.created_at} < now() - interval '1 day'`);
  }
}

/**
 * The holder of an invited e-mail accepts the mailed link (a store to own, a database to
 * manage): the token must have been sent to this account's own address. Returns whether an
 * invitation matched.
 */
export async function acceptInvitation(
  { db }: Context,
  user: UserRow,
  token: string,
): Promise<boolean> {
  if (await acceptStoreInvitation(db, user, token)) return true;
  return acceptManagerInvitation(db, user, token);
}

/** E-mail and password sign-in: the same answer and similar time for an unknown e-mail. */
export async function login(
  { db }: Context,
  input: { email: string; password: string; address: string; invitation?: string },
): Promise<{ token: string; user: UserRow }> {
  const waitSeconds = await throttledForSeconds(db, input.email, input.address);
  if (waitSeconds !== null) throw tooManyAttempts(waitSeconds);
  const user = await findUserByEmail(db, input.email);
  const isValid = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !isValid || !user.active) {
    await recordFailure(db, input.email, input.address);
    throw new AppError('auth/invalid-credentials');
  }
  await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.email, input.email), eq(loginFailures.address, input.address)));
  // Signing in from an invitation link accepts the invitation of this account's e-mail.
  if (input.invitation) await acceptInvitation({ db }, user, input.invitation);
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
  if (body.invitation) await acceptInvitation({ db }, user, body.invitation);
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

/**
 * A single-use login token for a tablet's linked account (POST /api/device/back-office-link):
 * the same token POST /api/auth consumes, with a short lifetime. The caller has checked the
 * account is the device's linked user and an owner of its store.
 */
export function createDeviceLoginToken(
  { db }: Context,
  userId: string,
  minutes: number,
): Promise<string> {
  return issueToken(db, userId, 'login', minutes, null);
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
  await voidResetTokens(db, userId);
  await deleteUserSessions(db, userId);
}

/** A new password voids every reset link of the account still unused (another was used). */
async function voidResetTokens(db: Database, userId: string): Promise<void> {
  await db
    .update(authTokens)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(authTokens.user_id, userId),
        eq(authTokens.purpose, 'reset'),
        isNull(authTokens.used_at),
      ),
    );
}

/**
 * Password change (the forced change screen): the current password first, checked like a
 * sign-in (throttled, failures counted), so a session alone, e.g. one opened with a
 * distributor's login token, cannot take the account over; then a recent sign-in and a strong
 * password. Other sessions and unused reset links end.
 */
export async function changePassword(
  { db }: Context,
  auth: { user: UserRow; session: SessionRow },
  input: { current_password: string; password: string; confirmation: string; address: string },
): Promise<UserRow> {
  const invalid = validatePasswordChange(input.password, input.confirmation);
  if (invalid) throw new AppError(invalid);
  if (Date.now() - auth.session.created_at.getTime() > recentLoginMinutes * 60 * 1000) {
    throw new AppError('auth/requires-recent-login');
  }
  const waitSeconds = await throttledForSeconds(db, auth.user.email, input.address);
  if (waitSeconds !== null) throw tooManyAttempts(waitSeconds);
  const [current] = await db
    .select({ password_hash: users.password_hash })
    .from(users)
    .where(eq(users.id, auth.user.id));
  if (!(await verifyPassword(current?.password_hash ?? null, input.current_password))) {
    await recordFailure(db, auth.user.email, input.address);
    throw new AppError('auth/wrong-current-password');
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
  await voidResetTokens(db, auth.user.id);
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

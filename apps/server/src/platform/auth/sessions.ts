import { sessionLifetimeDays } from '@mise/shared/auth/constants';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { preparedStatement } from '../prepared';
import { hashToken, newToken } from './tokens';

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export async function createSession(
  db: Database,
  userId: string,
  kind: SessionRow['kind'],
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + sessionLifetimeDays * 24 * 3600 * 1000);
  const [session] = await db
    .insert(sessions)
    .values({
      token_hash: hashToken(token),
      csrf_secret: newToken(),
      user_id: userId,
      kind,
      expires_at: expiresAt,
    })
    .returning();
  return { token, session: session! };
}

/** Every request reads its session: a prepared statement. */
const sessionByTokenHash = preparedStatement((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.token_hash, sql.placeholder('tokenHash')),
        gt(sessions.expires_at, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('mise_session_by_token_hash'),
);

/** One query: the live session of a token and its user. */
export async function findSession(
  db: Database,
  token: string,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const rows = await sessionByTokenHash(db).execute({ tokenHash: hashToken(token) });
  return rows[0] ?? null;
}

/** Sliding activity stamp, written at most every five minutes per session. */
export async function touchSession(db: Database, session: SessionRow): Promise<void> {
  if (Date.now() - session.last_seen_at.getTime() < 5 * 60 * 1000) return;
  await db.update(sessions).set({ last_seen_at: new Date() }).where(eq(sessions.id, session.id));
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, but the one given (password change keeps the caller's). */
export async function deleteUserSessions(
  db: Database,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.user_id, userId), ne(sessions.id, exceptSessionId))
        : eq(sessions.user_id, userId),
    );
}

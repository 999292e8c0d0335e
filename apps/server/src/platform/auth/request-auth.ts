import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { devices, stores } from '../../db/schema';
import { AppError } from '../errors';
import { findSession, type SessionRow, touchSession, type UserRow } from './sessions';
import { hashToken, safeEqual } from './tokens';

export const sessionCookieName = 'mise_session';

export type RequestAuth = {
  user: UserRow;
  session: SessionRow;
  /** Browsers authenticate with the cookie, tablets and scripts with a bearer token. */
  via: 'cookie' | 'bearer';
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
    /**
     * A paired tablet, authenticated by its device token (Bearer). `storeLicensed`: its store
     * is active and has its licence (tablet services stop otherwise, spec 000).
     */
    device: { id: string; storeId: string; storeLicensed: boolean } | null;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function readToken(request: FastifyRequest): { token: string; via: RequestAuth['via'] } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return { token: header.slice(7).trim(), via: 'bearer' };
  const cookie = request.cookies[sessionCookieName];
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

function isSameOrigin(request: FastifyRequest, config: Config): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // Non-browser clients and same-origin GET-like navigations send none.
  if (origin === new URL(config.PUBLIC_URL).origin) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * Resolves the caller once per request (cookie or bearer session, one query),
 * then enforces CSRF on cookie-authenticated writes: a same-origin Origin and
 * the session-bound token in x-csrf-token.
 */
export function registerRequestAuth(app: FastifyInstance, db: Database, config: Config): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('device', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const found = readToken(request);
    if (found) {
      const result = await findSession(db, found.token);
      if (result?.user.active) {
        request.auth = { ...result, via: found.via };
        await touchSession(db, result.session);
      } else if (!result && found.via === 'bearer') {
        await findDevice(db, request, found.token);
      }
    }
    if (safeMethods.has(request.method)) return;
    if (!isSameOrigin(request, config)) throw new AppError('auth/csrf');
    if (request.auth?.via === 'cookie') {
      const sent = request.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !safeEqual(sent, request.auth.session.csrf_secret)) {
        throw new AppError('auth/csrf');
      }
    }
  });
}

/** A bearer token that is no session may be a tablet's device token (stored hashed). */
async function findDevice(db: Database, request: FastifyRequest, token: string): Promise<void> {
  const [device] = await db
    .select({
      id: devices.id,
      storeId: devices.store_id,
      lastConnexion: devices.last_connexion,
      storeActive: stores.active,
      storeLicence: stores.mise_licence,
    })
    .from(devices)
    .innerJoin(stores, eq(stores.id, devices.store_id))
    .where(eq(devices.token_hash, hashToken(token)))
    .limit(1);
  if (!device) return;
  request.device = {
    id: device.id,
    storeId: device.storeId,
    storeLicensed: device.storeActive && device.storeLicence,
  };
  // Connection stamp, written at most every five minutes per device.
  if (!device.lastConnexion || Date.now() - device.lastConnexion.getTime() >= 5 * 60 * 1000) {
    await db.update(devices).set({ last_connexion: new Date() }).where(eq(devices.id, device.id));
  }
}

export function requireAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('auth/unauthenticated');
  return request.auth;
}

export function setSessionCookie(reply: FastifyReply, token: string, config: Config): void {
  reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.isCookieSecure,
    maxAge: 30 * 24 * 3600,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.isCookieSecure,
  });
}

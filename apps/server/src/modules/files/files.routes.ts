import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { type Scope, scopeOf } from '../../platform/scope';
import {
  assertValidKey,
  type ByteRange,
  RangeNotSatisfiableError,
  type Storage,
  type StoredFile,
} from '../../platform/storage';
import { findResultFileOwner } from '../audits/audit-results.service';
import { findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { findEmployeeInScope } from '../people/employees.service';
import { findStoreInScope } from '../stores/stores.service';
import { findUserInScope } from '../users/users.service';
import { ensureVariant, imageVariantQuerySchema, isResizable, variantOf } from './image-variants';
import { contentTypeOf } from './uploads';

/** A file is visible to whoever can see the record its key starts with (404 otherwise). */
const findOwner: Record<string, (db: Database, scope: Scope, id: string) => Promise<unknown>> = {
  accounts: findUserInScope,
  distributors: findDistributorInScope,
  databases: findDatabaseInScope,
  stores: findStoreInScope,
  /** Employees' pictures: whoever sees one of the employee's stores. */
  employees: findEmployeeInScope,
  /** Audit answers' files and PDFs: the result's auditor, admins and managers (spec 002 §6). */
  'audit-results': findResultFileOwner,
  /** Global trainings' section attachments (`trainings/<upload>/…`): every signed-in account. */
  trainings: async () => undefined,
};

/**
 * Whether a paired tablet may read a file of this owner (`area`/`ownerId` of its key). The
 * device module registers the answer at start (files does not depend on its users).
 */
export type DeviceFileAccess = (
  db: Database,
  device: { id: string; storeId: string },
  area: string,
  ownerId: string,
) => Promise<boolean>;
let deviceFileAccess: DeviceFileAccess | null = null;
export function registerDeviceFileAccess(check: DeviceFileAccess): void {
  deviceFileAccess = check;
}

/**
 * A Range header's single byte range (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or the last N
 * bytes `bytes=-n`. Anything else (another unit, several ranges, bad syntax) is ignored: the
 * whole file is answered, as the RFC allows.
 */
export function parseRange(header: string | undefined): ByteRange | { suffix: number } | null {
  const match = header?.trim().match(/^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') return { suffix: Number(last) };
  const start = Number(first);
  const end = last === '' ? undefined : Number(last);
  if (!Number.isSafeInteger(start) || (end !== undefined && !Number.isSafeInteger(end)))
    return null;
  if (end !== undefined && end < start) return null;
  return { start, end };
}

/** The last `suffix` bytes as a range ('missing' when there is no such file). */
async function suffixRange(
  storage: Storage,
  key: string,
  suffix: number,
): Promise<ByteRange | 'missing'> {
  const found = await storage.stat(key);
  if (!found) return 'missing';
  if (suffix === 0 || found.size === 0) throw new RangeNotSatisfiableError(found.size);
  return { start: Math.max(found.size - suffix, 0) };
}

/**
 * Sends a stored file, streamed, with single-range requests (206 Partial Content, 416 past the
 * end) so a video seeks; 404 when the object is missing.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  key: string,
  headers: { contentType: string; disposition: string },
) {
  // No validators (ETag, Last-Modified) are sent, so an If-Range cannot match: whole file.
  const requested = request.headers['if-range'] ? null : parseRange(request.headers.range);
  let file: StoredFile | null;
  try {
    // A suffix range (the last N bytes) needs the size first.
    const range =
      requested && 'suffix' in requested
        ? await suffixRange(storage, key, requested.suffix)
        : requested;
    file = range === 'missing' ? null : await storage.get(key, range ?? undefined);
  } catch (error) {
    if (!(error instanceof RangeNotSatisfiableError)) throw error;
    return reply
      .code(416)
      .header('accept-ranges', 'bytes')
      .header('content-range', `bytes */${error.size}`)
      .header('x-content-type-options', 'nosniff')
      .send();
  }
  if (!file) throw notFound();
  reply
    .header('content-type', headers.contentType)
    .header('accept-ranges', 'bytes')
    .header('content-disposition', headers.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=3600');
  if (file.range) {
    reply
      .code(206)
      .header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
      .header('content-length', file.range.end - file.range.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return reply.send(file.stream);
}

/**
 * GET /api/files/<key>: a stored file, after checking the caller may see its owner: a signed-in
 * user by their scope, a paired tablet (device token) by registerDeviceFileAccess. Streamed, with
 * single-range requests (206 Partial Content, 416 past the end) so a video seeks.
 */
export const filesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/files/*',
    {
      schema: {
        tags: ['files'],
        params: z.object({ '*': z.string().min(1).max(500) }),
        querystring: imageVariantQuerySchema,
      },
    },
    async (request, reply) => {
      const device = request.auth ? null : request.device;
      const user = device ? null : requireAuth(request).user;
      const key = request.params['*'];
      try {
        assertValidKey(key);
      } catch {
        throw notFound();
      }
      const [area, ownerId] = key.split('/');
      if (!area || !ownerId || !z.uuid().safeParse(ownerId).success) throw notFound();
      const find = Object.hasOwn(findOwner, area) ? findOwner[area] : undefined;
      if (!find) throw notFound();
      if (device) {
        if (!device.storeLicensed) throw new AppError('device/store-unlicensed');
        const isAllowed = await deviceFileAccess?.(deps.db, device, area, ownerId);
        if (!isAllowed) throw notFound();
      } else {
        await find(deps.db, await scopeOf(request, deps.db, user!), ownerId);
      }
      // A resized or watermarked image (?w=, ?h=, ?size=thumb, ?watermark=true), made once.
      const variant = variantOf(request.query);
      if (variant && isResizable(key)) {
        const variantKey = await ensureVariant(deps.storage, key, variant);
        if (!variantKey) throw notFound();
        return sendStoredFile(request, reply, deps.storage, variantKey, {
          contentType: 'image/webp',
          disposition: 'inline',
        });
      }
      return sendStoredFile(request, reply, deps.storage, key, {
        contentType: contentTypeOf(key),
        disposition: 'inline',
      });
    },
  );
};

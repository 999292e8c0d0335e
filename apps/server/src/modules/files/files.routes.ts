import { and, eq, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { databases, distributors, stores } from '../../db/schema';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import {
  databaseFilter,
  distributorFilter,
  type Scope,
  scopeOf,
  storeFilter,
} from '../../platform/scope';
import { assertValidKey } from '../../platform/storage';
import { findUserInScope } from '../users/users.service';
import { contentTypeOf } from './uploads';

/** A file is visible to whoever can see the record its key starts with. */
async function canSeeOwner(
  db: Database,
  scope: Scope,
  area: string,
  ownerId: string,
): Promise<boolean> {
  const visible = async (
    table: typeof distributors | typeof databases | typeof stores,
    filter: SQL | undefined,
  ) =>
    (
      await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.id, ownerId), filter))
        .limit(1)
    ).length > 0;
  switch (area) {
    case 'accounts':
      return findUserInScope(db, scope, ownerId).then(
        () => true,
        () => false,
      );
    case 'distributors':
      return visible(distributors, distributorFilter(scope));
    case 'databases':
      return visible(databases, databaseFilter(scope));
    case 'stores':
      return visible(stores, storeFilter(scope));
    default:
      return false;
  }
}

/** GET /api/files/<key>: a stored file, after checking the caller may see its owner. */
export const filesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/files/*',
    { schema: { tags: ['files'], params: z.object({ '*': z.string().min(1).max(500) }) } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const key = request.params['*'];
      try {
        assertValidKey(key);
      } catch {
        throw notFound();
      }
      const [area, ownerId] = key.split('/');
      if (!area || !ownerId || !z.uuid().safeParse(ownerId).success) throw notFound();
      const scope = await scopeOf(request, deps.db, user);
      if (!(await canSeeOwner(deps.db, scope, area, ownerId))) throw notFound();
      const file = await deps.storage.get(key);
      if (!file) throw notFound();
      return reply
        .header('content-type', contentTypeOf(key))
        .header('content-length', file.size)
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .send(file.stream);
    },
  );
};

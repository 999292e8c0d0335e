import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { type Scope, scopeOf } from '../../platform/scope';
import { assertValidKey } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { findDistributorInScope } from '../distributors/distributors.service';
import { findEmployeeInScope } from '../people/employees.service';
import { findStoreInScope } from '../stores/stores.service';
import { findUserInScope } from '../users/users.service';
import { contentTypeOf } from './uploads';

/** A file is visible to whoever can see the record its key starts with (404 otherwise). */
const findOwner: Record<string, (db: Database, scope: Scope, id: string) => Promise<unknown>> = {
  accounts: findUserInScope,
  distributors: findDistributorInScope,
  databases: findDatabaseInScope,
  stores: findStoreInScope,
  /** Employees' pictures: whoever sees one of the employee's stores. */
  employees: findEmployeeInScope,
};

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
      const find = Object.hasOwn(findOwner, area) ? findOwner[area] : undefined;
      if (!find) throw notFound();
      await find(deps.db, await scopeOf(request, deps.db, user), ownerId);
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

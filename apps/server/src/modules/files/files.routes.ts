import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { assertValidKey } from '../../platform/storage';
import { findUserInScope } from '../users/users.service';
import { contentTypeOf } from './uploads';

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
      if (area !== 'accounts' || !ownerId || !z.uuid().safeParse(ownerId).success) throw notFound();
      await findUserInScope(deps.db, await scopeOf(request, deps.db, user), ownerId);
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

import { distributorOptionsResponseSchema } from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { listDistributorOptions } from './distributors.service';

export const distributorsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/distributors',
    { schema: { tags: ['distributors'], response: { 200: distributorOptionsResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      return { items: await listDistributorOptions(db, await scopeOf(request, db, user)) };
    },
  );
};

import { verifyRecordsQuerySchema, verifyRecordsResultSchema } from '@mise/shared/records/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { forbidden } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { findStoreInScope } from '../stores/stores.service';
import { verifyStorePeriod } from './verify';

/**
 * GET /api/records/verify?storeId&from&to: the records chain's verifier (issue 21). Admin only
 * (403 for any other role), an unknown store 404. Reads only, hence a GET.
 */
export const recordsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/records/verify',
    {
      schema: {
        tags: ['records'],
        querystring: verifyRecordsQuerySchema,
        response: { 200: verifyRecordsResultSchema },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db, requireAuth(request).user);
      if (scope.role !== 'admin') throw forbidden();
      const store = await findStoreInScope(db, scope, request.query.storeId);
      return verifyStorePeriod(db, store, request.query);
    },
  );
};

import { idSchema } from '@mise/shared/auth/schemas';
import { retentionResponseSchema, updateRetentionBodySchema } from '@mise/shared/records/retention';
import { verifyRecordsQuerySchema, verifyRecordsResultSchema } from '@mise/shared/records/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { forbidden } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { findStoreInScope } from '../stores/stores.service';
import { readRetention, updateRetention } from './retention';
import { recordsSigningKey } from './signing';
import { verifyStorePeriod } from './verify';

/**
 * GET /api/records/verify?storeId&from&to: the records chain's verifier (issue 21). Admin only
 * (403 for any other role), an unknown store 404. Reads only, hence a GET.
 * GET and PUT /api/databases/:id/retention: a database's retention of records, read by whoever
 * sees the database, changed by its admin, distributor and managers (customers 403).
 */
export const recordsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
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
      return verifyStorePeriod(db, store, request.query, recordsSigningKey(config));
    },
  );

  const params = z.strictObject({ id: idSchema });
  app.get(
    '/databases/:id/retention',
    {
      schema: {
        tags: ['records'],
        params,
        response: { 200: retentionResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db, requireAuth(request).user);
      return readRetention(db, config, scope, request.params.id);
    },
  );

  app.put(
    '/databases/:id/retention',
    {
      schema: {
        tags: ['records'],
        params,
        body: updateRetentionBodySchema,
        response: { 200: retentionResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db, requireAuth(request).user);
      return updateRetention(db, config, scope, request.params.id, request.body);
    },
  );
};

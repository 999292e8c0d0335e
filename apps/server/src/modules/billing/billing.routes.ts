import {
  billingSummaryBodySchema,
  billingSummaryResponseSchema,
} from '@mise/shared/billing/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { billingSummary } from './billing.service';

export const billingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/billing/summary',
    {
      schema: {
        tags: ['billing'],
        body: billingSummaryBodySchema,
        response: { 200: billingSummaryResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      return billingSummary(db, await scopeOf(request, db, user), request.body);
    },
  );
};

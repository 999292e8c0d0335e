import { idSchema } from '@mise/shared/auth/schemas';
import { recordsCheckpointResponseSchema } from '@mise/shared/records/checkpoints';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { findStoreInScope } from '../stores/stores.service';
import { latestCheckpoint } from './checkpoints';

/**
 * GET /api/stores/:id/records-checkpoint: the store's latest records seal (issue 21), read by
 * whoever sees the store (its page shows it); a store outside the caller's scope answers 404.
 */
export const recordsCheckpointRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/stores/:id/records-checkpoint',
    {
      schema: {
        tags: ['records'],
        params: z.strictObject({ id: idSchema }),
        response: { 200: recordsCheckpointResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db, requireAuth(request).user);
      const store = await findStoreInScope(db, scope, request.params.id);
      return { checkpoint: await latestCheckpoint(db, store.id) };
    },
  );
};

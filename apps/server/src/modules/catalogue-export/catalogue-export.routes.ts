import { copyBodySchema, copyResponseSchema } from '@mise/shared/catalogue/bulk';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { type ExportKind, idempotencyKeyOf, runExport } from './catalogue-export.service';

const tags = ['catalogue-export'];
/** Checked by the service, for a clear code ('export/idempotency-key-required'). */
const headers = z.object({ 'idempotency-key': z.string().optional() });

const calls: { path: string; kind: ExportKind; summary: string }[] = [
  {
    path: '/database/copyDatabaseElements',
    kind: 'database-elements',
    summary: 'Copies database elements into another database',
  },
  {
    path: '/database/copyDatabaseTaskConfs',
    kind: 'database-task-configurations',
    summary: 'Copies database task configurations into another database',
  },
  {
    path: '/stores/copyStoreElements',
    kind: 'store-elements',
    summary: 'Copies store elements into another store',
  },
  {
    path: '/stores/copyStoreTaskConfs',
    kind: 'store-task-configurations',
    summary: 'Copies store task configurations into another store',
  },
];

/**
 * The export (copy) calls of spec 001 §7 (issue 19): sourceId, targetId, objectIds and
 * copyAttachments, with an Idempotency-Key header; the answer lists what was created and
 * what was skipped, and why (packages/shared/src/catalogue/bulk.ts).
 */
export const catalogueExportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  for (const call of calls) {
    app.post(
      call.path,
      {
        schema: {
          tags,
          summary: call.summary,
          headers,
          body: copyBodySchema,
          response: { 200: copyResponseSchema },
        },
      },
      async (request) => {
        const { user } = requireAuth(request);
        const key = idempotencyKeyOf(request.headers['idempotency-key']);
        const scope = await scopeOf(request, db, user);
        return runExport(deps, scope, call.kind, request.body, key);
      },
    );
  }
};

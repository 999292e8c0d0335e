import { idSchema } from '@mise/shared/auth/schemas';
import {
  createFolderBodySchema,
  createVideoBodySchema,
  createVideoResponseSchema,
  documentResponseSchema,
  documentRootsResponseSchema,
  documentsPageSchema,
  listDocumentsQuerySchema,
  updateDocumentBodySchema,
} from '@mise/shared/documents/schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { sendStoredFile } from '../files/files.routes';
import { createHostedVideo } from './document-videos';
import * as documents from './documents.service';

const params = z.strictObject({ id: idSchema });
const tags = ['documents'];

/**
 * The document explorer (spec 002 §2 Documents; issue 17). Uploads go through /api/uploads;
 * with an outside video host, videos go to the host (POST /documents/videos).
 */
export const documentsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, storage, now } = deps;
  const caller = async (request: FastifyRequest) => {
    const { user } = requireAuth(request);
    return { user, scope: await scopeOf(request, db, user) };
  };

  app.get(
    '/documents/roots',
    { schema: { tags, response: { 200: documentRootsResponseSchema } } },
    async (request) => documents.listRoots(db, (await caller(request)).scope),
  );

  app.get(
    '/documents',
    {
      schema: {
        tags,
        querystring: listDocumentsQuerySchema,
        response: { 200: documentsPageSchema },
      },
      compress: {},
    },
    async (request) => documents.listFolder(db, (await caller(request)).scope, request.query),
  );

  app.post(
    '/documents/folders',
    { schema: { tags, body: createFolderBodySchema, response: { 200: documentResponseSchema } } },
    async (request) => {
      const { user, scope } = await caller(request);
      const name = `${user.name} ${user.surname}`.trim() || user.email;
      return documents.createFolder(db, scope, request.body, { id: user.id, name }, now());
    },
  );

  app.post(
    '/documents/videos',
    {
      schema: { tags, body: createVideoBodySchema, response: { 200: createVideoResponseSchema } },
    },
    async (request) => {
      const { user, scope } = await caller(request);
      const name = `${user.name} ${user.surname}`.trim() || user.email;
      const services = {
        videoHost: deps.integrations.videoHost,
        log: (details: Record<string, unknown>, message: string) =>
          request.log.warn(details, message),
      };
      return createHostedVideo(db, services, scope, request.body, { id: user.id, name }, now());
    },
  );

  app.patch(
    '/documents/:id',
    {
      schema: {
        tags,
        params,
        body: updateDocumentBodySchema,
        response: { 200: documentResponseSchema },
      },
    },
    async (request) =>
      documents.updateItem(
        db,
        (await caller(request)).scope,
        request.params.id,
        request.body,
        now(),
      ),
  );

  app.delete('/documents/:id', { schema: { tags, params } }, async (request, reply) => {
    const services = {
      storage,
      videoHost: deps.integrations.videoHost,
      log: (details: Record<string, unknown>, message: string) =>
        request.log.warn(details, message),
    };
    await documents.deleteItem(db, services, (await caller(request)).scope, request.params.id);
    return reply.code(204).send();
  });

  /**
   * The file: images, PDF and videos inline (their bytes were checked), others downloaded. A
   * video at an outside host is its download link there (a redirect, asked afresh each time).
   */
  app.get('/documents/:id/file', { schema: { tags, params } }, async (request, reply) => {
    const { row } = await documents.findItem(db, (await caller(request)).scope, request.params.id);
    if (row.type === 'file' && !row.storage_key && row.video_id) {
      const link = await deps.integrations.videoHost.downloadLink(row.video_id).catch(() => null);
      if (!link) throw new AppError('documents.video-host-failed');
      return reply.redirect(link, 302);
    }
    if (row.type !== 'file' || !row.storage_key) throw notFound();
    const contentType = row.content_type ?? 'application/octet-stream';
    const isInline = contentType !== 'application/octet-stream';
    const fileName = encodeURIComponent(row.name);
    return sendStoredFile(request, reply, storage, row.storage_key, {
      contentType,
      disposition: `${isInline ? 'inline' : 'attachment'}; filename*=UTF-8''${fileName}`,
    });
  });
};

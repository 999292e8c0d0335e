import { randomUUID } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import { maxAttachmentBytes } from '@mise/shared/catalogue/constants';
import {
  attachmentSchema,
  createDatabaseElementBodySchema,
  createStoreElementBodySchema,
  elementContextResponseSchema,
  elementResponseSchema,
  elementTypeBodySchema,
  elementTypeResponseSchema,
  expectedVersionQuerySchema,
  listElementsQuerySchema,
  listElementsResponseSchema,
  listElementTypesResponseSchema,
  pickStockImageBodySchema,
  renameAttachmentBodySchema,
  updateElementBodySchema,
} from '@mise/shared/catalogue/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { StockImagesError } from '../../platform/integrations/stock-images';
import { scopeOf } from '../../platform/scope';
import {
  detectImageType,
  maxImageBytes,
  readImageUpload,
  receiveAttachment,
} from '../files/uploads';
import { contentDisposition } from './attachments';
import { bulkElementsRoutes } from './bulk-elements.routes';
import * as duplicates from './duplicate-element';
import * as files from './element-files.service';
import * as types from './element-types.service';
import { extensionOf } from './element-values';
import * as elements from './elements.service';
import { plainJsonSerializer } from './plain-serializer';

const tags = ['elements'];
/** The element (its version moved) and the attachment just added at the end. */
const uploadAttachmentResponseSchema = elementResponseSchema.extend({
  attachment: attachmentSchema,
});
const params = z.strictObject({ id: idSchema });
const databaseParams = z.strictObject({ databaseId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });
const levels = [
  { level: 'database', path: 'databaseElements' },
  { level: 'store', path: 'storeElements' },
] as const;

/**
 * Catalogue (spec 001 §2.5, §3.2–3.4, §3.8): database and store elements, element types,
 * labels (saved with their element), attachments and pictures.
 */
export const elementsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);
  // Expert mode: GET/POST …/elements/bulk (bulk-elements.routes.ts), on this same instance.
  await bulkElementsRoutes(app, deps);
  const findWritable = (
    level: 'database' | 'store',
    scope: Awaited<ReturnType<typeof scopeFor>>,
    id: string,
  ) =>
    level === 'database'
      ? elements.findWritableDatabaseElement(db, scope, id)
      : elements.findStoreElement(db, scope, id, { isWrite: true });

  /* ---------- Database elements ---------- */

  app.get(
    '/databases/:databaseId/elements',
    {
      schema: {
        tags,
        params: databaseParams,
        querystring: listElementsQuerySchema,
        response: { 200: listElementsResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
    },
    async (request) => ({
      items: await elements.listDatabaseElements(
        db,
        await scopeFor(request),
        request.params.databaseId,
        request.query,
      ),
    }),
  );

  app.get(
    '/databases/:databaseId/elements/context',
    { schema: { tags, params: databaseParams, response: { 200: elementContextResponseSchema } } },
    async (request) =>
      elements.databaseElementContext(db, await scopeFor(request), request.params.databaseId),
  );

  app.get(
    '/stores/:storeId/elements/context',
    { schema: { tags, params: storeParams, response: { 200: elementContextResponseSchema } } },
    async (request) =>
      elements.storeElementContext(db, await scopeFor(request), request.params.storeId),
  );

  app.post(
    '/databases/:databaseId/elements',
    {
      schema: {
        tags,
        params: databaseParams,
        body: createDatabaseElementBodySchema,
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.createDatabaseElement(
        deps,
        scope,
        request.params.databaseId,
        request.body,
      );
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  app.get(
    '/databaseElements/:id',
    { schema: { tags, params, response: { 200: elementResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.findDatabaseElement(db, scope, request.params.id);
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  app.patch(
    '/databaseElements/:id',
    {
      schema: {
        tags,
        params,
        body: updateElementBodySchema,
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.updateDatabaseElement(
        deps,
        scope,
        request.params.id,
        request.body,
      );
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  /* ---------- Store elements ---------- */

  app.get(
    '/stores/:storeId/elements',
    {
      schema: {
        tags,
        params: storeParams,
        querystring: listElementsQuerySchema,
        response: { 200: listElementsResponseSchema },
      },
      serializerCompiler: plainJsonSerializer,
    },
    async (request) => ({
      items: await elements.listStoreElements(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.query,
      ),
    }),
  );

  app.post(
    '/stores/:storeId/elements',
    {
      schema: {
        tags,
        params: storeParams,
        body: createStoreElementBodySchema,
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.createStoreElement(
        deps,
        scope,
        request.params.storeId,
        request.body,
      );
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  app.get(
    '/stores/:storeId/elements/origin/:originId',
    {
      schema: {
        tags,
        params: z.strictObject({ storeId: idSchema, originId: idSchema }),
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => ({
      element: await elements.presentOriginForStore(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.params.originId,
      ),
    }),
  );

  app.get(
    '/storeElements/:id',
    { schema: { tags, params, response: { 200: elementResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.findStoreElement(db, scope, request.params.id);
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  app.patch(
    '/storeElements/:id',
    {
      schema: {
        tags,
        params,
        body: updateElementBodySchema,
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await elements.updateStoreElement(deps, scope, request.params.id, request.body);
      return { element: await elements.presentElement(db, scope, ref) };
    },
  );

  /* ---------- Both levels: duplicate, pictures, attachments ---------- */

  for (const { level, path } of levels) {
    app.post(
      `/${path}/:id/duplicate`,
      { schema: { tags, params, response: { 200: elementResponseSchema } } },
      async (request) => {
        const scope = await scopeFor(request);
        const ref =
          level === 'database'
            ? await duplicates.duplicateDatabaseElement(deps, scope, request.params.id)
            : await duplicates.duplicateStoreElement(deps, scope, request.params.id);
        return { element: await elements.presentElement(db, scope, ref) };
      },
    );

    for (const [suffix, kind] of [
      ['illustration', 'illustration'],
      ['allergenIllustration', 'allergen'],
    ] as const) {
      app.post(
        `/${path}/:id/${suffix}`,
        {
          schema: {
            tags,
            params,
            querystring: expectedVersionQuerySchema,
            consumes: ['multipart/form-data'],
            response: { 200: elementResponseSchema },
          },
        },
        async (request) => {
          const scope = await scopeFor(request);
          const { version } = request.query;
          // Scope, permission, lock and version first: nothing is stored for an element the
          // caller may not change or read in an older version.
          const ref = await findWritable(level, scope, request.params.id);
          elements.assertUnlocked(ref, [
            kind === 'illustration' ? 'illustration_url' : 'allergen_illustration_url',
          ]);
          elements.assertVersion(ref, version);
          const upload = await readImageUpload(request);
          const key = files.pictureKey(ref, kind, upload.extension);
          await deps.storage.put(key, upload.data);
          await files.setPicture(deps, ref, kind, key, version);
          return { element: await elements.reloadElement(db, scope, ref) };
        },
      );
    }

    app.post(
      `/${path}/:id/illustration/stock`,
      {
        schema: {
          tags,
          params,
          querystring: expectedVersionQuerySchema,
          body: pickStockImageBodySchema,
          response: { 200: elementResponseSchema },
        },
      },
      async (request) => {
        const scope = await scopeFor(request);
        const { version } = request.query;
        const ref = await findWritable(level, scope, request.params.id);
        elements.assertUnlocked(ref, ['illustration_url']);
        elements.assertVersion(ref, version);
        const stockImages = deps.integrations.stockImages;
        if (!stockImages.configured) throw new AppError('stock-images/not-configured');
        const image = await stockImages.download(request.body.url).catch((error: unknown) => {
          request.log.warn({ err: error }, 'stock image download failed');
          if (error instanceof StockImagesError && error.reason === 'refused') {
            throw new AppError('validation/invalid-input', 'This image cannot be used.', [
              { path: 'url', message: error.message },
            ]);
          }
          throw new AppError('stock-images/failed');
        });
        if (image.data.length > maxImageBytes) throw new AppError('file/too-large');
        const type = detectImageType(image.data);
        if (!type) throw new AppError('file/unsupported-type');
        const key = files.pictureKey(ref, 'illustration', type.extension);
        await deps.storage.put(key, image.data);
        await files.setPicture(deps, ref, 'illustration', key, version);
        return { element: await elements.reloadElement(db, scope, ref) };
      },
    );

    app.post(
      `/${path}/:id/attachments`,
      {
        schema: {
          tags,
          params,
          querystring: expectedVersionQuerySchema,
          consumes: ['multipart/form-data'],
          response: { 200: uploadAttachmentResponseSchema },
        },
      },
      async (request) => {
        const scope = await scopeFor(request);
        const { version } = request.query;
        const ref = await findWritable(level, scope, request.params.id);
        elements.assertUnlocked(ref, ['attachments']);
        elements.assertVersion(ref, version);
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > maxAttachmentBytes + 64 * 1024) throw new AppError('file/too-large');
        const id = randomUUID();
        const stored = await receiveAttachment(
          request,
          deps.storage,
          (extension) =>
            `${elements.ownerPrefix(ref)}/element_attachments/${ref.row.id}/${id}.${extension}`,
        );
        await files.addAttachment(deps, ref, { id, ...stored }, version);
        const element = await elements.reloadElement(db, scope, ref);
        const attachment = element.attachments.find((item) => item.id === id);
        if (!attachment) throw notFound();
        return { element, attachment };
      },
    );
  }

  app.patch(
    '/elementAttachments/:id',
    {
      schema: {
        tags,
        params,
        querystring: expectedVersionQuerySchema,
        body: renameAttachmentBodySchema,
        response: { 200: elementResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const ref = await files.renameAttachment(
        db,
        scope,
        request.params.id,
        request.body.name,
        request.query.version,
      );
      return { element: await elements.reloadElement(db, scope, ref) };
    },
  );

  app.get(
    '/elementAttachments/:id/download',
    { schema: { tags, params } },
    async (request, reply) => {
      const scope = await scopeFor(request);
      const attachment = await files.findReadableAttachment(db, scope, request.params.id);
      const file = await deps.storage.get(attachment.path);
      if (!file) throw notFound();
      return reply
        .header('content-type', attachment.content_type)
        .header('content-length', file.size)
        .header(
          'content-disposition',
          contentDisposition(attachment.name, extensionOf(attachment.path)),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .send(file.stream);
    },
  );

  /* ---------- Element types (spec 001 §3.3) ---------- */

  app.get(
    '/databases/:databaseId/elementTypes',
    { schema: { tags, params: databaseParams, response: { 200: listElementTypesResponseSchema } } },
    async (request) => ({
      items: await types.listDatabaseTypes(db, await scopeFor(request), request.params.databaseId),
    }),
  );

  app.post(
    '/databases/:databaseId/elementTypes',
    {
      schema: {
        tags,
        params: databaseParams,
        body: elementTypeBodySchema,
        response: { 200: elementTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.createDatabaseType(
        db,
        await scopeFor(request),
        request.params.databaseId,
        request.body.name,
      ),
    }),
  );

  app.get(
    '/stores/:storeId/elementTypes',
    { schema: { tags, params: storeParams, response: { 200: listElementTypesResponseSchema } } },
    async (request) => ({
      items: await types.listStoreTypes(db, await scopeFor(request), request.params.storeId),
    }),
  );

  app.post(
    '/stores/:storeId/elementTypes',
    {
      schema: {
        tags,
        params: storeParams,
        body: elementTypeBodySchema,
        response: { 200: elementTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.createStoreType(
        db,
        await scopeFor(request),
        request.params.storeId,
        request.body.name,
      ),
    }),
  );

  app.patch(
    '/elementTypes/:id',
    {
      schema: {
        tags,
        params,
        body: elementTypeBodySchema,
        response: { 200: elementTypeResponseSchema },
      },
    },
    async (request) => ({
      type: await types.renameType(
        db,
        await scopeFor(request),
        request.params.id,
        request.body.name,
      ),
    }),
  );
};

import { randomBytes } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import { mailLanguageOf } from '@mise/shared/organisation/invitation-mail';
import {
  addOwnerBodySchema,
  addOwnerResponseSchema,
  assignDatabaseBodySchema,
  createStoreBodySchema,
  listStoresQuerySchema,
  listStoresResponseSchema,
  storeResponseSchema,
  updateLicenceBodySchema,
  updateStoreBodySchema,
  withdrawInvitationBodySchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { readImageUpload } from '../files/uploads';
import * as storesService from './stores.service';

const tags = ['stores'];
const params = z.strictObject({ id: idSchema });
const okResponse = z.object({ status: z.literal('ok') });

export const storesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  /** Also the picker of the New-account dialog (its fields are a subset of the summary). */
  app.get(
    '/stores',
    {
      schema: {
        tags,
        querystring: listStoresQuerySchema,
        response: { 200: listStoresResponseSchema },
      },
    },
    async (request) => ({
      ...(await storesService.listStores(db, await scopeFor(request), request.query)),
    }),
  );

  app.post(
    '/stores',
    { schema: { tags, body: createStoreBodySchema, response: { 200: storeResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const created = await storesService.createStore(db, scope, request.body);
      return { store: await storesService.presentStore(db, scope, created.id) };
    },
  );

  app.post(
    '/stores/updateLicence',
    { schema: { tags, body: updateLicenceBodySchema, response: { 200: okResponse } } },
    async (request) => {
      const scope = await scopeFor(request);
      await storesService.updateLicence(
        db,
        scope,
        deps.integrations.licenceMonitoring,
        request.body.storeId,
        request.body.activated,
      );
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/stores/addOwner',
    { schema: { tags, body: addOwnerBodySchema, response: { 200: addOwnerResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      const status = await storesService.addOwner(
        {
          db,
          mailer: deps.mailer,
          publicUrl: deps.config.PUBLIC_URL,
          // The invitation mail speaks the adder's language (the invitee's is not known yet).
          language: mailLanguageOf(request.headers['accept-language']),
        },
        scope,
        request.body,
      );
      return { status };
    },
  );

  app.get(
    '/stores/:id',
    { schema: { tags, params, response: { 200: storeResponseSchema } } },
    async (request) => ({
      store: await storesService.presentStore(db, await scopeFor(request), request.params.id),
    }),
  );

  app.patch(
    '/stores/:id',
    {
      schema: { tags, params, body: updateStoreBodySchema, response: { 200: storeResponseSchema } },
    },
    async (request) => {
      const scope = await scopeFor(request);
      await storesService.updateStore(db, scope, request.params.id, request.body);
      return { store: await storesService.presentStore(db, scope, request.params.id) };
    },
  );

  app.post(
    '/stores/:id/database',
    {
      schema: {
        tags,
        params,
        body: assignDatabaseBodySchema,
        response: { 200: storeResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      await storesService.assignDatabase(db, scope, request.params.id, request.body.databaseId);
      return { store: await storesService.presentStore(db, scope, request.params.id) };
    },
  );

  app.post(
    '/stores/:id/invitations/withdraw',
    {
      schema: {
        tags,
        params,
        body: withdrawInvitationBodySchema,
        response: { 200: storeResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      await storesService.withdrawOwnerInvitation(db, scope, request.params.id, request.body.email);
      return { store: await storesService.presentStore(db, scope, request.params.id) };
    },
  );

  app.delete(
    '/stores/:id/owners/:userId',
    {
      schema: {
        tags,
        params: z.strictObject({ id: idSchema, userId: idSchema }),
        response: { 200: okResponse },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      await storesService.removeOwner(db, scope, request.params.id, request.params.userId);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/stores/:id/illustration',
    {
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 200: storeResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      // Scope and permission first: nothing is stored for a store the caller may not change.
      const store = await storesService.findEditableStore(db, scope, request.params.id);
      const image = await readImageUpload(request);
      const key = `stores/${store.id}/illustration-${randomBytes(8).toString('hex')}.${image.extension}`;
      await deps.storage.put(key, image.data);
      const { previousUrl } = await storesService.setIllustration(
        db,
        scope,
        store.id,
        `/api/files/${key}`,
      );
      if (previousUrl?.startsWith(`/api/files/stores/${store.id}/`)) {
        await deps.storage.delete(previousUrl.slice('/api/files/'.length)).catch(() => {});
      }
      return { store: await storesService.presentStore(db, scope, store.id) };
    },
  );
};

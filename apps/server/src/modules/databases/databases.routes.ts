import { randomBytes } from 'node:crypto';
import { idSchema } from '@mise/shared/auth/schemas';
import { mailLanguageOf } from '@mise/shared/organisation/invitation-mail';
import {
  addManagerBodySchema,
  addManagerResponseSchema,
  createDatabaseBodySchema,
  databaseResponseSchema,
  listDatabasesQuerySchema,
  listDatabasesResponseSchema,
  updateDatabaseBodySchema,
  withdrawInvitationBodySchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { readImageUpload } from '../files/uploads';
import * as databases from './databases.service';

const tags = ['databases'];
const params = z.strictObject({ id: idSchema });

export const databasesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/databases',
    {
      schema: {
        tags,
        querystring: listDatabasesQuerySchema,
        response: { 200: listDatabasesResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      return { items: await databases.listDatabases(db, scope, request.query) };
    },
  );

  app.post(
    '/databases',
    {
      schema: { tags, body: createDatabaseBodySchema, response: { 200: databaseResponseSchema } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await databases.createDatabase(db, scope, request.body);
      return { database: await databases.presentDatabase(db, scope, row) };
    },
  );

  app.get(
    '/databases/:id',
    { schema: { tags, params, response: { 200: databaseResponseSchema } } },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await databases.findDatabaseInScope(db, scope, request.params.id);
      return { database: await databases.presentDatabase(db, scope, row) };
    },
  );

  app.patch(
    '/databases/:id',
    {
      schema: {
        tags,
        params,
        body: updateDatabaseBodySchema,
        response: { 200: databaseResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await databases.updateDatabase(db, scope, request.params.id, request.body);
      return { database: await databases.presentDatabase(db, scope, row) };
    },
  );

  /** The spec's path (spec 000 §7), singular "database". */
  app.post(
    '/database/addManager',
    {
      schema: {
        tags,
        body: addManagerBodySchema,
        response: { 200: addManagerResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const status = await databases.addManager(
        {
          db,
          mailer: deps.mailer,
          publicUrl: deps.config.PUBLIC_URL,
          // The invitation mail speaks the adder's language (the invitee's is not known yet).
          language: mailLanguageOf(request.headers['accept-language']),
        },
        await scopeOf(request, db, user),
        request.body,
      );
      return { status };
    },
  );

  app.post(
    '/databases/:id/invitations/withdraw',
    {
      schema: {
        tags,
        params,
        body: withdrawInvitationBodySchema,
        response: { 200: databaseResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await databases.withdrawManagerInvitation(
        db,
        scope,
        request.params.id,
        request.body.email,
      );
      return { database: await databases.presentDatabase(db, scope, row) };
    },
  );

  app.delete(
    '/databases/:id/managers/:userId',
    {
      schema: {
        tags,
        params: z.strictObject({ id: idSchema, userId: idSchema }),
        response: { 200: databaseResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const row = await databases.removeManager(
        db,
        scope,
        request.params.id,
        request.params.userId,
      );
      return { database: await databases.presentDatabase(db, scope, row) };
    },
  );

  for (const image of ['illustration', 'screen-saver'] as const) {
    app.post(
      `/databases/:id/${image}`,
      {
        schema: {
          tags,
          params,
          consumes: ['multipart/form-data'],
          response: { 200: databaseResponseSchema },
        },
      },
      async (request) => {
        const { user } = requireAuth(request);
        const scope = await scopeOf(request, db, user);
        const id = request.params.id;
        // Scope and permission first: nothing is stored for a database the caller may not change.
        await databases.assertCanSetImage(db, scope, id);
        const upload = await readImageUpload(request);
        const key = `databases/${id}/${image}-${randomBytes(8).toString('hex')}.${upload.extension}`;
        await deps.storage.put(key, upload.data);
        const { database, previousUrl } = await databases.setImage(
          db,
          scope,
          id,
          image,
          `/api/files/${key}`,
        );
        if (previousUrl?.startsWith('/api/files/')) {
          await deps.storage.delete(previousUrl.slice('/api/files/'.length)).catch(() => {});
        }
        return { database: await databases.presentDatabase(db, scope, database) };
      },
    );
  }
};

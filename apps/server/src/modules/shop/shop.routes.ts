import { idSchema } from '@mise/shared/auth/schemas';
import {
  createShopOrderBodySchema,
  databaseShopResponseSchema,
  distributorShopResponseSchema,
  listShopOrdersQuerySchema,
  listShopOrdersResponseSchema,
  saveDatabaseShopBodySchema,
  saveDistributorShopBodySchema,
  saveShopItemPricesBodySchema,
  shopIllustrationResponseSchema,
  shopItemPricesResponseSchema,
  shopOrderResponseSchema,
  storeShopResponseSchema,
} from '@mise/shared/shop/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { requireActor, requireDevice } from '../device/device.routes';
import { readImageUpload } from '../files/uploads';
import * as shop from './shop.service';
import * as orders from './shop-orders.service';

const tags = ['shop'];
const params = z.strictObject({ id: idSchema });
const itemParams = z.strictObject({ id: idSchema, itemId: idSchema });
const storeParams = z.strictObject({ storeId: idSchema });

/**
 * The shop (spec 001 §2.3, §2.10, §3.12, §4, §7): the distributor's shop and its per-database
 * prices, the databases' shops, and a store's orders (issue 19). Contract and paths in
 * packages/shared/src/shop/schemas.ts.
 */
export const shopRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  /* ---------- Distributor shop ---------- */

  app.get(
    '/shop',
    { schema: { tags, response: { 200: distributorShopResponseSchema } } },
    async (request) => {
      const scope = await scopeFor(request);
      return { shop: await shop.getDistributorShop(db, scope, shop.ownDistributorId(scope)) };
    },
  );

  app.get(
    '/distributors/:id/shop',
    { schema: { tags, params, response: { 200: distributorShopResponseSchema } } },
    async (request) => ({
      shop: await shop.getDistributorShop(db, await scopeFor(request), request.params.id),
    }),
  );

  app.put(
    '/distributors/:id/shop',
    {
      schema: {
        tags,
        params,
        body: saveDistributorShopBodySchema,
        response: { 200: distributorShopResponseSchema },
      },
    },
    async (request) => ({
      shop: await shop.saveDistributorShop(
        deps,
        await scopeFor(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  /** A shop item's picture (PNG, JPEG or WebP, 5 MB) under distributors/{id}/shops/. */
  app.post(
    '/distributors/:id/shop/illustrations',
    {
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 200: shopIllustrationResponseSchema },
      },
    },
    async (request) => {
      // Scope and permission first: nothing is stored for a shop the caller may not change.
      const distributor = await shop.findShopDistributor(
        db,
        await scopeFor(request),
        request.params.id,
      );
      return shop.storeIllustration(deps.storage, distributor.id, await readImageUpload(request));
    },
  );

  app.get(
    '/distributors/:id/shop/items/:itemId/prices',
    { schema: { tags, params: itemParams, response: { 200: shopItemPricesResponseSchema } } },
    async (request) =>
      shop.getItemPrices(db, await scopeFor(request), request.params.id, request.params.itemId),
  );

  app.put(
    '/distributors/:id/shop/items/:itemId/prices',
    {
      schema: {
        tags,
        params: itemParams,
        body: saveShopItemPricesBodySchema,
        response: { 200: shopItemPricesResponseSchema },
      },
    },
    async (request) =>
      shop.saveItemPrices(
        db,
        await scopeFor(request),
        request.params.id,
        request.params.itemId,
        request.body,
      ),
  );

  app.get(
    '/distributors/:id/shop/orders',
    {
      schema: {
        tags,
        params,
        querystring: listShopOrdersQuerySchema,
        response: { 200: listShopOrdersResponseSchema },
      },
    },
    async (request) =>
      orders.listOrders(db, await scopeFor(request), request.params.id, request.query),
  );

  /* ---------- Database shop ---------- */

  app.get(
    '/databases/:id/shop',
    { schema: { tags, params, response: { 200: databaseShopResponseSchema } } },
    async (request) => ({
      shop: await shop.getDatabaseShop(db, await scopeFor(request), request.params.id),
    }),
  );

  app.put(
    '/databases/:id/shop',
    {
      schema: {
        tags,
        params,
        body: saveDatabaseShopBodySchema,
        response: { 200: databaseShopResponseSchema },
      },
    },
    async (request) => ({
      shop: await shop.saveDatabaseShop(
        deps,
        await scopeFor(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  /** A database copy's own picture, stored under its distributor's shop folder. */
  app.post(
    '/databases/:id/shop/illustrations',
    {
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 200: shopIllustrationResponseSchema },
      },
    },
    async (request) => {
      const distributorId = await shop.databaseShopDistributor(
        db,
        await scopeFor(request),
        request.params.id,
      );
      return shop.storeIllustration(deps.storage, distributorId, await readImageUpload(request));
    },
  );

  /* ---------- A store's shop and orders ---------- */

  app.get(
    '/stores/:storeId/shop',
    { schema: { tags, params: storeParams, response: { 200: storeShopResponseSchema } } },
    async (request) =>
      orders.backOfficeStoreShop(db, await scopeFor(request), request.params.storeId),
  );

  app.post(
    '/stores/:storeId/shop/orders',
    {
      schema: {
        tags,
        params: storeParams,
        body: createShopOrderBodySchema,
        response: { 200: shopOrderResponseSchema },
      },
    },
    async (request) => ({
      order: await orders.createBackOfficeOrder(
        deps,
        request.log,
        await scopeFor(request),
        request.params.storeId,
        request.body,
      ),
    }),
  );

  /** The store's orders (tablet and back-office), newest first: whoever sees the store. */
  app.get(
    '/stores/:storeId/shop/orders',
    {
      schema: {
        tags,
        params: storeParams,
        querystring: listShopOrdersQuerySchema,
        response: { 200: listShopOrdersResponseSchema },
      },
    },
    async (request) =>
      orders.listStoreOrders(db, await scopeFor(request), request.params.storeId, request.query),
  );

  /* ---------- Tablet ---------- */

  app.get(
    '/device/shop',
    { schema: { tags: ['device'], response: { 200: storeShopResponseSchema } } },
    async (request, reply) => {
      const device = requireDevice(request);
      reply.header('cache-control', 'no-store');
      return orders.deviceShop(db, device.storeId);
    },
  );

  /**
   * The identified employee orders for the device's store (idempotent by key); their role must
   * grant the shop.
   */
  app.post(
    '/device/shop/orders',
    {
      schema: {
        tags: ['device'],
        body: createShopOrderBodySchema,
        response: { 200: shopOrderResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(db, request);
      return { order: await orders.createDeviceOrder(deps, request.log, actor, request.body) };
    },
  );
};

import { idSchema } from '@mise/shared/auth/schemas';
import {
  deviceResponseSchema,
  listDevicesResponseSchema,
  pairingKeyResponseSchema,
  registerDeviceBodySchema,
  registerDeviceResponseSchema,
  updateDeviceBodySchema,
} from '@mise/shared/organisation/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { regeneratePairingKey } from '../stores/stores.service';
import * as devicesService from './devices.service';

const tags = ['devices'];
const params = z.strictObject({ id: idSchema });

export const devicesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const scopeFor = (request: Parameters<typeof requireAuth>[0]) =>
    scopeOf(request, db, requireAuth(request).user);

  app.get(
    '/stores/:id/devices',
    { schema: { tags, params, response: { 200: listDevicesResponseSchema } } },
    async (request) => ({
      items: await devicesService.listStoreDevices(db, await scopeFor(request), request.params.id),
    }),
  );

  app.post(
    '/stores/:id/pairing-key',
    { schema: { tags, params, response: { 200: pairingKeyResponseSchema } } },
    async (request, reply) => {
      const scope = await scopeFor(request);
      reply.header('cache-control', 'no-store');
      return { pairing_key: await regeneratePairingKey(db, scope, request.params.id) };
    },
  );

  /** A tablet pairs itself: no user session, throttled per address. */
  app.post(
    '/devices/register',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        body: registerDeviceBodySchema,
        response: { 200: registerDeviceResponseSchema },
      },
    },
    async (request, reply) => {
      const { device, token } = await devicesService.registerDevice(db, request.body);
      reply.header('cache-control', 'no-store');
      return { device: devicesService.presentDevice(device), token };
    },
  );

  /** The tablet checks its pairing with its device token. */
  app.get(
    '/devices/me',
    { schema: { tags, response: { 200: deviceResponseSchema } } },
    async (request) => {
      if (!request.device) throw new AppError('auth/unauthenticated');
      const device = await devicesService.findDevice(db, request.device.id);
      return { device: devicesService.presentDevice(device) };
    },
  );

  /**
   * The tablet reports what it runs (after an app or system update): app version, system
   * version, model. Not a setting: the version used by the back-office is not changed.
   */
  app.patch(
    '/devices/me',
    {
      schema: {
        tags,
        body: devicesService.reportDeviceBodySchema,
        response: { 200: deviceResponseSchema },
      },
    },
    async (request) => {
      if (!request.device) throw new AppError('auth/unauthenticated');
      const device = await devicesService.reportDevice(db, request.device.id, request.body);
      return { device: devicesService.presentDevice(device) };
    },
  );

  app.patch(
    '/devices/:id',
    {
      schema: {
        tags,
        params,
        body: updateDeviceBodySchema,
        response: { 200: deviceResponseSchema },
      },
    },
    async (request) => {
      const scope = await scopeFor(request);
      const device = await devicesService.updateDevice(db, scope, request.params.id, request.body);
      return { device: devicesService.presentDevice(device) };
    },
  );

  app.delete(
    '/devices/:id',
    { schema: { tags, params, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async (request) => {
      await devicesService.deleteDevice(db, await scopeFor(request), request.params.id);
      return { status: 'ok' as const };
    },
  );
};

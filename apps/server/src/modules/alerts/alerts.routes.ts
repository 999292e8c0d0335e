import {
  acknowledgeAlertBodySchema,
  alertListQuerySchema,
  alertListResponseSchema,
  alertParamsSchema,
  alertResponseSchema,
  pushKeyResponseSchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
  userLanguageBodySchema,
} from '@mise/shared/probes/alerts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/request-auth';
import type { AppDeps } from '../../platform/deps';
import { scopeOf } from '../../platform/scope';
import { requireActor, requireDevice } from '../device/device-auth';
import * as alerts from './alerts.service';

const tags = ['alerts'];

/**
 * Probe alerts (issue 15): the episodes of the stores a person sees, their acknowledgement
 * with a corrective action (back-office and tablet), Web Push subscriptions, the language
 * notifications are written in.
 */
export const alertsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, events, now } = deps;
  const published = (storeId: string, alertId: string) =>
    events.publish({ store_id: storeId, alert_id: alertId, kind: 'acknowledged' });

  app.get(
    '/alerts',
    {
      schema: {
        tags,
        querystring: alertListQuerySchema,
        response: { 200: alertListResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      return {
        items: await alerts.listAlerts(db, await scopeOf(request, db, user), request.query),
      };
    },
  );

  app.post(
    '/alerts/:alertId/acknowledge',
    {
      schema: {
        tags,
        params: alertParamsSchema,
        body: acknowledgeAlertBodySchema,
        response: { 200: alertResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const scope = await scopeOf(request, db, user);
      const alert = await alerts.acknowledgeAlert(
        db,
        request.params.alertId,
        request.body.correctiveAction,
        { kind: 'user', scope, userId: user.id },
        now(),
      );
      await published(alert.storeId, alert.id);
      return { alert };
    },
  );

  app.get(
    '/device/alerts',
    { schema: { tags, response: { 200: alertListResponseSchema } } },
    async (request) => {
      const device = requireDevice(request);
      return { items: await alerts.listDeviceAlerts(db, device.storeId, now()) };
    },
  );

  app.post(
    '/device/alerts/:alertId/acknowledge',
    {
      schema: {
        tags,
        params: alertParamsSchema,
        body: acknowledgeAlertBodySchema,
        response: { 200: alertResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireActor(db, request);
      const alert = await alerts.acknowledgeAlert(
        db,
        request.params.alertId,
        request.body.correctiveAction,
        { kind: 'employee', storeId: actor.storeId, employeeId: actor.employee.id },
        now(),
      );
      await published(alert.storeId, alert.id);
      return { alert };
    },
  );

  app.get(
    '/push/key',
    { schema: { tags, response: { 200: pushKeyResponseSchema } } },
    async () => ({
      publicKey: deps.push?.publicKey ?? null,
    }),
  );

  app.post(
    '/push/subscriptions',
    { schema: { tags, body: pushSubscriptionBodySchema } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      await alerts.saveSubscription(db, { userId: user.id }, request.body, user.language);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/push/subscriptions',
    { schema: { tags, body: pushUnsubscribeBodySchema } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      await alerts.deleteSubscription(db, user.id, request.body.endpoint);
      return reply.code(204).send();
    },
  );

  app.post(
    '/device/push/subscriptions',
    { schema: { tags, body: pushSubscriptionBodySchema } },
    async (request, reply) => {
      const device = requireDevice(request);
      const language = request.headers['accept-language']?.slice(0, 2) ?? null;
      await alerts.saveSubscription(db, { deviceId: device.id }, request.body, language);
      return reply.code(204).send();
    },
  );

  app.put(
    '/me/language',
    { schema: { tags, body: userLanguageBodySchema } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      await alerts.setUserLanguage(db, user.id, request.body.language);
      return reply.code(204).send();
    },
  );
};

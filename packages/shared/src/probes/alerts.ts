import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { type AlertKind, alertKinds, correctiveActionMaxLength } from './alert-rules';

/* ---------- Probe alerts (issue 15): the rules (alert-rules.ts) and the API contract ---------- */

export * from './alert-rules';

/* ---------- API contract ---------- */

export const alertEpisodeSchema = z.object({
  id: idSchema,
  kind: z.enum(alertKinds),
  probeId: idSchema,
  probeUID: z.string(),
  probeName: z.string(),
  storeId: idSchema,
  storeName: z.string(),
  /** The store element bound to the probe, if any. */
  elementName: z.string().nullable(),
  startedAt: z.string(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  minimumTemperature: z.number().nullable(),
  maximumTemperature: z.number().nullable(),
  delayMinutes: z.number().int(),
  worstValue: z.number().nullable(),
  lastValue: z.number().nullable(),
  escalationLevel: z.number().int(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
  correctiveAction: z.string().nullable(),
});
export type AlertEpisode = z.infer<typeof alertEpisodeSchema>;

export const alertListQuerySchema = z.strictObject({
  storeId: idSchema.optional(),
  probeUID: z.string().trim().min(1).max(100).optional(),
  /** open: not resolved or not acknowledged; all: every episode of the range. */
  state: z.enum(['open', 'all']).default('all'),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

export const alertListResponseSchema = z.object({ items: z.array(alertEpisodeSchema) });
export const alertParamsSchema = z.strictObject({ alertId: idSchema });

export const acknowledgeAlertBodySchema = z.strictObject({
  correctiveAction: z.string().trim().min(1).max(correctiveActionMaxLength),
});
export const alertResponseSchema = z.object({ alert: alertEpisodeSchema });

/** A Web Push subscription as PushSubscription.toJSON() gives it. */
export const pushSubscriptionBodySchema = z.object({
  endpoint: z.url().max(2000),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export const pushUnsubscribeBodySchema = z.strictObject({ endpoint: z.url().max(2000) });
export const pushKeyResponseSchema = z.object({ publicKey: z.string().nullable() });

/** PUT /api/me/language: the language e-mails and pushes reach this user in. */
export const userLanguageBodySchema = z.strictObject({
  language: z.enum(['fr', 'en', 'de', 'pl']),
});

/** Server-sent `event: alert` on /api/stores/:storeId/events, and the bus's alert payload. */
export const alertEventSchema = z.object({
  store_id: idSchema,
  alert_id: idSchema,
  kind: z.enum(['opened', 'resolved', 'acknowledged', 'escalated']),
});
export type AlertEvent = z.infer<typeof alertEventSchema>;

/** The JSON a Web Push message carries (the service workers show it as a notification). */
export type AlertPushPayload = {
  title: string;
  body: string;
  /** Where a click leads: the back-office home of the store, or the tablet. */
  url: string;
  alertId: string;
  storeId: string;
  kind: AlertKind;
};

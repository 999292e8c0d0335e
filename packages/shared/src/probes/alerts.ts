import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/* ---------- Probe alerts (issue 15): rules, the episode decision, the API contract ---------- */

/** Out of range must last this long before an episode opens (a delivery's open door does not page). */
export const defaultAlertDelayMinutes = 15;
export const alertDelayMinutesRange = { min: 0, max: 240 } as const;
/** A probe silent for this many posting intervals is offline. */
export const offlineIntervals = 2;
/** Battery below this percentage opens a low-battery episode. */
export const lowBatteryPercent = 20;
/** Minutes before an unacknowledged episode goes to the next level (per database). */
export const defaultEscalationMinutes = 30;
export const escalationMinutesRange = { min: 5, max: 1440 } as const;
/** 0 the store's owners, 1 the database's managers, 2 the distributor. */
export const lastEscalationLevel = 2;
export const correctiveActionMaxLength = 2000;

export const alertKinds = ['out_of_range', 'offline', 'low_battery'] as const;
export type AlertKind = (typeof alertKinds)[number];

/** Kinds that climb the escalation ladder; a low battery is told to the owners only. */
export function escalates(kind: AlertKind): boolean {
  return kind !== 'low_battery';
}

export type RangeRule = { minimum: number | null; maximum: number | null; delayMs: number };
export type AlertReading = { time: number; temperature: number };

/** How far a temperature lies outside the range (0 inside, or without bounds). */
export function deviation(temperature: number, rule: Pick<RangeRule, 'minimum' | 'maximum'>) {
  if (rule.maximum !== null && temperature > rule.maximum) return temperature - rule.maximum;
  if (rule.minimum !== null && temperature < rule.minimum) return rule.minimum - temperature;
  return 0;
}

export type RangeDecision =
  | { action: 'none' }
  | { action: 'open'; startedAt: number; worst: number; last: number }
  | { action: 'hold'; worst: number | null; last: number }
  | { action: 'resolve'; resolvedAt: number; last: number };

/**
 * The out-of-range decision for one probe at `now`, from its readings (ascending by time)
 * since at least `now − delay − 2 × interval`. The trailing run is the last readings that are
 * all out of range (or all in range). Without an open episode, one opens when the trailing
 * run is out of range and began at least `delay` ago (started at its first reading). An open
 * episode resolves when the trailing run is in range and began at least `delay` ago (resolved
 * at its first reading); otherwise it holds, whatever the values do meanwhile: flapping values
 * never open or close an episode more than once, and a gap of readings neither opens nor
 * resolves one (the last known state stands; the offline rule speaks for the silence).
 */
export function rangeDecision(
  readings: readonly AlertReading[],
  rule: RangeRule,
  now: number,
  isOpen: boolean,
): RangeDecision {
  const last = readings.at(-1);
  if (!last || (rule.minimum === null && rule.maximum === null)) {
    return isOpen && last
      ? { action: 'resolve', resolvedAt: last.time, last: last.temperature }
      : { action: 'none' };
  }
  const lastIsOut = deviation(last.temperature, rule) > 0;
  let runStart = last.time;
  let worst = lastIsOut ? last.temperature : null;
  for (let index = readings.length - 1; index >= 0; index -= 1) {
    const reading = readings[index] as AlertReading;
    const isOut = deviation(reading.temperature, rule) > 0;
    if (isOut !== lastIsOut) break;
    runStart = reading.time;
    if (
      isOut &&
      deviation(reading.temperature, rule) > deviation(worst ?? reading.temperature, rule)
    )
      worst = reading.temperature;
  }
  const sustained = now - runStart >= rule.delayMs;
  if (!isOpen) {
    return lastIsOut && sustained
      ? {
          action: 'open',
          startedAt: runStart,
          worst: worst ?? last.temperature,
          last: last.temperature,
        }
      : { action: 'none' };
  }
  if (!lastIsOut && sustained) {
    return { action: 'resolve', resolvedAt: runStart, last: last.temperature };
  }
  return { action: 'hold', worst, last: last.temperature };
}

/**
 * Offline: no reading for `offlineIntervals` posting intervals (a probe never heard from counts
 * from its registration). Resolves at the reading that broke the silence.
 */
export function isOffline(
  lastReadingAt: number | null,
  registeredAt: number,
  postingIntervalSeconds: number,
  now: number,
): boolean {
  const since = lastReadingAt ?? registeredAt;
  return now - since >= offlineIntervals * postingIntervalSeconds * 1000;
}

export function isLowBattery(batteryLevel: number | null): boolean {
  return batteryLevel !== null && batteryLevel < lowBatteryPercent;
}

/**
 * When an unacknowledged episode opened at `openedAt` reaches `level` (0 at opening, then one
 * level every `escalationMinutes`); null past the last level or for a kind that does not climb.
 */
export function escalationTime(
  kind: AlertKind,
  openedAt: number,
  level: number,
  escalationMinutes: number,
): number | null {
  if (level === 0) return openedAt;
  if (!escalates(kind) || level > lastEscalationLevel) return null;
  return openedAt + level * escalationMinutes * 60_000;
}

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

import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { alertDelayMinutesRange } from './alerts';
import { maxReadingsPerRequest, postingIntervalMinutesRange } from './constants';

/* ---------- Probes (spec 000 §3 Probe, §7 probes calls; issue 15) ---------- */

/** A probe's UID travels in paths (postUrl, edit, temperatures): letters, digits, . _ : - only. */
export const probeUidSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only');

export const probeUidParamsSchema = z.strictObject({ probeUID: probeUidSchema });
export const probeUidLowerParamsSchema = z.strictObject({ probeUid: probeUidSchema });
export const probeStoreParamsSchema = z.strictObject({ storeId: idSchema });

const temperature = z.number().min(-1000).max(1000);

/** The spec's Probe, with its working status computed at answer time. */
export const probeSchema = z.object({
  id: idSchema,
  probeUID: z.string(),
  active: z.boolean(),
  name: z.string(),
  batteryLevel: z.number().nullable(),
  maximumTemperature: z.number().nullable(),
  minimumTemperature: z.number().nullable(),
  criticalThreshold: z.number().nullable(),
  notifyTemperature: z.number().nullable(),
  /** Where the probe (or its hub) posts its readings. */
  postUrl: z.string(),
  /** Seconds (spec 000 §3); the screens enter and show minutes. */
  postingInterval: z.number().int(),
  pushNotification: z.boolean(),
  /** Minutes out of range before an alert opens (issue 15). */
  alertDelayMinutes: z.number().int(),
  /** The store element bound to the probe, with its range (the alerts' default range). */
  element: z
    .object({
      name: z.string(),
      minimumTemperature: z.number().nullable(),
      maximumTemperature: z.number().nullable(),
    })
    .nullable(),
  lastTemperature: z.number().nullable(),
  lastTemperatureTimestamp: z.string().nullable(),
  storeId: idSchema.nullable(),
  working: z.boolean(),
});
export type Probe = z.infer<typeof probeSchema>;
export type BoundElement = NonNullable<Probe['element']>;

export const probeListResponseSchema = z.object({ items: z.array(probeSchema) });

export const probeResponseSchema = z.object({ probe: probeSchema });

/** POST /api/probes (admin): registers a probe; the answer carries its secret, once. */
export const createProbeBodySchema = z.strictObject({
  probeUID: probeUidSchema,
  name: z.string().trim().min(1).max(100),
  storeId: idSchema.nullish(),
});

export const createProbeResponseSchema = z.object({
  probe: probeSchema,
  /** Bearer secret for the postUrl; shown once, stored as its SHA-256 only. */
  secret: z.string(),
});

/** POST /api/probes/edit/{probeUID}: postingInterval in minutes (stored in seconds). */
export const editProbeBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  maximumTemperature: temperature.nullable().optional(),
  minimumTemperature: temperature.nullable().optional(),
  postingInterval: z
    .number()
    .int()
    .min(postingIntervalMinutesRange.min)
    .max(postingIntervalMinutesRange.max)
    .optional(),
  active: z.boolean().optional(),
  pushNotification: z.boolean().optional(),
  alertDelayMinutes: z
    .number()
    .int()
    .min(alertDelayMinutesRange.min)
    .max(alertDelayMinutesRange.max)
    .optional(),
});
export type EditProbeBody = z.infer<typeof editProbeBodySchema>;

/**
 * One reading as a probe posts it. timestamp: ISO 8601 with an offset (`2026-11-24T08:00:00Z`),
 * like every instant of the API; bounds (future, age, temperature, battery) are checked by the
 * server with their own codes (rules.ts readingRefusal), not here.
 */
export const probeReadingInputSchema = z.strictObject({
  timestamp: z.iso.datetime({ offset: true }),
  temperature: z.number(),
  batteryLevel: z.number(),
});
export type ProbeReadingInput = z.infer<typeof probeReadingInputSchema>;

/** POST /api/probes/readings/{probeUid}: one reading, or {readings: [...]} (1 to 1,000). */
export const postReadingsBodySchema = z.union([
  probeReadingInputSchema,
  z.strictObject({
    readings: z.array(probeReadingInputSchema).min(1).max(maxReadingsPerRequest),
  }),
]);

export const postReadingsResponseSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
});

/** POST /api/probes/temperatures/{probeUID}: both ends included. */
export const probeTemperaturesBodySchema = z.strictObject({
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
});

/**
 * One point of a chart. Raw (bucketSeconds null): one reading, min = max = temperature,
 * count 1. Downsampled: a bucket starting at timestamp, temperature its average, min and max
 * its extremes, batteryLevel its lowest, count its readings.
 */
export const probeTemperaturePointSchema = z.object({
  timestamp: z.string(),
  temperature: z.number(),
  minTemperature: z.number(),
  maxTemperature: z.number(),
  batteryLevel: z.number().nullable(),
  count: z.number().int(),
});

export const probeTemperaturesResponseSchema = z.object({
  probeUID: z.string(),
  start: z.string(),
  end: z.string(),
  /** Width of the buckets in seconds, or null when the readings are answered one by one. */
  bucketSeconds: z.number().int().nullable(),
  readings: z.array(probeTemperaturePointSchema),
});

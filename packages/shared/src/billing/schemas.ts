import { z } from 'zod';
import { idSchema } from '../auth/schemas';

const day = z.iso.date();

/** POST /api/billing/summary (spec 000 §7): period as calendar days, both included. */
export const billingSummaryBodySchema = z
  .strictObject({
    period: z.strictObject({ start: day, end: day }),
    distributorId: idSchema.nullable().optional(),
  })
  .refine((body) => body.period.start <= body.period.end, {
    message: 'start must not be after end',
    path: ['period'],
  });

/** Longest billing period (docs/decisions.md): the service answers date-range-too-long past it. */
export const maxBillingPeriodDays = 366 * 5;

export const billedStoreSchema = z.object({
  id: idSchema,
  name: z.string(),
  cost: z.number(),
  maximumDevices: z.number().int(),
  licencePrice: z.number(),
  billedMonths: z.number().int(),
  licensedDays: z.number().int(),
});
export const billingSummaryResponseSchema = z.object({
  /** Keyed by distributor name (spec), each group with its stores. */
  billedStores: z.record(z.string(), z.array(billedStoreSchema)),
  distributors: z.array(
    z.object({ id: idSchema, name: z.string(), billing_cycle: z.number().int(), cost: z.number() }),
  ),
  total: z.number(),
});
export type BillingSummaryBody = z.infer<typeof billingSummaryBodySchema>;
export type BillingSummary = z.infer<typeof billingSummaryResponseSchema>;

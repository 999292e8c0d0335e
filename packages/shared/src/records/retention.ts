import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/*
 * Retention of records (issue 21; docs/decisions.md "Retention of records"). How long a
 * database keeps each type of record, in months, within a legal minimum; a daily job removes
 * what passed it and leaves a signed tombstone in the store's records chain.
 */

/** The record types a database sets a retention for. */
export const retentionRecordTypes = [
  'task_results',
  'punch_cards',
  'probe_readings',
  'audit_results',
  'documents',
] as const;
export type RetentionRecordType = (typeof retentionRecordTypes)[number];

/**
 * Per type: the legal minimum (months; a setting below it is refused, and the job never removes
 * a record younger than it, whatever is stored) and the documented default (null: kept until
 * someone deletes it).
 * - HACCP records (task results, probe readings, audit results): EU 852/2004 asks for records
 *   kept long enough to be checked, national guidance one to two years, hence 24 months.
 * - Punch cards: working-time records, 2 years in Germany (ArbZG §16), 1 year in France
 *   (D3171-16), the 3-year wage claim period after that: default 5 years. Polish employers keep
 *   employment records 10 years: set 120 there.
 * - Documents are the business's own files, not records of events: kept until deleted unless a
 *   database asks otherwise (then at least a year after their last change).
 */
export const retentionRules: Record<
  RetentionRecordType,
  { minimum: number; defaultMonths: number | null }
> = {
  task_results: { minimum: 24, defaultMonths: 36 },
  punch_cards: { minimum: 24, defaultMonths: 60 },
  probe_readings: { minimum: 24, defaultMonths: 36 },
  audit_results: { minimum: 24, defaultMonths: 60 },
  documents: { minimum: 12, defaultMonths: null },
};

/** The longest retention a database can set (20 years). */
export const maxRetentionMonths = 240;

/** The months a type is kept: the setting, else the default; never below the minimum. */
export function effectiveRetentionMonths(
  type: RetentionRecordType,
  setting: number | null | undefined,
  defaultMonths: number | null = retentionRules[type].defaultMonths,
): number | null {
  const months = setting ?? defaultMonths;
  if (months === null) return null;
  return Math.max(months, retentionRules[type].minimum);
}

/** The store day before which records of a type are removed: `months` before `today`. */
export function retentionCutoffDay(today: string, months: number): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const total = year * 12 + (month - 1) - months;
  const cutoffYear = Math.floor(total / 12);
  const cutoffMonth = total - cutoffYear * 12;
  // The same day of the month, or the month's last day (31 March minus one month: 28/29 Feb).
  const lastDay = new Date(Date.UTC(cutoffYear, cutoffMonth + 1, 0)).getUTCDate();
  return `${String(cutoffYear).padStart(4, '0')}-${String(cutoffMonth + 1).padStart(2, '0')}-${String(
    Math.min(day, lastDay),
  ).padStart(2, '0')}`;
}

const monthsField = z.number().int().min(1).max(maxRetentionMonths).nullable();

/** PUT /api/databases/:id/retention: the types to change (null: back to the default). */
export const updateRetentionBodySchema = z
  .strictObject(
    Object.fromEntries(retentionRecordTypes.map((type) => [type, monthsField.optional()])) as {
      [K in RetentionRecordType]: z.ZodOptional<typeof monthsField>;
    },
  )
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Give at least one record type.',
  });
export type UpdateRetentionBody = z.infer<typeof updateRetentionBodySchema>;

/** The first type of a body set below its minimum, if any (the server answers 400 for it). */
export function retentionBelowMinimum(body: UpdateRetentionBody): RetentionRecordType | null {
  for (const type of retentionRecordTypes) {
    const months = body[type];
    if (months !== undefined && months !== null && months < retentionRules[type].minimum) {
      return type;
    }
  }
  return null;
}

const retentionTypeSchema = z.object({
  /** The database's setting (null: the default). */
  months: z.number().int().nullable(),
  defaultMonths: z.number().int().nullable(),
  minimum: z.number().int(),
  /** What the job applies (null: kept until deleted). */
  effective: z.number().int().nullable(),
});

/** One removal the retention job made (a tombstone of a store's chain). */
export const retentionRemovalSchema = z.object({
  store_id: idSchema,
  store_name: z.string(),
  type: z.enum(retentionRecordTypes),
  /** Records of store days before this day were removed. */
  before: z.iso.date(),
  /** Rows removed (revisions included). */
  count: z.number().int(),
  at: z.string(),
});
export type RetentionRemoval = z.infer<typeof retentionRemovalSchema>;

/** GET and PUT /api/databases/:id/retention. */
export const retentionResponseSchema = z.object({
  database_id: idSchema,
  /** Whether the caller may change it (admin, the database's distributor or manager). */
  editable: z.boolean(),
  types: z.object(
    Object.fromEntries(retentionRecordTypes.map((type) => [type, retentionTypeSchema])) as {
      [K in RetentionRecordType]: typeof retentionTypeSchema;
    },
  ),
  updated_at: z.string().nullable(),
  /** The job's 20 latest removals in the database's stores, newest first. */
  removals: z.array(retentionRemovalSchema),
});
export type RetentionResponse = z.infer<typeof retentionResponseSchema>;

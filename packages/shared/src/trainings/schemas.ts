import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import {
  attachmentInputSchema,
  attachmentSchema,
  quizSchema,
  targetSchema,
} from '../communications/schemas';
import { trainingLanguages, trainingTypes } from './rules';

/*
 * The trainings API (spec 002 §2–§9, issue 18): trainings of the whole product (global), of a
 * distributor, of a database or of a store, made of sections with an attachment and a quiz;
 * read and answered by employees on the tablet; counted in the statistics.
 */

const instant = z.iso.datetime({ offset: true });
const day = z.iso.date();

export const trainingLimits = {
  nameMax: 200,
  sectionsMax: 50,
  sectionTitleMax: 150,
  categoryNameMax: 100,
} as const;

export const trainingSectionItemIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const trainingSectionInputSchema = z.strictObject({
  id: trainingSectionItemIdSchema,
  title: z.string().trim().min(1).max(trainingLimits.sectionTitleMax),
  attachment: attachmentInputSchema.nullable(),
  quiz: quizSchema,
});

export const trainingSectionSchema = trainingSectionInputSchema.extend({
  attachment: attachmentSchema.nullable(),
});
export type TrainingSection = z.infer<typeof trainingSectionSchema>;

export const trainingCategorySchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  type: z.enum(trainingTypes),
  source: z.string().nullable(),
});
export type TrainingCategory = z.infer<typeof trainingCategorySchema>;

export const trainingSummarySchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  active: z.boolean(),
  lang: z.enum(trainingLanguages),
  type: z.enum(trainingTypes),
  /** The owner: null (global), a distributor, a database or a store id. */
  source: idSchema.nullable(),
  required: z.boolean(),
  category: trainingCategorySchema.nullable(),
  section_count: z.number().int(),
  target_kind: z.enum(['everyone', 'stores', 'groups']),
  /** Spec 002 §6 edit rights for the caller. */
  can_edit: z.boolean(),
  created_by_name: z.string().nullable(),
  updated_at: instant,
});
export type TrainingSummary = z.infer<typeof trainingSummarySchema>;

export const trainingSchema = trainingSummarySchema.extend({
  sections: z.array(trainingSectionSchema),
  target: targetSchema,
  version: z.number().int(),
});
export type Training = z.infer<typeof trainingSchema>;

/**
 * Spec 002 §6: what the list loads. Admins: global trainings (no selection); distributors:
 * their distributor's, or a selected database's database trainings; managers: a selected
 * database's; customers: a selected store's.
 */
export const listTrainingsQuerySchema = z.strictObject({
  database_id: idSchema.optional(),
  store_id: idSchema.optional(),
  search: z.string().max(200).optional(),
  include_inactive: z.enum(['true', 'false']).optional(),
});

export const trainingsResponseSchema = z.strictObject({
  items: z.array(trainingSummarySchema),
  /** Whether New may create here (the caller's role and selection give a source). */
  can_create: z.boolean(),
});

export const trainingBodySchema = z.strictObject({
  name: z.string().trim().max(trainingLimits.nameMax),
  active: z.boolean(),
  lang: z.enum(trainingLanguages),
  required: z.boolean(),
  category_id: idSchema.nullable(),
  sections: z.array(trainingSectionInputSchema).min(1).max(trainingLimits.sectionsMax),
  target: targetSchema,
});
export type TrainingBody = z.infer<typeof trainingBodySchema>;

/** A creation names the selection the type and source come from (spec 002 §4). */
export const createTrainingBodySchema = trainingBodySchema.extend({
  database_id: idSchema.nullable().optional(),
  store_id: idSchema.nullable().optional(),
});

export const saveTrainingBodySchema = trainingBodySchema.extend({
  version: z.number().int().min(1),
});

export const trainingResponseSchema = z.strictObject({ training: trainingSchema });

/* ---------- Categories (spec 002 §3 training_categories) ---------- */

export const trainingCategoriesQuerySchema = z.strictObject({
  database_id: idSchema.optional(),
  store_id: idSchema.optional(),
});

export const trainingCategoriesResponseSchema = z.strictObject({
  items: z.array(trainingCategorySchema),
});

export const createTrainingCategoryBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(trainingLimits.categoryNameMax),
  database_id: idSchema.nullable().optional(),
  store_id: idSchema.nullable().optional(),
});

export const trainingCategoryResponseSchema = z.strictObject({
  category: trainingCategorySchema,
});

/* ---------- Statistics (spec 002 §2 Training statistics) ---------- */

export const trainingStatsSchema = z.strictObject({
  training: trainingSummarySchema,
  /** Employees with a completion (the spec's "customers trained"), in the caller's stores. */
  trained: z.number().int(),
  views_today: z.number().int(),
  median_time_spent: z.number().nullable(),
  target_employees: z.number().int(),
  percentage: z.number().int(),
  /** Completions per day over the last 10 days plus today. */
  per_day: z.array(z.strictObject({ day, completions: z.number().int() })),
});
export type TrainingStats = z.infer<typeof trainingStatsSchema>;

/* ---------- Home panel ---------- */

export const homeTrainingSchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  type: z.enum(trainingTypes),
  percentage: z.number().int(),
});

export const homeTrainingsQuerySchema = z.strictObject({
  database_id: idSchema,
  store_id: idSchema.optional(),
});

export const homeTrainingsResponseSchema = z.strictObject({
  items: z.array(homeTrainingSchema),
});

/* ---------- Tablet ---------- */

export const deviceTrainingSchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  lang: z.enum(trainingLanguages),
  type: z.enum(trainingTypes),
  required: z.boolean(),
  category: z.string().nullable(),
  sections: z.array(trainingSectionSchema),
  unread: z.boolean(),
  completed_at: instant.nullable(),
  skipped_count: z.number().int(),
});
export type DeviceTraining = z.infer<typeof deviceTrainingSchema>;

export const deviceTrainingsResponseSchema = z.strictObject({
  items: z.array(deviceTrainingSchema),
});

/** Same steps as a communication's; 'complete' carries every section's quiz answers. */
export const deviceTrainingResultBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  action: z.enum(['view', 'skip', 'complete']),
  time_spent: z.number().int().min(0).max(86_400),
  answers: z
    .record(
      trainingSectionItemIdSchema,
      z.record(z.string().max(64), z.array(z.string().max(64)).max(50)),
    )
    .optional(),
});
export type DeviceTrainingResultBody = z.infer<typeof deviceTrainingResultBodySchema>;

export const deviceTrainingResultResponseSchema = z.strictObject({
  training: deviceTrainingSchema,
});

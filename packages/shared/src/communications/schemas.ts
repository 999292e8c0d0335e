import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/*
 * The communications API (spec 002 §2–§9, issue 18): announcements of a database with an
 * attachment and an optional quiz, aimed at stores, store groups (tags) and employee roles;
 * read and answered by employees on the tablet; counted in the statistics.
 */

const instant = z.iso.datetime({ offset: true });
const day = z.iso.date();

/** Limits the spec leaves open (docs/decisions.md). */
export const communicationLimits = {
  nameMax: 200,
  questionsMax: 50,
  answersMax: 12,
  questionTextMax: 1000,
  answerTextMax: 500,
  targetStoresMax: 5000,
  targetTagsMax: 500,
  targetRolesMax: 200,
  attachmentNameMax: 255,
  /** Time spent reported by one tablet request (a day at most). */
  timeSpentMax: 86_400,
} as const;

/** Client-made ids of questions and answers: unique inside their quiz. */
export const quizItemIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const quizAnswerSchema = z.strictObject({
  id: quizItemIdSchema,
  text: z.string().trim().min(1).max(communicationLimits.answerTextMax),
  correct: z.boolean(),
});

export const quizQuestionSchema = z.strictObject({
  id: quizItemIdSchema,
  text: z.string().trim().min(1).max(communicationLimits.questionTextMax),
  answers: z.array(quizAnswerSchema).max(communicationLimits.answersMax),
});

export const quizSchema = z.strictObject({
  questions: z.array(quizQuestionSchema).max(communicationLimits.questionsMax),
});
export type Quiz = z.infer<typeof quizSchema>;

/** Spec 002 §3 Target. */
export const targetSchema = z.strictObject({
  stores: z.array(idSchema).max(communicationLimits.targetStoresMax),
  store_tags: z.array(idSchema).max(communicationLimits.targetTagsMax),
  employee_roles: z.array(idSchema).max(communicationLimits.targetRolesMax),
  store_tags_union: z.boolean(),
});
export type TargetInput = z.infer<typeof targetSchema>;

export const attachmentTypes = ['image', 'pdf', 'video', 'file'] as const;
export type CommunicationAttachmentType = (typeof attachmentTypes)[number];

/** An attachment as saved: the storage key comes from a finished upload's outcome. */
export const attachmentInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(communicationLimits.attachmentNameMax),
  path: z.string().min(1).max(1024),
});

/** An attachment as read: its kind (by the stored file's type) and where to fetch it. */
export const attachmentSchema = z.strictObject({
  name: z.string(),
  type: z.enum(attachmentTypes),
  path: z.string(),
  url: z.string(),
});
export type CommunicationAttachment = z.infer<typeof attachmentSchema>;

export const communicationStates = ['coming', 'running', 'passed'] as const;

export const communicationSummarySchema = z.strictObject({
  id: idSchema,
  database_id: idSchema,
  name: z.string(),
  active: z.boolean(),
  /** 00:00:00 of the first day and 23:59:59 of the last, in the database's zone. */
  start: instant,
  end: instant,
  start_day: day,
  end_day: day,
  time_zone: z.string(),
  state: z.enum(communicationStates),
  attachment: attachmentSchema.nullable(),
  question_count: z.number().int(),
  target_kind: z.enum(['everyone', 'stores', 'groups']),
  created_by_name: z.string().nullable(),
  updated_at: instant,
});
export type CommunicationSummary = z.infer<typeof communicationSummarySchema>;

export const communicationSchema = communicationSummarySchema.extend({
  quiz: quizSchema,
  target: targetSchema,
  version: z.number().int(),
});
export type Communication = z.infer<typeof communicationSchema>;

export const listCommunicationsQuerySchema = z.strictObject({
  search: z.string().max(200).optional(),
  include_inactive: z.enum(['true', 'false']).optional(),
});

export const communicationsResponseSchema = z.strictObject({
  items: z.array(communicationSummarySchema),
  /** Spec 002 §6: customers cannot create or edit, only read the statistics. */
  can_edit: z.boolean(),
});

/** A create or a save: the whole communication (a save also names the version it changes). */
export const communicationBodySchema = z.strictObject({
  name: z.string().trim().max(communicationLimits.nameMax),
  active: z.boolean(),
  start_day: day,
  end_day: day,
  attachment: attachmentInputSchema.nullable(),
  quiz: quizSchema,
  target: targetSchema,
});
export type CommunicationBody = z.infer<typeof communicationBodySchema>;

export const saveCommunicationBodySchema = communicationBodySchema.extend({
  version: z.number().int().min(1),
});

export const communicationResponseSchema = z.strictObject({
  communication: communicationSchema,
  can_edit: z.boolean(),
});

/* ---------- Statistics (spec 002 §2 Communication statistics) ---------- */

export const communicationStatsSchema = z.strictObject({
  communication: communicationSummarySchema,
  /** Results with a completion (the spec's views). */
  total_views: z.number().int(),
  /** Completions since 00:00 today in the database's zone. */
  views_today: z.number().int(),
  /** Median time spent of the completed results, seconds; null without any. */
  median_time_spent: z.number().nullable(),
  /** Active employees of the stores in the caller's reach who should see it. */
  target_employees: z.number().int(),
  /** Share of them who completed it, rounded (spec 002 §4). */
  percentage: z.number().int(),
  /** Completions per day from the start day to today or the end day, whichever is earlier. */
  per_day: z.array(z.strictObject({ day, views: z.number().int() })),
});
export type CommunicationStats = z.infer<typeof communicationStatsSchema>;

export const statsStoresQuerySchema = z.strictObject({
  search: z.string().max(200).optional(),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const statsStoreSchema = z.strictObject({
  store_id: idSchema,
  name: z.string(),
  address: z.string().nullable(),
  views: z.number().int(),
  target_employees: z.number().int(),
});

export const statsStoresResponseSchema = z.strictObject({
  items: z.array(statsStoreSchema),
  next_cursor: z.string().nullable(),
});

/** Spec 002 §2: employee full name, store name, completion date (or ?), time spent (or ?). */
export const statsStoreResultSchema = z.strictObject({
  employee_id: idSchema,
  employee_name: z.string(),
  store_name: z.string(),
  completed_at: instant.nullable(),
  time_spent: z.number().int().nullable(),
  skipped_count: z.number().int(),
});

export const statsStoreResultsResponseSchema = z.strictObject({
  items: z.array(statsStoreResultSchema),
});

/* ---------- Home panel (spec 000 Home) ---------- */

export const homeCommunicationSchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  start: instant,
  end: instant,
  /** The days as chosen (the database's zone), to show without a zone conversion. */
  start_day: day,
  end_day: day,
  percentage: z.number().int(),
});

export const homeCommunicationsQuerySchema = z.strictObject({ store_id: idSchema.optional() });

export const homeCommunicationsResponseSchema = z.strictObject({
  items: z.array(homeCommunicationSchema),
});

/* ---------- Tablet (device API) ---------- */

/** What the employee sees: the quiz with its correct flags (a wrong answer is shown at once). */
export const deviceCommunicationSchema = z.strictObject({
  id: idSchema,
  name: z.string(),
  start: instant,
  end: instant,
  attachment: attachmentSchema.nullable(),
  quiz: quizSchema,
  /** Never opened by this employee. */
  unread: z.boolean(),
  completed_at: instant.nullable(),
  skipped_count: z.number().int(),
});
export type DeviceCommunication = z.infer<typeof deviceCommunicationSchema>;

export const deviceCommunicationsResponseSchema = z.strictObject({
  items: z.array(deviceCommunicationSchema),
});

/**
 * One step of an employee's reading, sent through the tablet's outbox (a retry with the same
 * key is a no-op): 'view' adds the time spent reading, 'skip' puts it off for later,
 * 'complete' records the completion once (with the quiz's answers, which must all be right).
 */
export const deviceCommunicationResultBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  action: z.enum(['view', 'skip', 'complete']),
  time_spent: z.number().int().min(0).max(communicationLimits.timeSpentMax),
  answers: z.record(quizItemIdSchema, z.array(quizItemIdSchema).max(50)).optional(),
});
export type DeviceCommunicationResultBody = z.infer<typeof deviceCommunicationResultBodySchema>;

export const deviceCommunicationResultResponseSchema = z.strictObject({
  communication: deviceCommunicationSchema,
});

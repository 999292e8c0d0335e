import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { auditDefaults } from './scoring';

/*
 * The audits API (spec 002 §2–§9, issue 16): templates under a database, the results performed
 * in stores. A template's structure (sections, questions, choices) travels and is stored as one
 * document, as the spec's model has it; every save that changes it becomes a numbered version,
 * and a result keeps the version it was performed on, so an earlier result reads with the
 * questions its auditor saw.
 */

const instant = z.iso.datetime({ offset: true });
/** Client-made ids of sections, questions and choices: unique inside their audit. */
export const auditItemIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const auditFileExtensions = [
  'jpg',
  'png',
  'gif',
  'svg',
  'pdf',
  'txt',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'csv',
] as const;
export type AuditFileExtension = (typeof auditFileExtensions)[number];

export const ratingPrecisions = [1, 0.5, 0.1, 0.01] as const;
export const dateLimits = ['no_limit', 'only_future', 'only_past'] as const;
export type DateLimit = (typeof dateLimits)[number];

/** Limits the spec leaves open (docs/decisions.md). */
export const auditLimits = {
  nameMax: 200,
  sectionTitleMax: 500,
  questionTextMax: 2000,
  choiceTextMax: 500,
  maxSections: 200,
  maxQuestions: 5000,
  maxChoices: 100,
  maxConditions: 20,
  textAnswerMax: 100_000,
  commentMax: 5000,
  filesPerAnswer: 20,
  /** An answer file (25 MB): photos and office documents, not the documents area's 500 MB. */
  maxFileBytes: 25 * 1024 * 1024,
  scoreMax: 1_000_000,
  numberMax: 999_999_999,
} as const;

export const auditChoiceSchema = z.strictObject({
  id: auditItemIdSchema,
  text: z.string().max(auditLimits.choiceTextMax),
  score: z.number().finite(),
  archived_at: instant.nullable().default(null),
});
export type AuditChoice = z.infer<typeof auditChoiceSchema>;

export const auditConditionSchema = z.strictObject({
  question_id: auditItemIdSchema,
  value: z.boolean(),
});
export type AuditCondition = z.infer<typeof auditConditionSchema>;

const questionBase = {
  id: auditItemIdSchema,
  text: z.string().max(auditLimits.questionTextMax),
  /** null when scoring is off for the question. */
  score: z.number().finite().nullable(),
  required: z.boolean(),
  conditions: z.array(auditConditionSchema).max(auditLimits.maxConditions).default([]),
  archived_at: instant.nullable().default(null),
};

const choicesOptions = z.strictObject({
  multiple_selection: z.boolean(),
  choices: z.array(auditChoiceSchema).max(auditLimits.maxChoices),
});

export const auditQuestionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...questionBase,
    type: z.literal('text_input'),
    /** null = unlimited. */
    options: z.strictObject({ max_characters: z.number().int().nullable() }),
  }),
  z.strictObject({ ...questionBase, type: z.literal('multiple_choice'), options: choicesOptions }),
  z.strictObject({ ...questionBase, type: z.literal('yes_or_no'), options: choicesOptions }),
  z.strictObject({
    ...questionBase,
    type: z.literal('file_upload'),
    options: z.strictObject({ file_extensions: z.array(z.enum(auditFileExtensions)).max(13) }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('rating'),
    options: z.strictObject({
      min_rating: z.number().finite(),
      max_rating: z.number().finite(),
      precision: z.number().finite(),
    }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('number'),
    options: z.strictObject({
      min_number: z.number().finite(),
      max_number: z.number().finite(),
    }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('date'),
    options: z.strictObject({ date_limit: z.enum(dateLimits) }),
  }),
]);
export type AuditQuestion = z.infer<typeof auditQuestionSchema>;
export type AuditQuestionOf<T extends AuditQuestion['type']> = Extract<AuditQuestion, { type: T }>;

export const auditSectionSchema = z.strictObject({
  id: auditItemIdSchema,
  title: z.string().max(auditLimits.sectionTitleMax),
  questions: z.array(auditQuestionSchema).max(auditLimits.maxQuestions),
  archived_at: instant.nullable().default(null),
});
export type AuditSection = z.infer<typeof auditSectionSchema>;

export const auditSectionsSchema = z.array(auditSectionSchema).max(auditLimits.maxSections);

/** A card of the auditing list (spec 002 §2). */
export const auditSummarySchema = z.strictObject({
  id: idSchema,
  database_id: idSchema,
  name: z.string(),
  active: z.boolean(),
  self_evaluation: z.boolean(),
  published: z.boolean(),
  publishing_date: instant.nullable(),
  creation_date: instant,
  /** Live (not archived) sections and questions. */
  section_count: z.number().int(),
  question_count: z.number().int(),
});
export type AuditSummary = z.infer<typeof auditSummarySchema>;

export const auditSchema = auditSummarySchema.extend({
  updated_at: instant,
  /** Sent back on save: a stale one answers 409 'conflict/stale-version'. */
  version: z.number().int(),
  /** The structure's version number results pin. */
  structure_version: z.number().int(),
  sections: auditSectionsSchema,
  /** Whether any result exists (the builder then warns that removals only archive). */
  result_count: z.number().int(),
});
export type Audit = z.infer<typeof auditSchema>;

export const listAuditsQuerySchema = z.strictObject({
  search: z.string().max(200).optional(),
  include_inactive: z.enum(['true', 'false']).optional(),
});

export const auditsResponseSchema = z.strictObject({
  items: z.array(auditSummarySchema),
  /** The caller may create audits here (manager, admin, distributor). */
  can_create: z.boolean(),
  /** The caller may read results (admin and manager). */
  can_read_results: z.boolean(),
});

export const createAuditBodySchema = z.strictObject({
  name: z.string().max(auditLimits.nameMax),
  active: z.boolean().default(true),
  self_evaluation: z.boolean().default(false),
  sections: auditSectionsSchema.default([]),
});

export const saveAuditBodySchema = z.strictObject({
  version: z.number().int(),
  name: z.string().max(auditLimits.nameMax),
  active: z.boolean(),
  self_evaluation: z.boolean(),
  published: z.boolean(),
  sections: auditSectionsSchema,
});
export type SaveAuditBody = z.infer<typeof saveAuditBodySchema>;

export const auditResponseSchema = z.strictObject({ audit: auditSchema });

/* ---------------------------------------------------------------- results and answers */

/** One answer (spec 002 §3): the fields its question's type uses, a comment, server time. */
export const auditAnswerInputSchema = z.strictObject({
  question_id: auditItemIdSchema,
  /** Chosen choice ids (multiple_choice; yes_or_no may send answer_yes instead). */
  choices: z.array(auditItemIdSchema).max(auditLimits.maxChoices).nullable().optional(),
  answer_yes: z.boolean().nullable().optional(),
  text: z.string().max(auditLimits.textAnswerMax).nullable().optional(),
  /** Keys answered by the file upload call, in order. */
  file_urls: z.array(z.string().max(500)).max(auditLimits.filesPerAnswer).nullable().optional(),
  rating: z.number().finite().nullable().optional(),
  number: z.number().finite().nullable().optional(),
  /** A calendar day, YYYY-MM-DD. */
  date: z.iso.date().nullable().optional(),
  comment: z.string().max(auditLimits.commentMax).nullable().optional(),
});
export type AuditAnswerInput = z.infer<typeof auditAnswerInputSchema>;

export const auditAnswerSchema = auditAnswerInputSchema.extend({
  type: z.enum([
    'text_input',
    'multiple_choice',
    'yes_or_no',
    'file_upload',
    'rating',
    'number',
    'date',
  ]),
  /** Server time of the answer's last change. */
  timestamp: instant,
  /** What the answer earns (null when the question is not scored); set on submission. */
  score: z.number().nullable(),
});
export type AuditAnswer = z.infer<typeof auditAnswerSchema>;

export const auditResultStatuses = ['in_progress', 'submitted'] as const;

export const auditorSchema = z.strictObject({
  kind: z.enum(['user', 'employee']),
  id: idSchema,
  name: z.string(),
});

export const sectionScoreSchema = z.strictObject({
  section_id: auditItemIdSchema,
  score: z.number(),
  max_score: z.number(),
});

export const auditResultSummarySchema = z.strictObject({
  id: idSchema,
  audit_id: idSchema,
  database_id: idSchema,
  store: z.strictObject({ id: idSchema, name: z.string() }),
  auditor: auditorSchema,
  status: z.enum(auditResultStatuses),
  start_date: instant,
  end_date: instant.nullable(),
  /** Earned and possible points over the visible scored questions; null before submission. */
  score: z.number().nullable(),
  max_score: z.number().nullable(),
  /** Whether the PDF is already stored (otherwise POST /api/pdf/audit renders it once). */
  has_pdf: z.boolean(),
  /** The spec's path of the result, as POST /api/pdf/audit takes it. */
  path: z.string(),
  answered_count: z.number().int(),
});
export type AuditResultSummary = z.infer<typeof auditResultSummarySchema>;

export const auditResultSchema = auditResultSummarySchema.extend({
  audit_name: z.string(),
  /** The structure the result was performed on (its version), archived items included. */
  structure_version: z.number().int(),
  sections: auditSectionsSchema,
  answers: z.array(auditAnswerSchema),
  section_scores: z.array(sectionScoreSchema),
  /** Grows with each save (answers replace per question; no version is sent back). */
  version: z.number().int(),
});
export type AuditResult = z.infer<typeof auditResultSchema>;

export const auditResultsResponseSchema = z.strictObject({
  items: z.array(auditResultSummarySchema),
});

export const auditResultResponseSchema = z.strictObject({ result: auditResultSchema });

/** Start (or resume) performing an audit for a store. */
export const startAuditResultBodySchema = z.strictObject({ store_id: idSchema });

/** Save answers as the auditor goes: each replaces that question's answer. */
export const saveAnswersBodySchema = z.strictObject({
  answers: z.array(auditAnswerInputSchema).min(1).max(auditLimits.maxQuestions),
});

export const auditFileResponseSchema = z.strictObject({
  /** What to put in the answer's file_urls (a /api/files/... address). */
  url: z.string(),
  name: z.string(),
});

/** POST /api/pdf/audit (spec 002 §7). */
export const auditPdfBodySchema = z.strictObject({
  auditResultPath: z.string().max(300),
  /** The language of a PDF rendered now (a stored one is sent as it is). */
  lang: z.enum(['fr', 'en', 'de', 'pl']).optional(),
});
export const auditPdfResponseSchema = z.strictObject({ url: z.string() });

/** Results chosen for the CSV, comma-separated ids. */
export const auditCsvQuerySchema = z.strictObject({
  ids: z
    .string()
    .min(36)
    .max(37 * 500),
  /** The reader's language for headers and yes/no (default: the account's, else English). */
  lang: z.enum(['fr', 'en', 'de', 'pl']).optional(),
});

/** Home audits panel (spec 000 §2): published audits of a database, share of stores done. */
export const auditsHomeResponseSchema = z.strictObject({
  items: z.array(
    z.strictObject({
      id: idSchema,
      name: z.string(),
      publishing_date: instant.nullable(),
      /** Stores of the database with at least one submitted result, and their share in %. */
      stores_done: z.number().int(),
      store_count: z.number().int(),
      done_percentage: z.number(),
    }),
  ),
});

/** The caller's results in progress (to resume), newest first. */
export const inProgressQuerySchema = z.strictObject({ audit_id: idSchema.optional() });

/** Tablet: self-evaluation audits of the store, with its result in progress if any. */
export const deviceAuditsResponseSchema = z.strictObject({
  items: z.array(
    auditSummarySchema.extend({
      in_progress_result_id: idSchema.nullable(),
      last_submitted_at: instant.nullable(),
    }),
  ),
});

export { auditDefaults };

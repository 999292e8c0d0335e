import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import {
  featureKeys,
  maxEmployeesPerStore,
  maxRolesPerDatabase,
  maxTagsPerDatabase,
} from './constants';

/*
 * People API contract (spec 001 §2.2, §2.4, §2.11, §3.9–§3.11, §5; spec 000 §2, §3, §4, §5, §9).
 *
 * Employee roles:  GET/PUT /api/databases/:databaseId/employeeRoles          (save writes all)
 * Store tags:      GET/PUT /api/databases/:databaseId/storeTags              (save writes all)
 * Employees:       GET/PUT /api/stores/:storeId/employees?includeInactive=   (save writes all)
 *                  PUT /api/stores/:storeId/employees/:employeeId/secret     {pin} | {pattern}
 *                  POST /api/stores/:storeId/employees/:employeeId/illustration (multipart)
 *                  (the PUTs answer their GET's shape; secret and picture bump the version)
 * Punch cards:     GET/PUT /api/stores/:storeId/punchCards?start&end
 *                  POST /api/pdf/punch_cards {storeId, start, end}           application/pdf
 * Schedule:        GET /api/stores/:storeId/schedule?day=                    (home panel)
 * Device:          POST /api/device/selfies (multipart), POST /api/device/punches
 */

export const featureKeySchema = z.enum(featureKeys);
const day = z.iso.date();
const instant = z.iso.datetime({ offset: true });
const name = z.string().trim().max(120);

/* ---------- Employee roles (spec 001 §2.4, §3.10) ---------- */

export const employeeRoleSchema = z.object({
  id: idSchema,
  database_id: idSchema,
  name: z.string(),
  active: z.boolean(),
  /** Granted features (extensions and modules), keyed by name. */
  features_permissions: z.partialRecord(featureKeySchema, z.boolean()),
});
export type EmployeeRole = z.infer<typeof employeeRoleSchema>;
export const employeeRolesResponseSchema = z.object({
  items: z.array(employeeRoleSchema),
  /** Features the database does not hide: the only ones a role may grant. */
  available_features: z.array(featureKeySchema),
  editable: z.boolean(),
});
/**
 * Save writes every role given (new ones without id). Name required
 * ('employee-role/invalid-name'); a feature the database hides is refused
 * ('employee-role/hidden-feature'); an id of another database → 404.
 */
export const saveEmployeeRolesBodySchema = z.strictObject({
  roles: z
    .array(
      z.strictObject({
        id: idSchema.optional(),
        name,
        active: z.boolean(),
        features_permissions: z.partialRecord(featureKeySchema, z.boolean()),
      }),
    )
    .max(maxRolesPerDatabase),
});

/* ---------- Store tags (spec 001 §2.2, §3.9) ---------- */

export const storeTagSchema = z.object({
  id: idSchema,
  name: z.string(),
  active: z.boolean(),
  store_ids: z.array(idSchema),
});
export type StoreTag = z.infer<typeof storeTagSchema>;
export const storeTagsResponseSchema = z.object({
  items: z.array(storeTagSchema),
  /** The database's stores, for the two lists of the editor. */
  stores: z.array(z.object({ id: idSchema, name: z.string(), city: z.string() })),
  editable: z.boolean(),
});
/**
 * Save writes every tag given. Names required ('store-tag/invalid-name') and unique among
 * active tags, ignoring case ('store-tag/duplicate-name': 'Deux tags ne peuvent pas avoir le
 * même nom'); store ids must be stores of the database ('store-tag/unknown-store'). A removed
 * tag is sent with active false (it is never deleted).
 */
export const saveStoreTagsBodySchema = z.strictObject({
  tags: z
    .array(
      z.strictObject({
        id: idSchema.optional(),
        name,
        active: z.boolean(),
        store_ids: z.array(idSchema).max(5000),
      }),
    )
    .max(maxTagsPerDatabase),
});

/* ---------- Employees (spec 001 §2.11, §3.11) ---------- */

export const employeeSchema = z.object({
  id: idSchema,
  name: z.string(),
  surname: z.string(),
  role_id: idSchema.nullable(),
  role_name: z.string().nullable(),
  active: z.boolean(),
  illustration_url: z.string().nullable(),
  /** true: a 4-digit PIN; false: a pattern. */
  using_password: z.boolean(),
  /** Whether a PIN or pattern is set (never the secret itself). */
  has_secret: z.boolean(),
  /** Spec 000 Employee: the communications this employee completed (oldest first). */
  completed_communications: z.array(idSchema),
  version: z.number().int(),
});
export type Employee = z.infer<typeof employeeSchema>;
export const listEmployeesQuerySchema = z.strictObject({
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export const employeesResponseSchema = z.object({
  items: z.array(employeeSchema),
  /** Active roles of the store's database, for the role dropdown. */
  roles: z.array(employeeRoleSchema),
  editable: z.boolean(),
});
/**
 * Save writes every employee given (new ones without id, linked to the store and its
 * database). When the database has active roles, each active employee needs one
 * ('employee/select-role': "Veuillez selectionner un role d'employé pour chaque employé.");
 * a role of another database is refused ('employee/unknown-role'); a stale version → 409.
 */
export const saveEmployeesBodySchema = z.strictObject({
  employees: z
    .array(
      z.strictObject({
        id: idSchema.optional(),
        version: z.number().int().min(0).optional(),
        name,
        surname: name,
        role_id: idSchema.nullable(),
        active: z.boolean(),
      }),
    )
    .max(maxEmployeesPerStore),
});
/** PIN exactly 4 digits ('employee/invalid-pin') or a pattern of 3+ distinct points 0–8 ('employee/pattern-too-short'). */
export const employeeSecretBodySchema = z.union([
  z.strictObject({ pin: z.string().max(20) }),
  z.strictObject({ pattern: z.array(z.number().int()).max(9) }),
]);
export const employeeResponseSchema = z.object({ employee: employeeSchema });

/* ---------- Punch cards (spec 000 §2, §3, §4) ---------- */

export const punchEntrySchema = z.object({
  id: idSchema,
  employee_id: idSchema,
  is_in: z.boolean(),
  /** When the employee clocked (never changed). */
  timestamp: z.string(),
  /** A manager's correction; wins over `timestamp` when present. */
  timestamp_modified: z.string().nullable(),
  /** The store's calendar day of the effective time. */
  day: day,
  source: z.enum(['device', 'back-office']),
  selfie_url: z.string().nullable(),
  /**
   * The incoherence flag (spec 000 §3): set when a tablet clocked the same way twice in a row
   * (or out first), cleared once a save makes the employee's entries alternate. The screens
   * recompute it from the entries (flagIncoherences) as they are edited.
   */
  incoherent: z.boolean(),
  version: z.number().int(),
});
export type PunchEntry = z.infer<typeof punchEntrySchema>;

export const punchRangeQuerySchema = z.strictObject({ start: day, end: day });
export const punchCardsResponseSchema = z.object({
  store: z.object({ id: idSchema, name: z.string(), timezone_name: z.string() }),
  start: day,
  end: day,
  /** Active employees of the store (the table's rows). */
  employees: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      surname: z.string(),
      role_name: z.string().nullable(),
    }),
  ),
  entries: z.array(punchEntrySchema),
  editable: z.boolean(),
  /** When this answer was read: sent back as the save's `loaded_at`. */
  loaded_at: z.string(),
});
export type PunchCards = z.infer<typeof punchCardsResponseSchema>;

/**
 * Save of a range: the complete set of entries of the range. Existing entries (with id and
 * version) may only change `timestamp_modified`; new ones carry `timestamp`; entries of the
 * range not sent are deleted. Every change is kept as a revision (who, from what, to what).
 * Refused when any employee's entries are incoherent ('punch-card/incoherent': "There is an
 * incoherence in the punch cards. Please fix it before saving."), nothing written; a stale
 * version → 409; at most 62 days ('date-range-too-long').
 */
export const savePunchCardsBodySchema = z.strictObject({
  start: day,
  end: day,
  /**
   * The `loaded_at` of the GET the screen edited: an entry created since (a tablet clocked in
   * meanwhile) and not sent answers 409 instead of being deleted unseen.
   */
  loaded_at: instant.optional(),
  entries: z
    .array(
      z.strictObject({
        id: idSchema.optional(),
        version: z.number().int().min(0).optional(),
        employee_id: idSchema,
        is_in: z.boolean(),
        timestamp: instant.optional(),
        timestamp_modified: instant.nullable().optional(),
      }),
    )
    .max(20_000),
});
export type SavePunchCardsBody = z.infer<typeof savePunchCardsBodySchema>;

export const punchCardsPdfBodySchema = z.strictObject({
  storeId: idSchema,
  start: day,
  end: day,
  lang: z.enum(['fr', 'en', 'de', 'pl']).optional(),
});

/* ---------- Home: today's employee schedule (spec 000 §2) ---------- */

export const scheduleQuerySchema = z.strictObject({ day: day.optional() });
export const scheduleResponseSchema = z.object({
  day,
  items: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      surname: z.string(),
      role_name: z.string().nullable(),
      entries: z.array(
        z.object({
          id: idSchema,
          is_in: z.boolean(),
          time: z.string(),
          selfie_url: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type Schedule = z.infer<typeof scheduleResponseSchema>;

/* ---------- Device: clocking in and out ---------- */

/** POST /api/device/punches (device token + employee token); a retry with the same key applies once. */
export const devicePunchBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  is_in: z.boolean(),
  /** A selfie stored with POST /api/device/selfies. */
  selfie_path: z.string().max(500).nullable().optional(),
  /**
   * When the employee clocked, on the tablet's clock: with the request's `x-sent-at`, a punch
   * made offline keeps the time it was made (within lateDeliveryGraceHours), not its arrival.
   */
  clocked_timestamp: z.iso.datetime({ offset: true }).optional(),
});
export const devicePunchResponseSchema = z.object({ entry: punchEntrySchema });
export const selfieUploadResponseSchema = z.object({ path: z.string(), url: z.string() });
/**
 * GET /api/device/punches/last (device token + employee token): the identified employee's
 * latest entry in the device's store (effective time, as the coherence check orders them), or
 * null. The tablet proposes the next entry from it (in after an exit or nothing, else out).
 */
export const lastPunchResponseSchema = z.object({ entry: punchEntrySchema.nullable() });
export type LastPunchResponse = z.infer<typeof lastPunchResponseSchema>;

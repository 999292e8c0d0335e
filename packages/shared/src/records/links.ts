import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { historyFilters, historyMaxPageSize, historyPageSize } from '../history/constants';
import { rangeDays, validateHistoryRange } from '../history/rules';
import { historyStoreSchema, historyTaskSchema } from '../history/schemas';
import { taskModuleSchema } from '../tasks/schemas';

/*
 * Read-only inspector links (issue 21): whoever may read a store's history gives an inspector a
 * link to that store's history, task details and inspector pack over one period, expiring
 * within 7 days, revocable, every use logged. The secret travels in the URL's fragment
 * (`/inspect#<token>`: browsers never send a fragment, so no server log keeps it) and the
 * inspector page sends it in the `Authorization: Inspector <token>` header.
 *
 * Owner side:
 *   POST   /api/stores/:storeId/inspector-links {label, period_start, period_end, expires_in_days}
 *          → { link, url } (the URL with the token: the only time it is ever shown)
 *   GET    /api/stores/:storeId/inspector-links              → { items } (no token)
 *   DELETE /api/stores/:storeId/inspector-links/:id          → { link } (revoked)
 * Inspector side (Authorization: Inspector <token>; an unknown, expired or revoked link → 401
 * 'inspector/link-invalid'; anything outside the store and period → 404):
 *   GET /api/inspect                                         → the link's store, period, expiry
 *   GET /api/inspect/history?day&module&filter&cursor        → a day's tasks of one module
 *   GET /api/inspect/tasks/:id                               → a task's detail and revisions
 */

const day = z.iso.date();

/** A link expires after at most this many days (issue 21). */
export const inspectorLinkMaxDays = 7;
/** The modal's default expiry. */
export const inspectorLinkDefaultDays = 7;
/** Longest label. */
export const inspectorLinkLabelMaxLength = 100;
/** The web page an inspector opens; the token follows as the URL's fragment. */
export const inspectorPagePath = '/inspect';
/** The scheme of the Authorization header the inspector page sends. */
export const inspectorAuthScheme = 'Inspector';
/** The error code of an unknown, expired or revoked link. */
export const inspectorLinkInvalidCode = 'inspector/link-invalid';
/** Links listed per store, newest first. */
export const inspectorLinkListSize = 50;

export const inspectorLinkStatuses = ['active', 'expired', 'revoked'] as const;
export type InspectorLinkStatus = (typeof inspectorLinkStatuses)[number];

/* ---------- Rules ---------- */

/**
 * A link's period: the history's range — at most 31 days both ends included, so every calendar
 * month fits — else 'date-range-too-long'; 'validation/invalid-input' for an end before the
 * start or a day that does not exist.
 */
export function validateInspectorLinkPeriod(
  start: string,
  end: string,
): 'date-range-too-long' | 'validation/invalid-input' | null {
  return validateHistoryRange(start, end);
}

/** The day (YYYY-MM-DD) lies inside the period, both ends included. */
export function isDayInPeriod(candidate: string, start: string, end: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(candidate) && candidate >= start && candidate <= end;
}

/** The days of a period, oldest first (at most 31: the period was validated). */
export function periodDays(start: string, end: string): string[] {
  const count = Math.min(rangeDays(start, end), 31);
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: Math.max(count, 0) }, (_, index) =>
    new Date(first + index * 86_400_000).toISOString().slice(0, 10),
  );
}

/** When a link created at `now` for `days` days stops opening. */
export function inspectorLinkExpiry(now: Date, days: number): Date {
  return new Date(now.getTime() + days * 86_400_000);
}

/** A link opens while it is neither revoked nor past its expiry. */
export function inspectorLinkStatus(
  link: { expires_at: Date | string; revoked_at: Date | string | null },
  now: Date,
): InspectorLinkStatus {
  if (link.revoked_at !== null) return 'revoked';
  return new Date(link.expires_at).getTime() <= now.getTime() ? 'expired' : 'active';
}

/** The token in the fragment of an inspector URL ('' when there is none). */
export function tokenOfFragment(hash: string): string {
  const token = hash.startsWith('#') ? hash.slice(1) : hash;
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : '';
}

/* ---------- Contract: the owner's side ---------- */

export const inspectorLinkParamsSchema = z.strictObject({ storeId: idSchema });
export const inspectorLinkItemParamsSchema = z.strictObject({ storeId: idSchema, id: idSchema });

export const createInspectorLinkBodySchema = z.strictObject({
  /** Who it is for ("DDPP inspection"); shown in the list and to the inspector. */
  label: z.string().trim().max(inspectorLinkLabelMaxLength).default(''),
  period_start: day,
  period_end: day,
  expires_in_days: z.number().int().min(1).max(inspectorLinkMaxDays),
});
export type CreateInspectorLinkBody = z.input<typeof createInspectorLinkBodySchema>;

const personSchema = z.object({ name: z.string(), email: z.string() });

export const inspectorLinkSchema = z.object({
  id: idSchema,
  store_id: idSchema,
  label: z.string(),
  period_start: day,
  period_end: day,
  created_at: z.string(),
  expires_at: z.string(),
  created_by: personSchema.nullable(),
  revoked_at: z.string().nullable(),
  revoked_by: personSchema.nullable(),
  status: z.enum(inspectorLinkStatuses),
  /** The last time the inspector opened anything through it, and how many requests it served. */
  last_used_at: z.string().nullable(),
  use_count: z.number().int(),
});
export type InspectorLink = z.infer<typeof inspectorLinkSchema>;

export const inspectorLinkResponseSchema = z.object({ link: inspectorLinkSchema });
export const createInspectorLinkResponseSchema = z.object({
  link: inspectorLinkSchema,
  /** `${PUBLIC_URL}/inspect#<token>`: answered once, never stored (only its sha256). */
  url: z.string(),
});
export type CreatedInspectorLink = z.infer<typeof createInspectorLinkResponseSchema>;
export const inspectorLinkListResponseSchema = z.object({ items: z.array(inspectorLinkSchema) });

/* ---------- Contract: the inspector's side ---------- */

export const inspectionSchema = z.object({
  label: z.string(),
  store: historyStoreSchema.pick({
    name: true,
    address: true,
    city: true,
    timezone_name: true,
    hidden_modules: true,
  }),
  period_start: day,
  period_end: day,
  expires_at: z.string(),
  /** The inspector pack of the period can be asked for (GET /api/inspect/pack). */
  is_pack_available: z.boolean(),
});
export type Inspection = z.infer<typeof inspectionSchema>;
export const inspectionResponseSchema = z.object({ inspection: inspectionSchema });

export const inspectionHistoryQuerySchema = z.strictObject({
  day,
  module: taskModuleSchema,
  filter: z.enum(historyFilters).default('all'),
  limit: z.coerce.number().int().min(1).max(historyMaxPageSize).default(historyPageSize),
  cursor: z.string().max(200).optional(),
});
export type InspectionHistoryQuery = z.input<typeof inspectionHistoryQuerySchema>;

export const inspectionHistoryResponseSchema = z.object({
  day,
  module: taskModuleSchema,
  items: z.array(historyTaskSchema),
  /** Null on the last page. */
  next_cursor: z.string().nullable(),
});
export type InspectionHistory = z.infer<typeof inspectionHistoryResponseSchema>;

export const inspectionTaskParamsSchema = z.strictObject({ id: idSchema });

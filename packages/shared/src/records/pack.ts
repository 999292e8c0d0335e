import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { maxHistoryRangeDays } from '../history/constants';
import { rangeDays } from '../history/rules';
import { addDays } from '../tasks/rules';

/*
 * The inspector pack (issue 21): for one store and one period, a ZIP with the history PDF and
 * CSV of every module, the punch cards PDF and CSV, the probe charts and alert episodes, the
 * audit results, and a manifest (JSON and a readable PDF page) listing every file with its
 * sha256 and the store's record chain head at the end of the period. Built as a job.
 *
 *   POST /api/stores/:storeId/inspector-packs {period_start, period_end}   the pack (queued)
 *   GET  /api/stores/:storeId/inspector-packs                             the store's packs
 *   GET  /api/stores/:storeId/inspector-packs/:id                         status, progress, manifest
 *   GET  /api/stores/:storeId/inspector-packs/:id/download                application/zip
 */

const day = z.iso.date();

export const inspectorPackStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type InspectorPackStatus = (typeof inspectorPackStatuses)[number];

/** Why a build failed (the `error` of a failed pack; the web translates it). */
export const inspectorPackErrors = [
  'inspector-pack/build-failed',
  'inspector-pack/interrupted',
] as const;
export type InspectorPackError = (typeof inspectorPackErrors)[number];

/** Packs listed per store, newest first. */
export const inspectorPackListSize = 20;
/** The manifest's own format name: a reader checks it before trusting the fields. */
export const inspectorPackFormat = 'mise-inspector-pack/1';
/** The web asks for the status this often while a pack builds. */
export const inspectorPackPollMs = 1500;

/* ---------- Rules ---------- */

/**
 * A pack's period: the history's range, at most 31 days both ends included — every calendar
 * month fits — else 'date-range-too-long'; 'validation/invalid-input' for an end before the
 * start or a day that does not exist.
 */
export function validatePackPeriod(
  start: string,
  end: string,
): 'date-range-too-long' | 'validation/invalid-input' | null {
  const days = rangeDays(start, end);
  if (!Number.isFinite(days) || days < 1) return 'validation/invalid-input';
  if (days > maxHistoryRangeDays) return 'date-range-too-long';
  return null;
}

/** The calendar month before the one of `today` (YYYY-MM-DD): the modal's default period. */
export function previousMonth(today: string): { start: string; end: string } {
  const firstOfThisMonth = `${today.slice(0, 7)}-01`;
  const end = addDays(firstOfThisMonth, -1);
  return { start: `${end.slice(0, 7)}-01`, end };
}

/* ---------- Contract ---------- */

export const inspectorPackParamsSchema = z.strictObject({ storeId: idSchema });
export const inspectorPackItemParamsSchema = z.strictObject({ storeId: idSchema, id: idSchema });

export const createInspectorPackBodySchema = z.strictObject({
  period_start: day,
  period_end: day,
});
export type CreateInspectorPackBody = z.infer<typeof createInspectorPackBodySchema>;

/** One file of the pack: its path in the ZIP, its size in bytes and the sha256 of its bytes. */
export const packFileSchema = z.object({
  name: z.string(),
  size: z.number().int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PackFile = z.infer<typeof packFileSchema>;

export const packManifestSchema = z.object({
  format: z.literal(inspectorPackFormat),
  pack_id: idSchema,
  store: z.object({
    id: idSchema,
    name: z.string(),
    address: z.string(),
    city: z.string(),
    timezone_name: z.string(),
  }),
  /** The store's calendar days, both included. */
  period: z.object({ start: day, end: day }),
  /**
   * The store's record chain head as it stood at `at`: the end of the period (or the
   * generation time when the period is not over). seq 0 and 64 zeros before any record.
   */
  chain_head: z.object({ seq: z.number().int(), head_hash: z.string(), at: z.string() }),
  generated_by: z.object({
    kind: z.enum(['user', 'inspector-link']),
    /** The user's name, or 'inspector link' with the link's label. */
    name: z.string(),
    email: z.string().nullable(),
  }),
  generated_at: z.string(),
  /** The language of the documents. */
  language: z.enum(['fr', 'en', 'de', 'pl']),
  /** Every file of the ZIP but manifest.json itself, in the ZIP's order. */
  files: z.array(packFileSchema),
});
export type PackManifest = z.infer<typeof packManifestSchema>;

export const inspectorPackSchema = z.object({
  id: idSchema,
  store_id: idSchema,
  period_start: day,
  period_end: day,
  status: z.enum(inspectorPackStatuses),
  /** 0 to 100. */
  progress: z.number().int(),
  /** The ZIP's size in bytes once built. */
  file_size: z.number().int().nullable(),
  /** An inspector-pack/* code when the build failed. */
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  created_by: z.object({ name: z.string(), email: z.string() }).nullable(),
  /** Once done. */
  manifest: packManifestSchema.nullable(),
  /** Once done: GET it to download the ZIP. */
  download_url: z.string().nullable(),
});
export type InspectorPack = z.infer<typeof inspectorPackSchema>;

export const inspectorPackResponseSchema = z.object({ pack: inspectorPackSchema });
export const inspectorPackListResponseSchema = z.object({ items: z.array(inspectorPackSchema) });

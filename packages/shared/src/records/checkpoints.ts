import { z } from 'zod';

/*
 * Records an inspector trusts (issue 21): the daily checkpoint of a store's records chain, the
 * chain's head at the end of a store day, kept and published (e-mailed to the owners, shown on
 * the store page).
 */

export const recordsCheckpointSchema = z.object({
  /** The store day sealed (YYYY-MM-DD, the store's time zone). */
  day: z.iso.date(),
  /** Entries in the chain up to the end of that day. */
  seq: z.number().int(),
  /** The hash of the chain's last entry at the end of that day (sha256, hex). */
  head_hash: z.string(),
  created_at: z.string(),
  /** When the checkpoint was handed to the owners (null: not yet). */
  published_at: z.string().nullable(),
});
export type RecordsCheckpoint = z.infer<typeof recordsCheckpointSchema>;

/** GET /api/stores/:id/records-checkpoint: the store's latest checkpoint (null before any). */
export const recordsCheckpointResponseSchema = z.object({
  checkpoint: recordsCheckpointSchema.nullable(),
});
export type RecordsCheckpointResponse = z.infer<typeof recordsCheckpointResponseSchema>;

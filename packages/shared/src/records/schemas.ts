import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/*
 * Records an inspector trusts (issue 21): the verifier of a store's records chain.
 */

const day = z.iso.date();

/**
 * GET /api/records/verify: a store and an optional period of store days (both included, in
 * the store's time zone); without a period, the whole chain.
 */
export const verifyRecordsQuerySchema = z
  .strictObject({
    storeId: idSchema,
    from: day.optional(),
    to: day.optional(),
  })
  .refine((body) => !body.from || !body.to || body.from <= body.to, {
    message: 'from must not be after to',
    path: ['to'],
  });
export type VerifyRecordsQuery = z.infer<typeof verifyRecordsQuerySchema>;

/**
 * What breaks a chain: a covered record changed or deleted, a record of a covered kind that no
 * entry covers (inserted behind the application's back), an entry whose own hash is wrong, an
 * entry not linked to its predecessor (or to the store's head), a missing sequence number, a
 * retention tombstone not signed with the records key (or not the record it hashed).
 */
export const chainProblems = [
  'record-changed',
  'record-deleted',
  'record-inserted',
  'entry-changed',
  'link-broken',
  'gap',
  'tombstone-invalid',
] as const;
export type ChainProblem = (typeof chainProblems)[number];

const countsSchema = z.record(z.string(), z.number().int());

export const verifyRecordsResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('intact'),
    store_id: idSchema,
    /** The instants verified, [from, to) (null: from the chain's start, to its head). */
    from: z.string().nullable(),
    to: z.string().nullable(),
    /** Chain entries walked. */
    entries: z.number().int(),
    /** Entries whose record was reloaded and matched, per kind. */
    counts: countsSchema,
    /** Entries walked whose record is not reloaded (tombstones, kinds with no source). */
    skipped: countsSchema,
    /** Entries whose record the retention job removed (covered by a signed tombstone). */
    removed: countsSchema,
    /** The last entry walked (seq 0 and the genesis hash when none). */
    head: z.object({ seq: z.number().int(), hash: z.string() }),
  }),
  z.object({
    status: z.literal('broken'),
    store_id: idSchema,
    from: z.string().nullable(),
    to: z.string().nullable(),
    /** Entries walked before the break. */
    entries: z.number().int(),
    first: z.object({
      /** The entry where the chain breaks (null for a record no entry covers). */
      seq: z.number().int().nullable(),
      kind: z.string().nullable(),
      record_id: z.string().nullable(),
      problem: z.enum(chainProblems),
      expected: z.string().nullable(),
      found: z.string().nullable(),
    }),
  }),
]);
export type VerifyRecordsResult = z.infer<typeof verifyRecordsResultSchema>;

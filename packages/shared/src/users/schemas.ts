import { z } from 'zod';
import { idSchema, nameSchema, roleSchema } from '../auth/schemas';

/** An account as the API sends it (spec 000 §3 "User / account"); never a hash or token. */
export const userSchema = z.object({
  id: idSchema,
  active: z.boolean(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  phone_number: z.string(),
  role: roleSchema,
  illustration_url: z.string().nullable(),
  new_password_required: z.boolean(),
  distributor: idSchema.nullable(),
  database: idSchema.nullable(),
  stores: z.array(idSchema),
  store_distributors: z.array(idSchema),
  store_databases: z.array(idSchema),
  manager_databases: z.array(idSchema),
  manager_distributors: z.array(idSchema),
  manager_store_tags: z.array(idSchema),
  creation_date: z.string(),
  version: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema });

export const userSummarySchema = z.object({
  id: idSchema,
  active: z.boolean(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  role: roleSchema,
  illustration_url: z.string().nullable(),
  store_count: z.number().int(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const listUsersQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type ListUsersQuery = z.input<typeof listUsersQuerySchema>;

export const listUsersResponseSchema = z.object({
  items: z.array(userSummarySchema),
  total: z.number().int(),
});

export const updateUserBodySchema = z.strictObject({
  version: z.number().int().min(0),
  name: nameSchema.optional(),
  surname: nameSchema.optional(),
  phone_number: z.string().trim().max(40).optional(),
  active: z.boolean().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** Store summary shown on the account detail (admin viewers). */
export const userStoreSchema = z.object({
  id: idSchema,
  name: z.string(),
  city: z.string(),
});
export const userStoresResponseSchema = z.object({ items: z.array(userStoreSchema) });

import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/** Minimal read models used by pickers until the organisation issue widens them. */
export const distributorOptionSchema = z.object({
  id: idSchema,
  name: z.string(),
  active: z.boolean(),
});
export const databaseOptionSchema = z.object({
  id: idSchema,
  name: z.string(),
  distributor: idSchema.nullable(),
  store_count: z.number().int(),
});
export const storeOptionSchema = z.object({
  id: idSchema,
  name: z.string(),
  address: z.string(),
  postal_code: z.string(),
  city: z.string(),
  country: z.string(),
  active: z.boolean(),
  distributor: idSchema.nullable(),
  database: idSchema.nullable(),
});

export const distributorOptionsResponseSchema = z.object({
  items: z.array(distributorOptionSchema),
});
export const databaseOptionsResponseSchema = z.object({ items: z.array(databaseOptionSchema) });
export const storeOptionsResponseSchema = z.object({ items: z.array(storeOptionSchema) });

export type DistributorOption = z.infer<typeof distributorOptionSchema>;
export type DatabaseOption = z.infer<typeof databaseOptionSchema>;
export type StoreOption = z.infer<typeof storeOptionSchema>;

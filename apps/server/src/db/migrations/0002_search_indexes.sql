-- Trigram indexes for the lists' substring searches (ILIKE '%term%'), which a B-tree
-- cannot serve. pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may
-- create it; PGlite loads it at start (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_surname_trgm_idx" ON "users" USING gin ("surname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_full_name_trgm_idx" ON "users" USING gin (("name" || ' ' || "surname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_name_trgm_idx" ON "stores" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_address_trgm_idx" ON "stores" USING gin ("address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_postal_code_trgm_idx" ON "stores" USING gin ("postal_code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_city_trgm_idx" ON "stores" USING gin ("city" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "distributors_name_trgm_idx" ON "distributors" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "distributors_city_trgm_idx" ON "distributors" USING gin ("city" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "databases_name_trgm_idx" ON "databases" USING gin ("name" gin_trgm_ops);

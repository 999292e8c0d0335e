-- One search expression per list (a single trigram index and a single ILIKE per row)
-- replaces one index per column: four index scans over common trigrams cost four times as
-- much. The expressions must stay identical to the ones in the services (searchText*).
DROP INDEX IF EXISTS "users_name_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "users_surname_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "users_email_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "users_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "stores_name_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "stores_address_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "stores_postal_code_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "stores_city_trgm_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_search_trgm_idx" ON "users" USING gin (("name" || ' ' || "surname" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_search_trgm_idx" ON "stores" USING gin (("name" || ' ' || "address" || ' ' || "postal_code" || ' ' || "city") gin_trgm_ops);

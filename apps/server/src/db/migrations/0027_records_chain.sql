CREATE TABLE "inspector_link_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"action" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspector_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
CREATE TABLE "inspector_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"status" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file_path" text,
	"file_size" bigint,
	"manifest" jsonb,
	"error" text,
	"created_by" uuid,
	"inspector_link_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "record_chain_checkpoints" (
	"store_id" uuid NOT NULL,
	"day" date NOT NULL,
	"seq" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "record_chain_checkpoints_store_id_day_pk" PRIMARY KEY("store_id","day")
);
--> statement-breakpoint
CREATE TABLE "record_chain_entries" (
	"store_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"record_id" text NOT NULL,
	"record_hash" text NOT NULL,
	"prev_hash" text NOT NULL,
	"entry_hash" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_chain_entries_store_id_seq_pk" PRIMARY KEY("store_id","seq")
);
--> statement-breakpoint
CREATE TABLE "record_chain_heads" (
	"store_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"head_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_settings" (
	"database_id" uuid PRIMARY KEY NOT NULL,
	"task_results_months" integer,
	"punch_cards_months" integer,
	"probe_readings_months" integer,
	"audit_results_months" integer,
	"documents_months" integer,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspector_link_uses" ADD CONSTRAINT "inspector_link_uses_link_id_inspector_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."inspector_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspector_links" ADD CONSTRAINT "inspector_links_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspector_links" ADD CONSTRAINT "inspector_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspector_links" ADD CONSTRAINT "inspector_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspector_packs" ADD CONSTRAINT "inspector_packs_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspector_packs" ADD CONSTRAINT "inspector_packs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_chain_checkpoints" ADD CONSTRAINT "record_chain_checkpoints_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_chain_entries" ADD CONSTRAINT "record_chain_entries_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_chain_heads" ADD CONSTRAINT "record_chain_heads_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inspector_link_uses_link_idx" ON "inspector_link_uses" USING btree ("link_id","used_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inspector_links_token_idx" ON "inspector_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "inspector_links_store_idx" ON "inspector_links" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "inspector_packs_store_idx" ON "inspector_packs" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "record_chain_entries_record_idx" ON "record_chain_entries" USING btree ("store_id","kind","record_id");--> statement-breakpoint
CREATE INDEX "record_chain_entries_time_idx" ON "record_chain_entries" USING btree ("store_id","created_at");
CREATE TABLE "employee_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"features_permissions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "punch_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"day" date NOT NULL,
	"is_in" boolean NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"timestamp_modified" timestamp with time zone,
	"incoherent" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"device_id" uuid,
	"selfie_path" text,
	"idempotency_key" text,
	"request_hash" text,
	"deleted_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "punch_entry_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"user_id" uuid,
	"employee_id" uuid,
	"device_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_tag_links" (
	"tag_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	CONSTRAINT "store_tag_links_tag_id_store_id_pk" PRIMARY KEY("tag_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "store_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "employee_roles" ADD CONSTRAINT "employee_roles_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entries" ADD CONSTRAINT "punch_entries_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entries" ADD CONSTRAINT "punch_entries_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entries" ADD CONSTRAINT "punch_entries_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entry_revisions" ADD CONSTRAINT "punch_entry_revisions_entry_id_punch_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."punch_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entry_revisions" ADD CONSTRAINT "punch_entry_revisions_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_entry_revisions" ADD CONSTRAINT "punch_entry_revisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_tag_links" ADD CONSTRAINT "store_tag_links_tag_id_store_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."store_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_tag_links" ADD CONSTRAINT "store_tag_links_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_tags" ADD CONSTRAINT "store_tags_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "employee_roles_database_idx" ON "employee_roles" USING btree ("database_id","name");--> statement-breakpoint
CREATE INDEX "punch_entries_store_day_idx" ON "punch_entries" USING btree ("store_id","day");--> statement-breakpoint
CREATE INDEX "punch_entries_employee_day_idx" ON "punch_entries" USING btree ("employee_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "punch_entries_store_key_idx" ON "punch_entries" USING btree ("store_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "punch_entry_revisions_entry_idx" ON "punch_entry_revisions" USING btree ("entry_id","created_at");--> statement-breakpoint
CREATE INDEX "store_tag_links_store_idx" ON "store_tag_links" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "store_tags_database_idx" ON "store_tags" USING btree ("database_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_tags_active_name_idx" ON "store_tags" USING btree ("database_id",lower("name")) WHERE "store_tags"."active";
CREATE TABLE "database_elements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"illustration_url" text,
	"illustration_path" text,
	"allergens" text[] DEFAULT '{}'::text[] NOT NULL,
	"allergen_illustration_url" text,
	"allergen_illustration_path" text,
	"minimum_temperature" double precision,
	"maximum_temperature" double precision,
	"temperature_delivery_item" boolean DEFAULT false NOT NULL,
	"temperature_require_picture" boolean DEFAULT false NOT NULL,
	"temperature_picture" boolean DEFAULT false NOT NULL,
	"maximum_polarity" double precision DEFAULT 25,
	"oils_require_picture" boolean DEFAULT false NOT NULL,
	"reheating_temperature" double precision DEFAULT 63,
	"reheating_duration" integer DEFAULT 60,
	"cooling_temperature" double precision DEFAULT 10,
	"cooling_duration" integer DEFAULT 120,
	"temperatures_module_active" boolean DEFAULT true NOT NULL,
	"labels_module_active" boolean DEFAULT false NOT NULL,
	"traceability_module_active" boolean DEFAULT false NOT NULL,
	"oils_module_active" boolean DEFAULT false NOT NULL,
	"temperature_control_module_active" boolean DEFAULT false NOT NULL,
	"encyclopedia_extension_active" boolean DEFAULT false NOT NULL,
	"mise_display_active" boolean DEFAULT false NOT NULL,
	"locks" jsonb DEFAULT '{"name":true,"type_id":true,"active":true,"illustration_url":true,"allergens":true,"allergen_illustration_url":true,"minimum_temperature":true,"maximum_temperature":true,"temperature_delivery_item":true,"temperature_require_picture":true,"temperature_picture":true,"maximum_polarity":true,"oils_require_picture":true,"reheating_temperature":true,"reheating_duration":true,"cooling_temperature":true,"cooling_duration":true,"temperatures_module_active":true,"labels_module_active":true,"traceability_module_active":true,"oils_module_active":true,"temperature_control_module_active":true,"encyclopedia_extension_active":true,"mise_display_active":true,"labels":true,"attachments":true}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "element_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid,
	"store_id" uuid,
	"database_element_id" uuid,
	"store_element_id" uuid,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"content_type" text NOT NULL,
	"path" text NOT NULL,
	"size" bigint NOT NULL,
	"video_id" text,
	"index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "element_attachments_one_element" CHECK (("element_attachments"."database_element_id" is null) <> ("element_attachments"."store_element_id" is null))
);
--> statement-breakpoint
CREATE TABLE "element_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid,
	"store_id" uuid,
	"database_element_id" uuid,
	"store_element_id" uuid,
	"origin_id" uuid,
	"index" integer DEFAULT 0 NOT NULL,
	"active" boolean,
	"name" text,
	"type" text,
	"expiration_duration" integer,
	"defrosting_duration" integer,
	"expiration_text" text,
	"cumulate_expiration_duration" boolean,
	"show_expiration_hour" boolean,
	"show_expiration_weekday" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "element_labels_one_element" CHECK (("element_labels"."database_element_id" is null) <> ("element_labels"."store_element_id" is null))
);
--> statement-breakpoint
CREATE TABLE "element_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid,
	"store_id" uuid,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "element_types_one_owner" CHECK (("element_types"."database_id" is null) <> ("element_types"."store_id" is null))
);
--> statement-breakpoint
CREATE TABLE "storage_deletions" (
	"path" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_elements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"origin_id" uuid,
	"probe_id" text,
	"name" text,
	"type_id" uuid,
	"active" boolean,
	"illustration_url" text,
	"illustration_path" text,
	"allergens" text[],
	"allergen_illustration_url" text,
	"allergen_illustration_path" text,
	"minimum_temperature" double precision,
	"maximum_temperature" double precision,
	"temperature_delivery_item" boolean,
	"temperature_require_picture" boolean,
	"temperature_picture" boolean,
	"maximum_polarity" double precision,
	"oils_require_picture" boolean,
	"reheating_temperature" double precision,
	"reheating_duration" integer,
	"cooling_temperature" double precision,
	"cooling_duration" integer,
	"temperatures_module_active" boolean,
	"labels_module_active" boolean,
	"traceability_module_active" boolean,
	"oils_module_active" boolean,
	"temperature_control_module_active" boolean,
	"encyclopedia_extension_active" boolean,
	"mise_display_active" boolean,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "database_elements" ADD CONSTRAINT "database_elements_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "database_elements" ADD CONSTRAINT "database_elements_type_id_element_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."element_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_attachments" ADD CONSTRAINT "element_attachments_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_attachments" ADD CONSTRAINT "element_attachments_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_attachments" ADD CONSTRAINT "element_attachments_database_element_id_database_elements_id_fk" FOREIGN KEY ("database_element_id") REFERENCES "public"."database_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_attachments" ADD CONSTRAINT "element_attachments_store_element_id_store_elements_id_fk" FOREIGN KEY ("store_element_id") REFERENCES "public"."store_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_labels" ADD CONSTRAINT "element_labels_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_labels" ADD CONSTRAINT "element_labels_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_labels" ADD CONSTRAINT "element_labels_database_element_id_database_elements_id_fk" FOREIGN KEY ("database_element_id") REFERENCES "public"."database_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_labels" ADD CONSTRAINT "element_labels_store_element_id_store_elements_id_fk" FOREIGN KEY ("store_element_id") REFERENCES "public"."store_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_labels" ADD CONSTRAINT "element_labels_origin_id_element_labels_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."element_labels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_types" ADD CONSTRAINT "element_types_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "element_types" ADD CONSTRAINT "element_types_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_elements" ADD CONSTRAINT "store_elements_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_elements" ADD CONSTRAINT "store_elements_origin_id_database_elements_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."database_elements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_elements" ADD CONSTRAINT "store_elements_type_id_element_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."element_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "database_elements_database_name_idx" ON "database_elements" USING btree ("database_id","name");--> statement-breakpoint
CREATE INDEX "database_elements_type_idx" ON "database_elements" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "element_attachments_database_element_idx" ON "element_attachments" USING btree ("database_element_id","index");--> statement-breakpoint
CREATE INDEX "element_attachments_store_element_idx" ON "element_attachments" USING btree ("store_element_id","index");--> statement-breakpoint
CREATE INDEX "element_attachments_database_idx" ON "element_attachments" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "element_attachments_store_idx" ON "element_attachments" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "element_labels_database_element_idx" ON "element_labels" USING btree ("database_element_id","index");--> statement-breakpoint
CREATE INDEX "element_labels_store_element_idx" ON "element_labels" USING btree ("store_element_id","index");--> statement-breakpoint
CREATE INDEX "element_labels_database_idx" ON "element_labels" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "element_labels_store_idx" ON "element_labels" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "element_labels_origin_idx" ON "element_labels" USING btree ("origin_id");--> statement-breakpoint
CREATE INDEX "element_types_database_idx" ON "element_types" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "element_types_store_idx" ON "element_types" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "store_elements_store_name_idx" ON "store_elements" USING btree ("store_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "store_elements_store_origin_idx" ON "store_elements" USING btree ("store_id","origin_id");--> statement-breakpoint
CREATE INDEX "store_elements_origin_idx" ON "store_elements" USING btree ("origin_id");--> statement-breakpoint
CREATE INDEX "store_elements_type_idx" ON "store_elements" USING btree ("type_id");
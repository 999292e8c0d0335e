CREATE TABLE "training_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"source" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_result_steps" (
	"store_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"result_id" uuid NOT NULL,
	"device_id" uuid,
	"action" text NOT NULL,
	"time_spent" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"training_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"store_database" uuid,
	"store_distributor" uuid,
	"employee_id" uuid NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"time_spent" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"answers" jsonb,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"lang" text DEFAULT 'fr' NOT NULL,
	"type" text NOT NULL,
	"source" uuid,
	"distributor_id" uuid,
	"database_id" uuid,
	"store_id" uuid,
	"required" boolean DEFAULT false NOT NULL,
	"category_id" uuid,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"target" jsonb NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "training_result_steps" ADD CONSTRAINT "training_result_steps_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_result_steps" ADD CONSTRAINT "training_result_steps_result_id_training_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."training_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_result_steps" ADD CONSTRAINT "training_result_steps_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_results" ADD CONSTRAINT "training_results_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_results" ADD CONSTRAINT "training_results_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_results" ADD CONSTRAINT "training_results_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_distributor_id_distributors_id_fk" FOREIGN KEY ("distributor_id") REFERENCES "public"."distributors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_category_id_training_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."training_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "training_categories_name_idx" ON "training_categories" USING btree ("type",coalesce("source", '00000000-0000-0000-0000-000000000000'::uuid),lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "training_result_steps_key_idx" ON "training_result_steps" USING btree ("store_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "training_result_steps_result_idx" ON "training_result_steps" USING btree ("result_id");--> statement-breakpoint
CREATE UNIQUE INDEX "training_results_employee_idx" ON "training_results" USING btree ("training_id","employee_id");--> statement-breakpoint
CREATE INDEX "training_results_store_idx" ON "training_results" USING btree ("training_id","store_id","completed_at");--> statement-breakpoint
CREATE INDEX "training_results_completed_idx" ON "training_results" USING btree ("training_id","completed_at") WHERE "training_results"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "trainings_type_source_idx" ON "trainings" USING btree ("type","source",lower("name"));--> statement-breakpoint
CREATE INDEX "trainings_database_idx" ON "trainings" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "trainings_distributor_idx" ON "trainings" USING btree ("distributor_id");--> statement-breakpoint
CREATE INDEX "trainings_store_idx" ON "trainings" USING btree ("store_id");
CREATE TABLE "communication_result_steps" (
	"store_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"result_id" uuid NOT NULL,
	"device_id" uuid,
	"action" text NOT NULL,
	"time_spent" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "communication_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"communication_id" uuid NOT NULL,
	"database_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"time_spent" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"answers" jsonb,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "communications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"start_day" text NOT NULL,
	"end_day" text NOT NULL,
	"time_zone" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"attachment_name" text,
	"attachment_path" text,
	"attachment_content_type" text,
	"quiz" jsonb DEFAULT '{"questions":[]}'::jsonb NOT NULL,
	"target" jsonb NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "communication_result_steps" ADD CONSTRAINT "communication_result_steps_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communication_result_steps" ADD CONSTRAINT "communication_result_steps_result_id_communication_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."communication_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communication_result_steps" ADD CONSTRAINT "communication_result_steps_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communication_results" ADD CONSTRAINT "communication_results_communication_id_communications_id_fk" FOREIGN KEY ("communication_id") REFERENCES "public"."communications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communication_results" ADD CONSTRAINT "communication_results_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communication_results" ADD CONSTRAINT "communication_results_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "communication_result_steps_key_idx" ON "communication_result_steps" USING btree ("store_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "communication_result_steps_result_idx" ON "communication_result_steps" USING btree ("result_id");--> statement-breakpoint
CREATE UNIQUE INDEX "communication_results_employee_idx" ON "communication_results" USING btree ("communication_id","employee_id");--> statement-breakpoint
CREATE INDEX "communication_results_store_idx" ON "communication_results" USING btree ("communication_id","store_id","completed_at");--> statement-breakpoint
CREATE INDEX "communication_results_completed_idx" ON "communication_results" USING btree ("communication_id","completed_at") WHERE "communication_results"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "communications_database_idx" ON "communications" USING btree ("database_id","start_at");--> statement-breakpoint
CREATE INDEX "communications_running_idx" ON "communications" USING btree ("database_id","end_at","start_at") WHERE "communications"."active";
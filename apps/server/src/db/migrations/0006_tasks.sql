CREATE TABLE "employee_auth_failures" (
	"employee_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employee_auth_failures_employee_id_device_id_pk" PRIMARY KEY("employee_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "employee_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"employee_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employee_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "employee_stores" (
	"employee_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	CONSTRAINT "employee_stores_employee_id_store_id_pk" PRIMARY KEY("employee_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "employees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid,
	"name" text NOT NULL,
	"surname" text NOT NULL,
	"role_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"illustration_url" text,
	"using_password" boolean DEFAULT true NOT NULL,
	"pin_hash" text,
	"pattern_hash" text,
	"old_ref" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_task_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"origin_id" uuid,
	"module" text,
	"name" text,
	"description" text,
	"type_id" uuid,
	"active" boolean,
	"recurrence" text,
	"recurrence_anchor" date,
	"starts" integer[],
	"durations" integer[],
	"requires_manager" boolean,
	"notify_late" boolean,
	"configuration" jsonb,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"module" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"recurrence" text DEFAULT 'FREQ=DAILY;INTERVAL=1' NOT NULL,
	"recurrence_anchor" date DEFAULT current_date NOT NULL,
	"starts" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"durations" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"requires_manager" boolean DEFAULT false NOT NULL,
	"notify_late" boolean DEFAULT false NOT NULL,
	"configuration" jsonb NOT NULL,
	"locks" jsonb DEFAULT '{"active":true,"configuration":true,"description":true,"schedule":true,"name":true,"recurrence":true,"requires_manager":true,"type_id":true,"notify_late":true}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_generation_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid,
	"type" smallint NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_generation_runs" (
	"store_id" uuid NOT NULL,
	"day" date NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"created" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "task_generation_runs_store_id_day_pk" PRIMARY KEY("store_id","day")
);
--> statement-breakpoint
CREATE TABLE "task_result_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"kind" text DEFAULT 'result' NOT NULL,
	"result" jsonb,
	"completed_timestamp" timestamp with time zone,
	"employee_id" uuid,
	"employee" jsonb,
	"device_id" uuid,
	"reason" text,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid,
	"store_id" uuid,
	"name" text NOT NULL,
	"color" text DEFAULT '#454eff' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_types_one_owner" CHECK (("task_types"."database_id" is null) <> ("task_types"."store_id" is null))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"database_id" uuid,
	"configuration_id" uuid,
	"store_configuration_id" uuid,
	"generation_key" text,
	"day" date NOT NULL,
	"name" text NOT NULL,
	"module" text NOT NULL,
	"type_name" text,
	"type_color" text,
	"start" timestamp with time zone NOT NULL,
	"duration" integer NOT NULL,
	"requires_manager" boolean DEFAULT false NOT NULL,
	"notify_late" boolean DEFAULT false NOT NULL,
	"elements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"completed_timestamp" timestamp with time zone,
	"completed_employee" uuid,
	"employee" jsonb,
	"result" jsonb,
	"revision" integer DEFAULT 0 NOT NULL,
	"postponed_task" uuid,
	"original_task" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "employee_auth_failures" ADD CONSTRAINT "employee_auth_failures_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_auth_failures" ADD CONSTRAINT "employee_auth_failures_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_sessions" ADD CONSTRAINT "employee_sessions_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_sessions" ADD CONSTRAINT "employee_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_sessions" ADD CONSTRAINT "employee_sessions_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_stores" ADD CONSTRAINT "employee_stores_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_stores" ADD CONSTRAINT "employee_stores_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_task_configurations" ADD CONSTRAINT "store_task_configurations_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_task_configurations" ADD CONSTRAINT "store_task_configurations_origin_id_task_configurations_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."task_configurations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_task_configurations" ADD CONSTRAINT "store_task_configurations_type_id_task_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."task_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_configurations" ADD CONSTRAINT "task_configurations_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_configurations" ADD CONSTRAINT "task_configurations_type_id_task_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."task_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_generation_events" ADD CONSTRAINT "task_generation_events_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_generation_runs" ADD CONSTRAINT "task_generation_runs_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_result_revisions" ADD CONSTRAINT "task_result_revisions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_result_revisions" ADD CONSTRAINT "task_result_revisions_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_types" ADD CONSTRAINT "task_types_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_types" ADD CONSTRAINT "task_types_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "employee_sessions_employee_idx" ON "employee_sessions" USING btree ("employee_id");--> statement-breakpoint
CREATE INDEX "employee_stores_store_idx" ON "employee_stores" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "employees_database_idx" ON "employees" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "store_task_configurations_store_name_idx" ON "store_task_configurations" USING btree ("store_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "store_task_configurations_store_origin_idx" ON "store_task_configurations" USING btree ("store_id","origin_id");--> statement-breakpoint
CREATE INDEX "store_task_configurations_origin_idx" ON "store_task_configurations" USING btree ("origin_id");--> statement-breakpoint
CREATE INDEX "task_configurations_database_name_idx" ON "task_configurations" USING btree ("database_id","name");--> statement-breakpoint
CREATE INDEX "task_generation_events_store_time_idx" ON "task_generation_events" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "task_generation_events_time_idx" ON "task_generation_events" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "task_result_revisions_key_idx" ON "task_result_revisions" USING btree ("store_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "task_result_revisions_task_revision_idx" ON "task_result_revisions" USING btree ("task_id","revision");--> statement-breakpoint
CREATE INDEX "task_types_database_idx" ON "task_types" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "task_types_store_idx" ON "task_types" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_store_generation_key_idx" ON "tasks" USING btree ("store_id","generation_key");--> statement-breakpoint
CREATE INDEX "tasks_store_start_idx" ON "tasks" USING btree ("store_id","start");--> statement-breakpoint
CREATE INDEX "tasks_store_day_idx" ON "tasks" USING btree ("store_id","day");
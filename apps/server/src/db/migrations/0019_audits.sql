CREATE TABLE "audit_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"audit_id" uuid NOT NULL,
	"audit_version" integer NOT NULL,
	"database_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"source" text NOT NULL,
	"auditor_user_id" uuid,
	"auditor_employee_id" uuid,
	"auditor_name" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"start_date" timestamp with time zone DEFAULT now() NOT NULL,
	"end_date" timestamp with time zone,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"score" double precision,
	"max_score" double precision,
	"section_scores" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pdf_key" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_versions" (
	"audit_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sections" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_versions_audit_id_version_pk" PRIMARY KEY("audit_id","version")
);
--> statement-breakpoint
CREATE TABLE "audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"database_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"self_evaluation" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"publishing_date" timestamp with time zone,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"section_count" integer DEFAULT 0 NOT NULL,
	"question_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"structure_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_results" ADD CONSTRAINT "audit_results_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_results" ADD CONSTRAINT "audit_results_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_results" ADD CONSTRAINT "audit_results_auditor_user_id_users_id_fk" FOREIGN KEY ("auditor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_results" ADD CONSTRAINT "audit_results_auditor_employee_id_employees_id_fk" FOREIGN KEY ("auditor_employee_id") REFERENCES "public"."employees"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_versions" ADD CONSTRAINT "audit_versions_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audits" ADD CONSTRAINT "audits_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audits" ADD CONSTRAINT "audits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_results_audit_idx" ON "audit_results" USING btree ("audit_id","status","end_date");--> statement-breakpoint
CREATE INDEX "audit_results_store_idx" ON "audit_results" USING btree ("store_id","audit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_results_open_user_idx" ON "audit_results" USING btree ("audit_id","store_id","auditor_user_id") WHERE "audit_results"."status" = 'in_progress' and "audit_results"."source" = 'web';--> statement-breakpoint
CREATE UNIQUE INDEX "audit_results_open_tablet_idx" ON "audit_results" USING btree ("audit_id","store_id") WHERE "audit_results"."status" = 'in_progress' and "audit_results"."source" = 'tablet';--> statement-breakpoint
CREATE INDEX "audit_results_auditor_idx" ON "audit_results" USING btree ("auditor_user_id","updated_at") WHERE "audit_results"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "audits_database_idx" ON "audits" USING btree ("database_id",lower("name"));--> statement-breakpoint
CREATE INDEX "audits_database_published_idx" ON "audits" USING btree ("database_id","publishing_date") WHERE "audits"."published";
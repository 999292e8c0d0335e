CREATE TABLE "server_instance_replies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"instance_id" uuid NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"version" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "server_profiling_snapshots" (
	"instance_id" uuid NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"cpu_usage_percent" real NOT NULL,
	"memory_usage_percent" real NOT NULL,
	CONSTRAINT "server_profiling_snapshots_instance_id_taken_at_pk" PRIMARY KEY("instance_id","taken_at")
);
--> statement-breakpoint
ALTER TABLE "server_profiling_snapshots" ADD CONSTRAINT "server_profiling_snapshots_instance_id_server_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."server_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_instance_replies_created_idx" ON "server_instance_replies" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "server_instances_last_seen_idx" ON "server_instances" USING btree ("last_seen_at");
CREATE TABLE "probe_readings" (
	"probe_id" uuid NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"temperature" real NOT NULL,
	"battery_level" smallint,
	CONSTRAINT "probe_readings_probe_id_timestamp_pk" PRIMARY KEY("probe_id","timestamp")
) PARTITION BY RANGE ("timestamp");
--> statement-breakpoint
CREATE TABLE "probes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"probe_uid" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"store_id" uuid,
	"battery_level" smallint,
	"minimum_temperature" real,
	"maximum_temperature" real,
	"critical_threshold" real,
	"notify_temperature" real,
	"posting_interval" integer DEFAULT 300 NOT NULL,
	"push_notification" boolean DEFAULT false NOT NULL,
	"last_temperature" real,
	"last_temperature_timestamp" timestamp with time zone,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "probes_probe_uid_unique" UNIQUE("probe_uid")
);
--> statement-breakpoint
ALTER TABLE "probe_readings" ADD CONSTRAINT "probe_readings_probe_id_probes_id_fk" FOREIGN KEY ("probe_id") REFERENCES "public"."probes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "probes_store_id_idx" ON "probes" USING btree ("store_id");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express partitioning): probe_readings is partitioned by month
-- (probes.service ensureProbeReadingPartitions creates probe_readings_yYYYYmMM ahead at start);
-- the DEFAULT partition keeps any reading no month partition covers yet, so nothing is lost.
CREATE TABLE "probe_readings_default" PARTITION OF "probe_readings" DEFAULT;

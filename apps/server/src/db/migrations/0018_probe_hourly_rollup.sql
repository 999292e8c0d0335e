CREATE TABLE "probe_readings_hourly" (
	"probe_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"minimum" real NOT NULL,
	"maximum" real NOT NULL,
	"total" double precision NOT NULL,
	"count" integer NOT NULL,
	"battery_level" smallint,
	CONSTRAINT "probe_readings_hourly_probe_id_hour_pk" PRIMARY KEY("probe_id","hour")
);
--> statement-breakpoint
ALTER TABLE "probe_readings_hourly" ADD CONSTRAINT "probe_readings_hourly_probe_id_probes_id_fk" FOREIGN KEY ("probe_id") REFERENCES "public"."probes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Readings kept before the rollup existed.
INSERT INTO "probe_readings_hourly" ("probe_id", "hour", "minimum", "maximum", "total", "count", "battery_level")
SELECT "probe_id", date_trunc('hour', "timestamp", 'UTC'), min("temperature"), max("temperature"), sum("temperature"), count(*), min("battery_level")
FROM "probe_readings" GROUP BY 1, 2;

DROP INDEX "tasks_store_day_idx";--> statement-breakpoint
CREATE INDEX "tasks_store_day_score_idx" ON "tasks" USING btree ("store_id","day","postponed_task","start","duration","completed_timestamp","result_anomaly");--> statement-breakpoint
CREATE INDEX "tasks_result_anomaly_pending_idx" ON "tasks" USING btree ("id") WHERE "tasks"."result" is not null and "tasks"."result_anomaly" is null;
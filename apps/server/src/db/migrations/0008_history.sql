ALTER TABLE "tasks" ADD COLUMN "result_anomaly" boolean;--> statement-breakpoint
CREATE INDEX "tasks_store_module_day_idx" ON "tasks" USING btree ("store_id","module","day");
-- Issue 13: generation no longer makes tasks scheduled before their store's creation (a new
-- store started with its morning's checks "missed" and a score of 0). Those generated before
-- the fix are removed: never done, never postponed, without any revision (no HACCP record is
-- lost). The home summaries follow through their delete triggers.
DELETE FROM "tasks" AS t
 USING "stores" AS s
 WHERE t."store_id" = s."id"
   AND t."start" < s."created_at"
   AND t."generation_key" IS NOT NULL
   AND t."completed_timestamp" IS NULL
   AND t."postponed_task" IS NULL
   AND t."revision" = 0
   AND NOT EXISTS (SELECT 1 FROM "task_result_revisions" AS r WHERE r."task_id" = t."id");

CREATE TABLE "store_day_equipment" (
	"store_id" uuid NOT NULL,
	"day" date NOT NULL,
	"element_id" text NOT NULL,
	"name" text NOT NULL,
	"in_range" integer DEFAULT 0 NOT NULL,
	"out_of_range" integer DEFAULT 0 NOT NULL,
	"last_temperature" double precision,
	"last_reading_at" timestamp with time zone,
	CONSTRAINT "store_day_equipment_store_id_day_element_id_pk" PRIMARY KEY("store_id","day","element_id")
);
--> statement-breakpoint
CREATE TABLE "store_day_scores" (
	"store_id" uuid NOT NULL,
	"day" date NOT NULL,
	"on_time" integer DEFAULT 0 NOT NULL,
	"on_time_with_anomaly" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"late_with_anomaly" integer DEFAULT 0 NOT NULL,
	"open" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "store_day_scores_store_id_day_pk" PRIMARY KEY("store_id","day")
);
--> statement-breakpoint
CREATE TABLE "store_oil_states" (
	"store_id" uuid NOT NULL,
	"element_id" text NOT NULL,
	"name" text,
	"temperature" double precision,
	"polarity" double precision,
	"last_reading_at" timestamp with time zone NOT NULL,
	"last_change_at" timestamp with time zone,
	CONSTRAINT "store_oil_states_store_id_element_id_pk" PRIMARY KEY("store_id","element_id")
);
--> statement-breakpoint
DROP INDEX "tasks_store_module_day_idx";--> statement-breakpoint
CREATE INDEX "tasks_store_module_start_idx" ON "tasks" USING btree ("store_id","module","start","id");
--> statement-breakpoint
-- The home's summaries (schema/tasks.ts storeDayScores, storeOilStates), kept by statement
-- triggers on tasks. Score counts move by deltas (+ the new rows, − the old ones), which
-- commute, so concurrent writes to one store-day add up right. The class rules are
-- packages/shared history/rules.ts scoreClassOf: postponed tasks do not count; a completion
-- at or before start + duration is on time, after it late; result_anomaly splits each.
CREATE FUNCTION mise_store_day_score_deltas(store_ids uuid[], days date[], signs integer[],
    starts timestamptz[], durations integer[], completions timestamptz[], anomalies boolean[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO store_day_scores AS s
    (store_id, day, on_time, on_time_with_anomaly, late, late_with_anomaly, open)
  SELECT store_id, day, on_time, on_time_with_anomaly, late, late_with_anomaly, open
  FROM (
    SELECT r.store_id, r.day,
      coalesce(sum(r.sign) FILTER (WHERE r.completed <= r.start + r.duration * interval '1 minute' AND r.anomaly IS NOT TRUE), 0)::integer AS on_time,
      coalesce(sum(r.sign) FILTER (WHERE r.completed <= r.start + r.duration * interval '1 minute' AND r.anomaly IS TRUE), 0)::integer AS on_time_with_anomaly,
      coalesce(sum(r.sign) FILTER (WHERE r.completed > r.start + r.duration * interval '1 minute' AND r.anomaly IS NOT TRUE), 0)::integer AS late,
      coalesce(sum(r.sign) FILTER (WHERE r.completed > r.start + r.duration * interval '1 minute' AND r.anomaly IS TRUE), 0)::integer AS late_with_anomaly,
      coalesce(sum(r.sign) FILTER (WHERE r.completed IS NULL), 0)::integer AS open
    FROM unnest(store_ids, days, signs, starts, durations, completions, anomalies)
      AS r(store_id, day, sign, start, duration, completed, anomaly)
    GROUP BY r.store_id, r.day
  ) deltas
  WHERE on_time <> 0 OR on_time_with_anomaly <> 0 OR late <> 0 OR late_with_anomaly <> 0 OR open <> 0
  ORDER BY store_id, day
  ON CONFLICT (store_id, day) DO UPDATE SET
    on_time = s.on_time + excluded.on_time,
    on_time_with_anomaly = s.on_time_with_anomaly + excluded.on_time_with_anomaly,
    late = s.late + excluded.late,
    late_with_anomaly = s.late_with_anomaly + excluded.late_with_anomaly,
    open = s.open + excluded.open;
$$;
--> statement-breakpoint
-- A store's oil elements recounted from its oil tasks of the last 92 days (the home shows
-- 90): each element's last reading and last change. Callers hold the store's advisory lock,
-- so a recount reads every write committed before it.
CREATE FUNCTION mise_recount_store_oil_states(store uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM store_oil_states WHERE store_id = store;
  INSERT INTO store_oil_states
    (store_id, element_id, name, temperature, polarity, last_reading_at, last_change_at)
  SELECT DISTINCT ON (element) store, element, name, temperature, polarity, at,
         max(at) FILTER (WHERE changed) OVER (PARTITION BY element)
  FROM (
    SELECT entry->>'element' AS element,
           (SELECT item->>'name' FROM jsonb_array_elements(
              CASE WHEN jsonb_typeof(t.elements) = 'array' THEN t.elements ELSE '[]'::jsonb END) item
             WHERE item->>'id' = entry->>'element' LIMIT 1) AS name,
           t.completed_timestamp AS at,
           CASE WHEN jsonb_typeof(entry->'temperature') = 'number' THEN (entry->>'temperature')::double precision END AS temperature,
           CASE WHEN jsonb_typeof(entry->'polarity') = 'number' THEN (entry->>'polarity')::double precision END AS polarity,
           entry->>'oil_changed' = 'true' AS changed
    FROM tasks t CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(t.result->'entries') = 'array' THEN t.result->'entries' ELSE '[]'::jsonb END) entry
    WHERE t.store_id = store AND t.module = 'oils' AND t.start >= now() - interval '92 days'
      AND t.completed_timestamp IS NOT NULL AND jsonb_typeof(entry) = 'object'
      AND entry->>'element' IS NOT NULL
  ) entries
  ORDER BY element, at DESC;
$$;
--> statement-breakpoint
CREATE FUNCTION mise_recount_oil_stores(store_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  store uuid;
BEGIN
  -- In id order, so two writers of the same stores never wait on each other in a cycle.
  FOR store IN SELECT DISTINCT s FROM unnest(store_ids) s WHERE s IS NOT NULL ORDER BY s LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('mise_store_oil_states:' || store::text, 0));
    PERFORM mise_recount_store_oil_states(store);
  END LOOP;
END;
$$;
--> statement-breakpoint
-- A JSON value as a number when it is one (numberOrNull in the shared rules).
CREATE FUNCTION mise_json_number(value jsonb) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END
$$;
--> statement-breakpoint
-- The fridges and delivery panel of one store-day recounted from its temperature tasks (the
-- home's former computation, home.service.ts): every element of the day's tasks, named by its
-- first snapshot (tasks by start then name); readings with a numeric temperature, in range by
-- `readingInRange` with the reading task's own bounds (temperature and control temperature
-- within minimum and maximum, a missing bound not checked); the last reading by the entry's
-- timestamp (else the completion time), the last in task order on a tie. Callers hold the
-- store-day's advisory lock.
CREATE FUNCTION mise_recount_store_day_equipment(store uuid, target_day date) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM store_day_equipment WHERE store_id = store AND day = target_day;
  INSERT INTO store_day_equipment
    (store_id, day, element_id, name, in_range, out_of_range, last_temperature, last_reading_at)
  SELECT store, target_day, e.element_id, e.name, coalesce(r.in_range, 0),
         coalesce(r.out_of_range, 0), r.last_temperature, r.last_reading_at
  FROM (
    SELECT DISTINCT ON (x.element->>'id') x.element->>'id' AS element_id,
           coalesce(x.element->>'name', '') AS name
    FROM tasks t CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(t.elements) = 'array' THEN t.elements ELSE '[]'::jsonb END)
      WITH ORDINALITY AS x(element, position)
    WHERE t.store_id = store AND t.day = target_day AND t.module = 'temperatures'
      AND jsonb_typeof(x.element) = 'object' AND x.element->>'id' IS NOT NULL
    ORDER BY x.element->>'id', t.start, t.name, x.position
  ) e
  LEFT JOIN (
    SELECT element_id,
           count(*) FILTER (WHERE in_range)::integer AS in_range,
           count(*) FILTER (WHERE NOT in_range)::integer AS out_of_range,
           (array_agg(temperature ORDER BY at DESC, start DESC, task_name DESC, position DESC))[1]
             AS last_temperature,
           to_timestamp(max(at)) AS last_reading_at
    FROM (
      SELECT x.entry->>'element' AS element_id, t.start, t.name AS task_name, x.position,
             mise_json_number(x.entry->'temperature') AS temperature,
             coalesce(mise_json_number(x.entry->'timestamp'),
                      extract(epoch FROM t.completed_timestamp)::double precision, 0) AS at,
             (b.maximum IS NULL OR mise_json_number(x.entry->'temperature') <= b.maximum)
               AND (b.minimum IS NULL OR mise_json_number(x.entry->'temperature') >= b.minimum)
               AND (mise_json_number(x.entry->'control_temperature') IS NULL
                 OR ((b.maximum IS NULL OR mise_json_number(x.entry->'control_temperature') <= b.maximum)
                   AND (b.minimum IS NULL OR mise_json_number(x.entry->'control_temperature') >= b.minimum)))
               AS in_range
      FROM tasks t CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(t.result->'entries') = 'array' THEN t.result->'entries' ELSE '[]'::jsonb END)
        WITH ORDINALITY AS x(entry, position)
      LEFT JOIN LATERAL (
        SELECT mise_json_number(bound->'minimum_temperature') AS minimum,
               mise_json_number(bound->'maximum_temperature') AS maximum
        FROM jsonb_array_elements(
          CASE WHEN jsonb_typeof(t.elements) = 'array' THEN t.elements ELSE '[]'::jsonb END) bound
        WHERE jsonb_typeof(bound) = 'object' AND bound->>'id' = x.entry->>'element'
        LIMIT 1
      ) b ON true
      WHERE t.store_id = store AND t.day = target_day AND t.module = 'temperatures'
        AND jsonb_typeof(x.entry) = 'object' AND x.entry->>'element' IS NOT NULL
        AND mise_json_number(x.entry->'temperature') IS NOT NULL
    ) readings
    GROUP BY element_id
  ) r ON r.element_id = e.element_id;
$$;
--> statement-breakpoint
CREATE FUNCTION mise_recount_equipment_days(store_ids uuid[], days date[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  pair record;
BEGIN
  -- In (store, day) order, so two writers of the same days never wait on each other in a cycle.
  FOR pair IN
    SELECT DISTINCT k.store_id, k.day FROM unnest(store_ids, days) AS k(store_id, day)
    WHERE k.store_id IS NOT NULL ORDER BY k.store_id, k.day
  LOOP
    PERFORM pg_advisory_xact_lock(
      hashtextextended('mise_store_day_equipment:' || pair.store_id::text || ':' || pair.day::text, 0));
    PERFORM mise_recount_store_day_equipment(pair.store_id, pair.day);
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION mise_tasks_summaries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM mise_store_day_score_deltas(array_agg(store_id), array_agg(day), array_agg(1),
        array_agg(start), array_agg(duration), array_agg(completed_timestamp), array_agg(result_anomaly))
      FROM new_rows WHERE postponed_task IS NULL;
    PERFORM mise_recount_oil_stores(array_agg(store_id))
      FROM new_rows WHERE module = 'oils' AND result IS NOT NULL;
    PERFORM mise_recount_equipment_days(array_agg(store_id), array_agg(day))
      FROM new_rows WHERE module = 'temperatures';
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM mise_store_day_score_deltas(array_agg(store_id), array_agg(day), array_agg(sign),
        array_agg(start), array_agg(duration), array_agg(completed_timestamp), array_agg(result_anomaly))
      FROM (SELECT *, 1 AS sign FROM new_rows WHERE postponed_task IS NULL
            UNION ALL SELECT *, -1 AS sign FROM old_rows WHERE postponed_task IS NULL) changed;
    PERFORM mise_recount_oil_stores(array_agg(n.store_id) || array_agg(o.store_id))
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.module = 'oils' OR o.module = 'oils')
       AND (n.result IS DISTINCT FROM o.result
         OR n.completed_timestamp IS DISTINCT FROM o.completed_timestamp
         OR n.store_id IS DISTINCT FROM o.store_id OR n.module IS DISTINCT FROM o.module
         OR n.start IS DISTINCT FROM o.start OR n.elements IS DISTINCT FROM o.elements);
    PERFORM mise_recount_equipment_days(array_agg(k.store_id), array_agg(k.day))
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      CROSS JOIN LATERAL (VALUES (n.store_id, n.day), (o.store_id, o.day)) AS k(store_id, day)
     WHERE (n.module = 'temperatures' OR o.module = 'temperatures')
       AND (n.result IS DISTINCT FROM o.result
         OR n.completed_timestamp IS DISTINCT FROM o.completed_timestamp
         OR n.store_id IS DISTINCT FROM o.store_id OR n.day IS DISTINCT FROM o.day
         OR n.module IS DISTINCT FROM o.module OR n.start IS DISTINCT FROM o.start
         OR n.name IS DISTINCT FROM o.name OR n.elements IS DISTINCT FROM o.elements);
  ELSE
    PERFORM mise_store_day_score_deltas(array_agg(store_id), array_agg(day), array_agg(-1),
        array_agg(start), array_agg(duration), array_agg(completed_timestamp), array_agg(result_anomaly))
      FROM old_rows WHERE postponed_task IS NULL;
    DELETE FROM store_day_scores s USING (SELECT DISTINCT store_id, day FROM old_rows) k
     WHERE s.store_id = k.store_id AND s.day = k.day AND s.on_time = 0
       AND s.on_time_with_anomaly = 0 AND s.late = 0 AND s.late_with_anomaly = 0 AND s.open = 0;
    PERFORM mise_recount_oil_stores(array_agg(store_id))
      FROM old_rows WHERE module = 'oils' AND result IS NOT NULL;
    PERFORM mise_recount_equipment_days(array_agg(store_id), array_agg(day))
      FROM old_rows WHERE module = 'temperatures';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tasks_summaries_insert AFTER INSERT ON tasks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mise_tasks_summaries();
--> statement-breakpoint
CREATE TRIGGER tasks_summaries_update AFTER UPDATE ON tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mise_tasks_summaries();
--> statement-breakpoint
CREATE TRIGGER tasks_summaries_delete AFTER DELETE ON tasks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mise_tasks_summaries();
--> statement-breakpoint
-- The summaries recounted from the tasks: the tasks already there when this migration runs,
-- and bulk loads that run with the triggers disabled (bench/history.ts).
CREATE FUNCTION mise_rebuild_home_summaries() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM store_day_scores;
  INSERT INTO store_day_scores
    (store_id, day, on_time, on_time_with_anomaly, late, late_with_anomaly, open)
  SELECT store_id, day,
    count(*) FILTER (WHERE completed_timestamp <= start + duration * interval '1 minute' AND result_anomaly IS NOT TRUE),
    count(*) FILTER (WHERE completed_timestamp <= start + duration * interval '1 minute' AND result_anomaly IS TRUE),
    count(*) FILTER (WHERE completed_timestamp > start + duration * interval '1 minute' AND result_anomaly IS NOT TRUE),
    count(*) FILTER (WHERE completed_timestamp > start + duration * interval '1 minute' AND result_anomaly IS TRUE),
    count(*) FILTER (WHERE completed_timestamp IS NULL)
  FROM tasks WHERE postponed_task IS NULL GROUP BY store_id, day;
  PERFORM mise_recount_store_oil_states(id) FROM stores;
  -- The equipment of recent days only: the home reads each store's today.
  DELETE FROM store_day_equipment;
  PERFORM mise_recount_store_day_equipment(store_id, day)
    FROM (SELECT DISTINCT store_id, day FROM tasks
          WHERE module = 'temperatures' AND day >= current_date - 1) recent;
END;
$$;
--> statement-breakpoint
SELECT mise_rebuild_home_summaries();

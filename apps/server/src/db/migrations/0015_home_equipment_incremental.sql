-- Issue 14 (bench/device-send.ts): a tablet's first result on a temperature task no longer
-- recounts its whole store-day's equipment summary (whose cost grows with the day's
-- temperature tasks, under the store-day's lock); it adds its readings to the kept rows.
-- Counts add up; the last reading moves only when the new one is strictly later. Anything
-- else falls back to mise_recount_store_day_equipment, as before: a correction (the task
-- had a result), a task whose day, start, name or elements change, a reading at the same
-- instant as the kept last one with another temperature (the recount's tie order needs every
-- reading; with the same temperature either order keeps the row as it is), an element of
-- the task without its row (a day never counted). Same (store, day) lock, same order.

-- The readings of some tasks of one store-day added to its kept rows; false when they cannot
-- be (the caller recounts). The rules of each reading are mise_recount_store_day_equipment's.
CREATE FUNCTION mise_add_store_day_readings(store uuid, target_day date, task_ids uuid[])
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  is_added boolean;
BEGIN
  IF EXISTS (
    SELECT 1 FROM public.tasks t CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(t.elements) = 'array' THEN t.elements ELSE '[]'::jsonb END) x(element)
    WHERE t.id = ANY(task_ids) AND jsonb_typeof(x.element) = 'object'
      AND x.element->>'id' IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM public.store_day_equipment s
                      WHERE s.store_id = store AND s.day = target_day
                        AND s.element_id = x.element->>'id')
  ) THEN
    RETURN false;
  END IF;
  WITH added AS (
    SELECT element_id,
           count(*) FILTER (WHERE in_range)::integer AS in_range,
           count(*) FILTER (WHERE NOT in_range)::integer AS out_of_range,
           (array_agg(temperature ORDER BY at DESC, start DESC, task_name DESC, position DESC))[1]
             AS last_temperature,
           to_timestamp(max(at)) AS last_reading_at
    FROM (
      SELECT x.entry->>'element' AS element_id, t.start, t.name AS task_name, x.position,
             public.mise_json_number(x.entry->'temperature') AS temperature,
             coalesce(public.mise_json_number(x.entry->'timestamp'),
                      extract(epoch FROM t.completed_timestamp)::double precision, 0) AS at,
             (b.maximum IS NULL OR public.mise_json_number(x.entry->'temperature') <= b.maximum)
               AND (b.minimum IS NULL OR public.mise_json_number(x.entry->'temperature') >= b.minimum)
               AND (public.mise_json_number(x.entry->'control_temperature') IS NULL
                 OR ((b.maximum IS NULL OR public.mise_json_number(x.entry->'control_temperature') <= b.maximum)
                   AND (b.minimum IS NULL OR public.mise_json_number(x.entry->'control_temperature') >= b.minimum)))
               AS in_range
      FROM public.tasks t CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(t.result->'entries') = 'array' THEN t.result->'entries' ELSE '[]'::jsonb END)
        WITH ORDINALITY AS x(entry, position)
      LEFT JOIN LATERAL (
        SELECT public.mise_json_number(bound->'minimum_temperature') AS minimum,
               public.mise_json_number(bound->'maximum_temperature') AS maximum
        FROM jsonb_array_elements(
          CASE WHEN jsonb_typeof(t.elements) = 'array' THEN t.elements ELSE '[]'::jsonb END) bound
        WHERE jsonb_typeof(bound) = 'object' AND bound->>'id' = x.entry->>'element'
        LIMIT 1
      ) b ON true
      WHERE t.id = ANY(task_ids) AND t.store_id = store AND t.day = target_day
        AND t.module = 'temperatures'
        AND jsonb_typeof(x.entry) = 'object' AND x.entry->>'element' IS NOT NULL
        AND public.mise_json_number(x.entry->'temperature') IS NOT NULL
    ) readings
    GROUP BY element_id
  ), tie AS (
    SELECT 1 FROM added r JOIN public.store_day_equipment s
      ON s.store_id = store AND s.day = target_day AND s.element_id = r.element_id
    WHERE s.last_reading_at = r.last_reading_at
      AND s.last_temperature IS DISTINCT FROM r.last_temperature
  ), updated AS (
    UPDATE public.store_day_equipment s SET
      in_range = s.in_range + r.in_range,
      out_of_range = s.out_of_range + r.out_of_range,
      last_temperature = CASE WHEN s.last_reading_at IS NULL OR r.last_reading_at > s.last_reading_at
                              THEN r.last_temperature ELSE s.last_temperature END,
      last_reading_at = CASE WHEN s.last_reading_at IS NULL OR r.last_reading_at > s.last_reading_at
                             THEN r.last_reading_at ELSE s.last_reading_at END
    FROM added r
    WHERE s.store_id = store AND s.day = target_day AND s.element_id = r.element_id
      AND NOT EXISTS (SELECT 1 FROM tie)
    RETURNING 1
  )
  SELECT NOT EXISTS (SELECT 1 FROM tie) INTO is_added;
  RETURN is_added;
END;
$$;
--> statement-breakpoint
-- The equipment of the (store, day) pairs an update touched: each pair locked in order, then
-- its first results added (every changed row of the pair is one) or the pair recounted.
CREATE FUNCTION mise_update_equipment_days(store_ids uuid[], days date[], task_ids uuid[],
    are_first_results boolean[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  pair record;
BEGIN
  FOR pair IN
    SELECT k.store_id, k.day, bool_and(k.is_first_result) AS is_addition,
           array_agg(DISTINCT k.task_id) AS task_ids
    FROM unnest(store_ids, days, task_ids, are_first_results) AS k(store_id, day, task_id, is_first_result)
    WHERE k.store_id IS NOT NULL
    GROUP BY k.store_id, k.day ORDER BY k.store_id, k.day
  LOOP
    PERFORM pg_advisory_xact_lock(
      hashtextextended('mise_store_day_equipment:' || pair.store_id::text || ':' || pair.day::text, 0));
    IF NOT (pair.is_addition AND public.mise_add_store_day_readings(pair.store_id, pair.day, pair.task_ids)) THEN
      PERFORM public.mise_recount_store_day_equipment(pair.store_id, pair.day);
    END IF;
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION mise_tasks_summaries() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- A first result: the task had none and keeps its store, day, module, start, name and
    -- elements, so only its readings are new to its day.
    PERFORM mise_update_equipment_days(array_agg(k.store_id), array_agg(k.day), array_agg(n.id),
        array_agg(o.result IS NULL AND n.module = 'temperatures' AND o.module = 'temperatures'
          AND n.store_id = o.store_id AND n.day = o.day AND n.start = o.start
          AND n.name = o.name AND n.elements IS NOT DISTINCT FROM o.elements))
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

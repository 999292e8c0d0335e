import pg from 'pg';

/**
 * A large organisation for the task-generation benchmark, in a few set-based statements: one
 * distributor and database, `stores` stores (mostly Paris, some London and New York),
 * 40 database elements and `configurations` database task configurations of two schedule
 * windows each (temperatures, actions and oils, all daily so a day's volume is exactly
 * stores × configurations × 2), anchored `anchor`; one store in ten overrides the schedule
 * of three configurations (the store-level merge is exercised too).
 */
export async function addTaskScaleData(
  url: string,
  options: { stores: number; configurations: number; anchor: string },
): Promise<{ databaseId: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const distributor = await client.query<{ id: string }>(
      `INSERT INTO distributors (name, city) VALUES ('Bench Distribution', 'Paris') RETURNING id`,
    );
    const database = await client.query<{ id: string }>(
      `INSERT INTO databases (name, distributor_id) VALUES ('Bench Chain', $1) RETURNING id`,
      [distributor.rows[0]!.id],
    );
    const databaseId = database.rows[0]!.id;
    await client.query(
      // Opened a year ago: generation makes no task scheduled before a store's creation.
      `INSERT INTO stores (name, address, postal_code, city, distributor_id, database_id, timezone_name,
              created_at)
       SELECT 'Bench store ' || i, i || ' rue du Marché', '75001', 'Paris', $1, $2,
              CASE WHEN i % 10 = 0 THEN 'America/New_York' WHEN i % 10 = 1 THEN 'Europe/London'
                   ELSE 'Europe/Paris' END,
              now() - interval '1 year'
       FROM generate_series(1, $3) AS i`,
      [distributor.rows[0]!.id, databaseId, options.stores],
    );
    await client.query(
      `INSERT INTO database_elements (database_id, name, minimum_temperature, maximum_temperature,
              oils_module_active, maximum_polarity)
       SELECT $1, 'Élément ' || i, CASE WHEN i <= 30 THEN 0 END, CASE WHEN i <= 30 THEN 4 END,
              i > 30, 25
       FROM generate_series(1, 40) AS i`,
      [databaseId],
    );
    // Configurations: module by position, 3–5 elements or 4 actions, windows 08:00 + 30 min × n.
    await client.query(
      `WITH elements AS (
         SELECT array_agg(id ORDER BY name) FILTER (WHERE maximum_temperature IS NOT NULL) AS cold,
                array_agg(id ORDER BY name) FILTER (WHERE oils_module_active) AS oils
         FROM database_elements WHERE database_id = $1)
       INSERT INTO task_configurations (database_id, module, name, recurrence, recurrence_anchor,
              starts, durations, configuration, locks)
       SELECT $1, m.module, 'Tâche ' || lpad(i::text, 2, '0'), 'FREQ=DAILY;INTERVAL=1', $2::date,
              ARRAY[360 + (i % 20) * 15, 960 + (i % 20) * 15], ARRAY[60, 60],
              CASE m.module
                WHEN 'temperatures' THEN jsonb_build_object(
                  'temperature_elements', to_jsonb(e.cold[1 + (i % 25):3 + (i % 25) + (i % 3)]),
                  'is_delivery', false, 'automatic', false)
                WHEN 'oils' THEN jsonb_build_object('oil_elements', to_jsonb(e.oils[1:2]))
                ELSE jsonb_build_object('actions', (
                  SELECT jsonb_agg(jsonb_build_object('name', 'Action ' || a,
                         'requires_picture', a = 1, 'attachments', '[]'::jsonb))
                  FROM generate_series(1, 4) AS a))
              END,
              jsonb_build_object('active', true, 'configuration', true, 'description', true,
                'schedule', false, 'name', true, 'recurrence', true, 'requires_manager', true,
                'type_id', true, 'notify_late', true)
       FROM generate_series(1, $3) AS i, elements e,
            LATERAL (SELECT CASE WHEN i % 3 = 0 THEN 'temperatures' WHEN i % 7 = 0 THEN 'oils'
                                 ELSE 'actions' END AS module) m`,
      [databaseId, options.anchor, options.configurations],
    );
    await client.query(
      `INSERT INTO store_task_configurations (store_id, origin_id, starts, durations)
       SELECT s.id, c.id, ARRAY[420, 1080], ARRAY[45, 45]
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM stores WHERE database_id = $1) s
       CROSS JOIN (SELECT id FROM task_configurations WHERE database_id = $1 ORDER BY name LIMIT 3) c
       WHERE s.n % 10 = 0`,
      [databaseId],
    );
    await client.query('ANALYZE');
    return { databaseId };
  } finally {
    await client.end();
  }
}

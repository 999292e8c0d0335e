import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { storeTaskConfigurations, taskConfigurations } from '../../db/schema';
import { effectiveStoreConfiguration } from './task-configuration-values';

type Executor = Pick<Database, 'select' | 'execute'>;

/**
 * A store leaves its database (to be called by stores.service assignDatabase, in the same
 * transaction, like the elements' detachStoreOverrides): each of its overrides of that
 * database's task configurations becomes a configuration of the store's own holding the
 * effective values, module and recurrence anchor (origin_id null). Element references to the
 * old database's elements stay in the content but no longer resolve for the store (the
 * generation leaves them out). Answers how many configurations were detached.
 */
export async function detachStoreTaskConfigurationOverrides(
  tx: Executor,
  store: { id: string; database_id: string | null },
): Promise<number> {
  if (!store.database_id) return 0;
  const rows = await tx
    .select({ row: storeTaskConfigurations, origin: taskConfigurations })
    .from(storeTaskConfigurations)
    .innerJoin(taskConfigurations, eq(taskConfigurations.id, storeTaskConfigurations.origin_id))
    .where(
      and(
        eq(storeTaskConfigurations.store_id, store.id),
        eq(taskConfigurations.database_id, store.database_id),
      ),
    );
  if (rows.length === 0) return 0;
  // One statement for all of them: the effective values travel as one JSON parameter.
  const payload = JSON.stringify(
    rows.map(({ row, origin }) => {
      const effective = effectiveStoreConfiguration(row, origin);
      const values = effective.values;
      return {
        id: row.id,
        module: effective.module,
        name: values.name,
        description: values.description,
        type_id: values.type_id,
        active: values.active,
        recurrence: values.recurrence,
        recurrence_anchor: effective.recurrence_anchor,
        starts: values.starts,
        durations: values.durations,
        requires_manager: values.requires_manager,
        notify_late: values.notify_late,
        configuration: values.configuration,
      };
    }),
  );
  await tx.execute(sql`
    update ${storeTaskConfigurations} as c
       set origin_id = null,
           module = v.module,
           name = v.name,
           description = v.description,
           type_id = v.type_id,
           active = v.active,
           recurrence = v.recurrence,
           recurrence_anchor = v.recurrence_anchor,
           starts = array(select x::int from jsonb_array_elements_text(v.starts)
                        with ordinality as t(x, n) order by n),
           durations = array(select x::int from jsonb_array_elements_text(v.durations)
                        with ordinality as t(x, n) order by n),
           requires_manager = v.requires_manager,
           notify_late = v.notify_late,
           configuration = v.configuration,
           version = c.version + 1,
           updated_at = now()
      from json_to_recordset(${payload}::json) as v(
             id uuid, module text, name text, description text, type_id uuid, active boolean,
             recurrence text, recurrence_anchor date, starts jsonb, durations jsonb,
             requires_manager boolean, notify_late boolean, configuration jsonb)
     where c.id = v.id`);
  return rows.length;
}

import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { storeTaskConfigurations, taskConfigurations } from '../../db/schema';
import { effectiveStoreConfiguration } from './task-configuration-values';

type Executor = Pick<Database, 'select' | 'update'>;

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
  for (const { row, origin } of rows) {
    const effective = effectiveStoreConfiguration(row, origin);
    const values = effective.values;
    await tx
      .update(storeTaskConfigurations)
      .set({
        origin_id: null,
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
        version: sql`${storeTaskConfigurations.version} + 1`,
        updated_at: new Date(),
      })
      .where(eq(storeTaskConfigurations.id, row.id));
  }
  return rows.length;
}

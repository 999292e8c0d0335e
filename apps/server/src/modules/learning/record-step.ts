import type { DeviceCommunicationResultBody } from '@mise/shared/communications/schemas';
import type { DeviceTrainingResultBody } from '@mise/shared/trainings/schemas';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type communicationResultSteps,
  type communicationResults,
  employees,
  stores,
  storeTagLinks,
  type trainingResultSteps,
  type trainingResults,
} from '../../db/schema';
import { notFound } from '../../platform/errors';
import { storeTagIds } from './learning-stats';

/*
 * An employee's steps through a communication or a training on the tablet (spec 002, issue 18):
 * 'view', 'skip' (put off) and 'complete', each applied once per idempotency key. Both keep one
 * result row per item and employee (time spent, times put off, the completion) and the steps
 * applied to it by key; what differs is passed in (their tables, ids and checks).
 */

/** Who sends a step: the tablet's store and device, and the employee identified on it. */
export type TabletReader = { storeId: string; deviceId: string; employee: { id: string } };

/**
 * The tablet's store with its database, distributor and tags, and the identified employee's
 * role: what decides whether an item aims at the employee (employeeTargeted).
 */
export async function readerContext(db: Database, reader: TabletReader) {
  const [store] = await db
    .select({
      id: stores.id,
      database_id: stores.database_id,
      distributor_id: stores.distributor_id,
      tag_ids: storeTagIds,
    })
    .from(stores)
    .leftJoin(storeTagLinks, eq(storeTagLinks.store_id, stores.id))
    .where(eq(stores.id, reader.storeId))
    .groupBy(stores.id);
  if (!store) throw notFound();
  const [employee] = await db
    .select({ role_id: employees.role_id })
    .from(employees)
    .where(eq(employees.id, reader.employee.id));
  return { store, roleId: employee?.role_id ?? null };
}

/** One kind of item's tables: each employee's result, and the steps applied to it by key. */
export type StepTables =
  | { results: typeof communicationResults; steps: typeof communicationResultSteps }
  | { results: typeof trainingResults; steps: typeof trainingResultSteps };

type NewResult =
  | Omit<typeof communicationResults.$inferInsert, 'employee_id'>
  | Omit<typeof trainingResults.$inferInsert, 'employee_id'>;

type CompletedIn =
  | Partial<typeof communicationResults.$inferInsert>
  | Partial<typeof trainingResults.$inferInsert>;

/** A step as the tablet sends it (a completion carries its quiz answers). */
export type StepBody = DeviceCommunicationResultBody | DeviceTrainingResultBody;

export type StepRecording<Answer> = {
  tables: StepTables;
  /** The employee's result of the item: its item column and employee column. */
  resultOf: SQL | undefined;
  /** The columns of a new result row besides the employee (the item's and the store's ids). */
  newResult: NewResult;
  /** What a completion writes besides its time and answers (the store it was made in). */
  completedIn: CompletedIn;
  reader: TabletReader;
  body: StepBody;
  now: Date;
  /** Refuses a new step the item no longer takes (a retry of an applied one answers first). */
  assertApplicable: () => void;
  /** The answer: the item as the employee has it now. */
  current: () => Promise<Answer>;
};

/**
 * Records one step: a step already applied (a retry) answers the current state, whatever the
 * item has become since; a new one adds its time, counts a skip while not completed, and stamps
 * the completion with the server's time, once.
 */
export async function recordStep<Answer>(db: Database, recording: StepRecording<Answer>) {
  const { tables, reader, body, now } = recording;
  const { results, steps } = tables;
  const [known] = await db
    .select({ result_id: steps.result_id })
    .from(steps)
    .where(
      and(eq(steps.store_id, reader.storeId), eq(steps.idempotency_key, body.idempotency_key)),
    );
  if (known) return recording.current();
  recording.assertApplicable();
  await db.transaction(async (tx) => {
    await tx
      .insert(results)
      .values({
        ...recording.newResult,
        employee_id: reader.employee.id,
        first_seen_at: now,
        updated_at: now,
      })
      .onConflictDoNothing();
    const [result] = await tx.select().from(results).where(recording.resultOf).for('update');
    const [step] = await tx
      .insert(steps)
      .values({
        store_id: reader.storeId,
        idempotency_key: body.idempotency_key,
        result_id: result!.id,
        device_id: reader.deviceId,
        action: body.action,
        time_spent: body.time_spent,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ key: steps.idempotency_key });
    // Another request with the same key got there first: nothing to add.
    if (!step) return;
    const isCompleted = result!.completed_at !== null;
    await tx
      .update(results)
      .set({
        time_spent: sql`${results.time_spent} + ${body.time_spent}`,
        skipped_count:
          body.action === 'skip' && !isCompleted
            ? sql`${results.skipped_count} + 1`
            : results.skipped_count,
        ...(body.action === 'complete' && !isCompleted
          ? { completed_at: now, answers: body.answers ?? {}, ...recording.completedIn }
          : {}),
        updated_at: now,
      })
      .where(eq(results.id, result!.id));
  });
  return recording.current();
}

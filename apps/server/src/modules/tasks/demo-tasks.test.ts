import { dayInZone } from '@mise/shared/tasks/rules';
import { count, eq, inArray, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  employeeStores,
  employees,
  stores,
  taskGenerationRuns,
  taskResultRevisions,
  tasks,
} from '../../db/schema';
import { seedDemo } from '../../db/seed/demo';
import { seedDemoTasks } from '../../db/seed/demo-tasks';
import { verifyPassword } from '../../platform/auth/passwords';
import { resolveScope } from '../../platform/scope';
import { buildDatabase, buildDatabaseElement, buildStore } from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { listStoreTasks } from './tasks.service';

const context = useTestApp();

describe('demo tasks', () => {
  it('seeds 60 days of history and today, completed plausibly, fast and once', async () => {
    const startedAt = performance.now();
    await seedDemo(context.db);
    const elapsed = performance.now() - startedAt;
    console.info(`demo seed with tasks: ${Math.round(elapsed)} ms (${process.env.TEST_DB})`);
    expect(elapsed).toBeLessThan(15_000);

    const demoStores = await context.db
      .select()
      .from(stores)
      .where(
        inArray(stores.name, [
          'Bistro Paris Opéra',
          'Bistro Lyon Bellecour',
          'Bistro Lille Centre',
        ]),
      );
    const ids = demoStores.map((store) => store.id);
    const [{ value: total } = { value: 0 }] = await context.db
      .select({ value: count() })
      .from(tasks)
      .where(inArray(tasks.store_id, ids));
    expect(total).toBeGreaterThan(3 * 60 * 4);
    const runs = await context.db
      .select()
      .from(taskGenerationRuns)
      .where(inArray(taskGenerationRuns.store_id, ids));
    expect(runs).toHaveLength(3 * 61);

    // One revision per completion, keyed demo:<taskId>.
    const completed = await context.db
      .select()
      .from(tasks)
      .where(isNotNull(tasks.completed_timestamp));
    const revisions = await context.db
      .select()
      .from(taskResultRevisions)
      .where(eq(taskResultRevisions.kind, 'result'));
    expect(revisions).toHaveLength(completed.length);
    expect(
      revisions.every(
        (revision) =>
          revision.idempotency_key === `demo:${revision.task_id}` && revision.revision === 1,
      ),
    ).toBe(true);

    // A realistic mix of statuses over the history of Paris.
    const paris = demoStores.find((store) => store.name === 'Bistro Paris Opéra')!;
    const scope = {
      userId: 'x',
      role: 'admin' as const,
      isAll: true,
      distributorIds: [],
      databaseIds: [],
      ownedStoreIds: [],
    };
    const statuses = new Map<string, number>();
    const today = dayInZone(new Date(), paris.timezone_name);
    let outOfRange = 0;
    for (let back = 1; back <= 60; back += 1) {
      const day = new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const { items } = await listStoreTasks(context.db, scope, paris.id, day);
      for (const item of items) {
        statuses.set(item.status, (statuses.get(item.status) ?? 0) + 1);
        if (item.module === 'temperatures' && item.result) {
          const entries = (item.result as { entries: { element: string; temperature: number }[] })
            .entries;
          for (const entry of entries) {
            const element = item.elements.find((candidate) => candidate.id === entry.element)!;
            if (
              element.maximum_temperature !== null &&
              entry.temperature > element.maximum_temperature
            )
              outOfRange += 1;
          }
        }
      }
    }
    expect(statuses.get('done')).toBeGreaterThan(200);
    expect(statuses.get('done-late')).toBeGreaterThan(0);
    expect(statuses.get('non-finalized')).toBeGreaterThan(0);
    expect(statuses.get('postponed')).toBeGreaterThan(0);
    expect(outOfRange).toBeGreaterThan(0);

    // Employees with PIN 1234, linked to the demo stores.
    const staff = await context.db.select().from(employees);
    expect(staff.length).toBeGreaterThanOrEqual(6);
    expect(await verifyPassword(staff[0]!.pin_hash, '1234')).toBe(true);
    const links = await context.db
      .select()
      .from(employeeStores)
      .where(inArray(employeeStores.store_id, ids));
    expect(new Set(links.map((link) => link.store_id)).size).toBe(3);

    // A second start changes nothing.
    expect((await seedDemo(context.db)).isCreated).toBe(false);
    const [{ value: again } = { value: 0 }] = await context.db
      .select({ value: count() })
      .from(tasks)
      .where(inArray(tasks.store_id, ids));
    expect(again).toBe(total);
    void resolveScope;
  });

  it("generates each demo store's history on its own calendar (its time zone)", async () => {
    const database = await buildDatabase(context.db);
    await buildDatabaseElement(context.db, {
      database_id: database.id,
      temperatures_module_active: true,
      maximum_temperature: 4,
    });
    const paris = await buildStore(context.db, {
      database_id: database.id,
      created_at: new Date('2026-01-01T00:00:00Z'),
      timezone_name: 'Europe/Paris',
    });
    const kiritimati = await buildStore(context.db, {
      database_id: database.id,
      created_at: new Date('2026-01-01T00:00:00Z'),
      timezone_name: 'Pacific/Kiritimati',
    });
    // Paris 14:00 on the 10th; Kiritimati (UTC+14) 02:00 on the 11th.
    const now = new Date('2026-06-10T12:00:00Z');
    await seedDemoTasks(context.db, database.id, [paris, kiritimati], now);
    const daysOf = async (storeId: string) =>
      (
        await context.db
          .select({ day: taskGenerationRuns.day })
          .from(taskGenerationRuns)
          .where(eq(taskGenerationRuns.store_id, storeId))
      )
        .map((row) => row.day)
        .sort();
    const parisDays = await daysOf(paris.id);
    const farDays = await daysOf(kiritimati.id);
    expect([parisDays[0], parisDays.at(-1)]).toEqual(['2026-04-11', '2026-06-10']);
    expect([farDays[0], farDays.at(-1)]).toEqual(['2026-04-12', '2026-06-11']);
  });
});

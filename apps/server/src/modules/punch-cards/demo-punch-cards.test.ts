import { flagIncoherences } from '@mise/shared/people/rules';
import { eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { employees, punchEntries, stores } from '../../db/schema';
import { seedDemo } from '../../db/seed/demo';
import { useTestApp } from '../../test/harness';

const context = useTestApp();

describe('demo people', () => {
  it('gives every demo employee a role and two coherent weeks of punch cards but one incoherence in Lille today', async () => {
    const { db } = context;
    await seedDemo(db);
    const staff = await db.select().from(employees);
    expect(staff.length).toBeGreaterThan(0);
    expect(staff.every((employee) => employee.role_id !== null)).toBe(true);

    const entries = await db.select().from(punchEntries).where(isNull(punchEntries.deleted_at));
    expect(entries.length).toBeGreaterThan(100);
    const [lille] = await db.select().from(stores).where(eq(stores.name, 'Bistro Lille Centre'));
    const flagged: { store: string; employee: string }[] = [];
    const byCard = new Map<string, typeof entries>();
    for (const entry of entries) {
      const key = `${entry.store_id}|${entry.employee_id}`;
      byCard.set(key, [...(byCard.get(key) ?? []), entry]);
    }
    for (const [key, card] of byCard) {
      const rules = card.map((entry) => ({
        is_in: entry.is_in,
        timestamp: entry.timestamp.toISOString(),
        timestamp_modified: entry.timestamp_modified?.toISOString() ?? null,
      }));
      for (const item of flagIncoherences(rules)) {
        if (item.isIncoherent) {
          const [store, employee] = key.split('|');
          flagged.push({ store: store!, employee: employee! });
        }
      }
    }
    expect(flagged).toHaveLength(1);
    expect(flagged[0]!.store).toBe(lille!.id);
  });
});

import { describe, expect, it } from 'vitest';
import { stores } from '../../db/schema';
import { seedDemo } from '../../db/seed/demo';
import { useTestApp } from '../../test/harness';
import { verifyRecordsChain } from './verify';

const context = useTestApp();

describe('the demo records chain', () => {
  it('chains the seeded results and punch revisions: every demo store verifies intact', async () => {
    await seedDemo(context.db);
    const demoStores = await context.db.select({ id: stores.id, name: stores.name }).from(stores);
    let results = 0;
    let punches = 0;
    for (const store of demoStores) {
      const answer = await verifyRecordsChain(context.db, store.id);
      expect(answer, store.name).toMatchObject({ status: 'intact' });
      if (answer.status !== 'intact') continue;
      results += answer.counts.task_result_revision ?? 0;
      punches += answer.counts.punch_entry_revision ?? 0;
    }
    expect(results).toBeGreaterThan(500);
    expect(punches).toBeGreaterThan(100);
  });
});

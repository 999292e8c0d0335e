import { describe, expect, it } from 'vitest';
import { databases } from '../../db/schema';
import { demoEmails, demoPassword, seedDemo } from '../../db/seed/demo';
import { signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

describe('demo audits', () => {
  it('shows the manager a published audit done in one store of three, with a readable scored result', async () => {
    await seedDemo(context.db);
    const manager = await signIn(context.app, demoEmails.manager, demoPassword);
    const databaseId = (
      await context.db.select({ id: databases.id, name: databases.name }).from(databases)
    ).find((row) => row.name === 'Bistro Group')!.id;

    const home = await manager.inject({
      method: 'GET',
      url: `/api/databases/${databaseId}/audits/home`,
    });
    expect(home.json().items).toEqual([
      expect.objectContaining({ name: 'Audit hygiène mensuel', stores_done: 1, store_count: 3 }),
    ]);
    const auditId = home.json().items[0].id;
    const results = await manager.inject({ method: 'GET', url: `/api/audits/${auditId}/results` });
    const [result] = results.json().items;
    expect(result).toMatchObject({ status: 'submitted', store: { name: 'Bistro Lyon Bellecour' } });
    // Door closed (1/1), meat and fish (5/6), cleanliness answered (1/1), bins open (0/1).
    expect([result.score, result.max_score]).toEqual([7, 9]);
    const read = await manager.inject({ method: 'GET', url: `/api/audit-results/${result.id}` });
    expect(read.json().result.answers).toHaveLength(6);
  });
});

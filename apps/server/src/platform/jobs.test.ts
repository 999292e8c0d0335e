import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { useTestApp } from '../test/harness';
import { type JobQueue, startJobQueue } from './jobs';

const context = useTestApp();
const log = { error: () => {} };
const queues: JobQueue[] = [];
const handles: DatabaseHandle[] = [];

afterAll(async () => {
  for (const queue of queues) await queue.stop();
  for (const handle of handles) await handle.close();
});

describe('job queue (pg-boss on both drivers)', () => {
  it('a job sent once runs once across two instances, and survives in the database', async () => {
    const runs: string[] = [];
    const job = (instance: string) => ({
      name: 'test-tick',
      cron: '0 0 1 1 *',
      handler: async () => {
        runs.push(instance);
      },
    });
    // A second instance: its own pool on PostgreSQL; PGlite is one process with one connection.
    const second =
      context.database.driver === 'pg'
        ? await openDatabase({
            driver: 'pg',
            url: (context.database.pool!.options as { connectionString: string }).connectionString,
            poolSize: 2,
          })
        : context.database;
    if (second !== context.database) handles.push(second);
    queues.push(await startJobQueue(context.database, [job('one')], log));
    queues.push(await startJobQueue(second, [job('two')], log));
    const id = await queues[0]!.boss.send('test-tick', {});
    expect(id).toBeTruthy();
    const deadline = Date.now() + 15_000;
    while (runs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // Both workers poll every 2 s: give the other one time to (wrongly) take it too.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(runs).toHaveLength(1);
    const stored = await queues[1]!.boss.getJobById('test-tick', id!);
    expect(stored?.state).toBe('completed');
    const schedules = await queues[0]!.boss.getSchedules();
    expect(schedules.map((schedule) => schedule.name)).toContain('test-tick');
  }, 30_000);
});

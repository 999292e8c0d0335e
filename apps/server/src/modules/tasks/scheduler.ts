import type { Database } from '../../db/client';
import {
  type DueRunSummary,
  generateDueStores,
  type LoadConfigurations,
} from './generation.service';

export type TaskSchedulerDeps = {
  db: Database;
  log?: {
    info(object: object, message: string): void;
    error(object: object, message: string): void;
  };
  /** Default one minute. */
  intervalMs?: number;
  /** The clock (tests inject it). */
  clock?: () => Date;
  loadConfigurations?: LoadConfigurations;
  /** Called after each pass (tests and the bench watch it). */
  onPass?: (summary: DueRunSummary) => void;
};

/**
 * Runs task generation at start (the catch-up: every store whose hour passed today without a
 * run) and then every minute. A pass still running when the next tick comes makes that tick
 * a no-op. Several instances may run it at once: the (store, day) claims make each day
 * generated once. The timer is unref'd, so it never keeps the process alive. Returns a stop
 * function that clears the timer and waits for the pass in progress.
 */
export function startTaskScheduler(deps: TaskSchedulerDeps): () => Promise<void> {
  const clock = deps.clock ?? (() => new Date());
  let running: Promise<void> | null = null;
  let isStopped = false;
  const tick = () => {
    if (running || isStopped) return;
    running = generateDueStores(deps.db, clock(), { loadConfigurations: deps.loadConfigurations })
      .then((summary) => {
        if (summary.due > 0) deps.log?.info({ ...summary }, 'task generation pass');
        deps.onPass?.(summary);
      })
      .catch((error: unknown) => {
        deps.log?.error({ err: error }, 'task generation pass failed');
      })
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, deps.intervalMs ?? 60_000);
  timer.unref();
  return async () => {
    isStopped = true;
    clearInterval(timer);
    await running;
  };
}

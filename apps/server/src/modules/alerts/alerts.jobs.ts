import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import { runAlertTick, type TickSummary } from './alerts.engine';
import { deliverNotifications } from './alerts.notify';

type Logger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
};

/**
 * One alert pass: evaluate every probe, tell the live screens, send what is owed. Exported for
 * the tests and the bench; the job queue runs it every minute.
 */
export async function runAlertPass(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'push' | 'events' | 'config'>,
  now: Date,
  log?: Logger,
): Promise<TickSummary & { sent: number }> {
  const summary = await runAlertTick(deps.db, now);
  for (const event of summary.events) await deps.events.publish(event);
  const sent = await deliverNotifications(
    { db: deps.db, mailer: deps.mailer, push: deps.push, publicUrl: deps.config.PUBLIC_URL, log },
    now,
  );
  if (summary.opened + summary.resolved + summary.escalated + sent > 0)
    log?.info({ ...summary, events: summary.events.length, sent }, 'alert pass');
  return { ...summary, sent };
}

export function alertJob(deps: AppDeps, log: Logger): RecurringJob {
  return {
    name: 'probe-alerts',
    cron: '* * * * *',
    handler: async () => {
      await runAlertPass(deps, deps.now(), log);
    },
  };
}

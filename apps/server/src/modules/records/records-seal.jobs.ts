import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import { publishCheckpoints, writeCheckpoints } from './checkpoints';
import { runRetention } from './retention';
import { chainProbeReadingDays } from './sources/probe-readings-days';

type Logger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
};

/**
 * One sealing pass (issue 21): the probe days sealed since the last pass are chained, the store
 * days over get their checkpoint, and the checkpoints not published yet are e-mailed to the
 * owners. Each step is idempotent; one failing does not stop the next (the pass then fails, so
 * the queue logs it). Exported for the tests.
 */
export async function runRecordsSeal(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  now: Date,
  log?: Logger,
): Promise<{ probeDays: number; checkpoints: number; mails: number }> {
  const summary = { probeDays: 0, checkpoints: 0, mails: 0 };
  const failures: unknown[] = [];
  try {
    summary.probeDays = (await chainProbeReadingDays(deps.db, now)).appended;
  } catch (error) {
    failures.push(error);
  }
  try {
    summary.checkpoints = await writeCheckpoints(deps.db, now);
  } catch (error) {
    failures.push(error);
  }
  try {
    summary.mails = await publishCheckpoints(
      { db: deps.db, mailer: deps.mailer, publicUrl: deps.config.PUBLIC_URL },
      now,
      log,
    );
  } catch (error) {
    failures.push(error);
  }
  if (summary.probeDays + summary.checkpoints + summary.mails > 0)
    log?.info(summary, 'records seal');
  if (failures.length > 0) throw failures[0];
  return summary;
}

/** Hourly (store days end at every hour of UTC): see runRecordsSeal. On the job queue. */
export function recordsSealJob(deps: AppDeps, log: Logger): RecurringJob {
  return {
    name: 'records-seal',
    cron: '20 * * * *',
    handler: async () => {
      await runRecordsSeal(deps, deps.now(), log);
    },
  };
}

/**
 * Daily, before the probe partitions' job (03:17): the records past their database's retention
 * removed, with their tombstones (records/retention.ts). Once across instances (the queue).
 */
export function recordsRetentionJob(deps: AppDeps, log: Logger): RecurringJob {
  return {
    name: 'records-retention',
    cron: '5 3 * * *',
    handler: async () => {
      const summary = await runRetention(deps, deps.now(), log);
      if (summary.tombstones + summary.files + summary.failures > 0) {
        log.info(summary, 'records retention');
      }
    },
  };
}

import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import {
  createStorageLister,
  removeUnreferencedFiles,
  type SweepOptions,
  type SweepSummary,
} from './unreferenced-files';
import { cleanUpUploads } from './uploads.service';

type Logger = { info(object: object, message: string): void };

type CleanupDeps = Pick<AppDeps, 'config' | 'db' | 'storage' | 'now'>;

/**
 * One cleanup pass: the upload area's leftovers (unfinished uploads past their expiry, pieces
 * of finished ones, outcomes older than 24 h), then a bounded sweep of the files uploaded ahead
 * of a save that no row references after 24 h. Logs its counts.
 */
export async function runUploadsCleanup(
  deps: CleanupDeps,
  log: Logger,
  options: Omit<SweepOptions, 'now'> = {},
): Promise<SweepSummary & { uploadsRemoved: number }> {
  const now = deps.now().getTime();
  const uploadsRemoved = await cleanUpUploads(deps.config, now);
  const swept = await removeUnreferencedFiles(
    { db: deps.db, storage: deps.storage, lister: createStorageLister(deps.config) },
    { ...options, now },
  );
  const summary = { uploadsRemoved, ...swept };
  log.info(summary, 'uploads cleanup');
  return summary;
}

/**
 * Hourly (bounded work a run, each run going on where the last stopped): see runUploadsCleanup.
 * On the job queue, so one instance runs it.
 */
export function uploadsCleanupJob(deps: CleanupDeps, log: Logger): RecurringJob {
  return {
    name: 'uploads-cleanup',
    cron: '41 * * * *',
    handler: async () => {
      await runUploadsCleanup(deps, log);
    },
  };
}

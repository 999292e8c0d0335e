import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import { cleanUpUploads } from './uploads.service';

type Logger = { info(object: object, message: string): void };

/**
 * Daily: unfinished uploads past their expiry (24 h after creation) and old outcomes leave
 * DATA_DIR/uploads. On the job queue, so one instance runs it (local disk: one instance or a
 * shared volume).
 */
export function uploadsCleanupJob(deps: Pick<AppDeps, 'config'>, log: Logger): RecurringJob {
  return {
    name: 'uploads-cleanup',
    cron: '41 3 * * *',
    handler: async () => {
      const removed = await cleanUpUploads(deps.config.DATA_DIR);
      if (removed > 0) log.info({ removed }, 'expired uploads removed');
    },
  };
}

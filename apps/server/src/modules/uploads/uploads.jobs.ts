import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import { cleanUpUploads } from './uploads.service';

type Logger = { info(object: object, message: string): void };

/**
 * Daily: unfinished uploads past their expiry (24 h after creation) and old outcomes leave the
 * upload area (DATA_DIR/uploads, or uploads/ in the bucket with the S3 driver). On the job
 * queue, so one instance runs it.
 */
export function uploadsCleanupJob(deps: Pick<AppDeps, 'config'>, log: Logger): RecurringJob {
  return {
    name: 'uploads-cleanup',
    cron: '41 3 * * *',
    handler: async () => {
      const removed = await cleanUpUploads(deps.config);
      if (removed > 0) log.info({ removed }, 'expired uploads removed');
    },
  };
}

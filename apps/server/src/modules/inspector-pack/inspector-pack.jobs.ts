import type { AppDeps } from '../../platform/deps';
import type { RecurringJob } from '../../platform/jobs';
import { buildPack } from './build-pack';
import {
  claimNextPack,
  failAbandonedPacks,
  failPack,
  finishPack,
  PackNotRunningError,
} from './inspector-pack.service';

/*
 * Who builds the packs (issue 21). A pack is a row: queued when asked for, claimed by one
 * instance (UPDATE … FOR UPDATE SKIP LOCKED, claimNextPack), built there with its progress
 * written to the row, then done or failed. The instance that answered the request starts at
 * once (no wait for a queue's poll); the recurring job (pg-boss, once a minute across the
 * instances) picks up what no instance started — a pack asked for just before a restart —
 * and fails builds abandoned by an instance that went away. The same code runs on PGlite
 * (one instance) and PostgreSQL (several). One build at a time per instance.
 */

type Logger = {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
};

export type PackRunner = {
  /** Builds the queued packs, one after the other, until none waits (returns when done). */
  kick(): Promise<void>;
  /** Stops taking packs and waits for the build in progress. */
  close(): Promise<void>;
};

const runners = new WeakMap<AppDeps['db'], PackRunner>();

/** The runner of an app (one per database handle: the routes and the job share it). */
export function packRunnerOf(deps: AppDeps, log: Logger): PackRunner {
  let runner = runners.get(deps.db);
  if (!runner) {
    runner = createPackRunner(deps, log);
    runners.set(deps.db, runner);
  }
  return runner;
}

function createPackRunner(deps: AppDeps, log: Logger): PackRunner {
  let running: Promise<void> | null = null;
  let isAskedAgain = false;
  let isClosed = false;

  const buildOne = async (): Promise<boolean> => {
    const pack = await claimNextPack(deps.db);
    if (!pack) return false;
    const started = Date.now();
    try {
      const outcome = await buildPack(deps, pack);
      const isKept = await finishPack(deps.db, pack.id, { ...outcome, at: deps.now() });
      if (!isKept) await deps.storage.delete(outcome.key).catch(() => {});
      log.info(
        { packId: pack.id, storeId: pack.store_id, bytes: outcome.size, ms: Date.now() - started },
        'inspector pack built',
      );
    } catch (error) {
      if (!(error instanceof PackNotRunningError)) {
        log.error({ err: error, packId: pack.id }, 'inspector pack failed');
        await failPack(deps.db, pack.id, 'inspector-pack/build-failed', deps.now()).catch(
          (failure) => log.error({ err: failure, packId: pack.id }, 'inspector pack not failed'),
        );
      }
    }
    return true;
  };

  const loop = async () => {
    do {
      isAskedAgain = false;
      while (!isClosed && (await buildOne())) {}
    } while (isAskedAgain && !isClosed);
  };

  return {
    kick() {
      if (isClosed) return Promise.resolve();
      if (running) {
        isAskedAgain = true;
        return running;
      }
      running = loop()
        .catch((error) => log.error({ err: error }, 'inspector pack runner failed'))
        .finally(() => {
          running = null;
        });
      return running;
    },
    async close() {
      isClosed = true;
      await running;
    },
  };
}

/** The recurring pass: abandoned builds failed, then every queued pack built. */
export function inspectorPackJob(deps: AppDeps, log: Logger): RecurringJob {
  return {
    name: 'inspector-packs',
    cron: '* * * * *',
    handler: async () => {
      const failed = await failAbandonedPacks(deps.db, deps.now());
      if (failed > 0) log.info({ failed }, 'abandoned inspector packs failed');
      await packRunnerOf(deps, log).kick();
    },
  };
}

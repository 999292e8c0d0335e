import type { Config } from '../config';
import type { Database, DatabaseHandle } from '../db/client';
import type { EventBus } from './events';
import type { Integrations } from './integrations';
import type { Mailer } from './mail';
import type { PushSender } from './push';
import type { Storage } from './storage';

/** What every module's routes receive: built once in buildApp. */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  mailer: Mailer;
  /** Web Push (VAPID); null when it cannot be set up. */
  push: PushSender | null;
  storage: Storage;
  integrations: Integrations;
  /** Live updates (NOTIFY/LISTEN fan-out to server-sent events). */
  events: EventBus;
  /**
   * The server's clock: every rule that depends on "now" (task windows, statuses) reads it
   * here, so tests can set the time (useTestApp({ now })). Records are stamped with it.
   */
  now: () => Date;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's dependencies, for the jobs main.ts starts beside the server. */
    deps: AppDeps;
  }
}

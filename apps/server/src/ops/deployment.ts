import { join } from 'node:path';
import type { Config } from '../config';
import { signingKeyPathOf } from '../modules/records/signing';
import {
  createLocalLister,
  createS3Lister,
  type StorageLister,
} from '../modules/uploads/unreferenced-files';
import { createLocalStorage, type Storage } from '../platform/storage';
import { createS3Storage } from '../platform/storage-s3';
import { type DataDirKeyFile, recordsKeyFile, vapidFile } from './backup-format';

/** Why the scripts do not back up or restore the embedded database, and what to do instead. */
export function embeddedDatabaseMessage(config: Pick<Config, 'DATA_DIR'>, verb: string): string {
  return [
    `DATABASE_URL is not set: this deployment runs on the embedded database (PGlite) in ${config.DATA_DIR}, which the ${verb} script does not handle (pg_dump and pg_restore need a PostgreSQL server).`,
    `Stop the server, then copy the whole DATA_DIR (pglite/, files/, vapid.json, records-signing.key), e.g.`,
    `  tar -C ${config.DATA_DIR} -czf mise-$(date +%F).tar.gz .`,
    'and restore by extracting the copy into an empty DATA_DIR before starting the server.',
    'See docs/operations.md, "Backups and restore".',
  ].join('\n');
}

/** The deployment's storage as the server makes it (app.ts), and its lister. */
export function configuredStorage(config: Config): {
  storage: Storage;
  lister: StorageLister;
  close(): void;
} {
  if (config.storage.driver === 's3') {
    const storage = createS3Storage(config.storage);
    return {
      storage,
      lister: createS3Lister(storage.client, config.storage.bucket),
      close: () => storage.client.destroy(),
    };
  }
  return {
    storage: createLocalStorage(join(config.DATA_DIR, 'files')),
    lister: createLocalLister(join(config.DATA_DIR, 'files')),
    close: () => {},
  };
}

/**
 * The key files of DATA_DIR a backup carries, where they are when their key comes from there:
 * vapid.json (Web Push, VAPID_* unset), records-signing.key (RECORDS_SIGNING_KEY unset).
 */
export function keyPathsOf(config: Config): Record<DataDirKeyFile, string | null> {
  return {
    [vapidFile]:
      config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY ? null : join(config.DATA_DIR, vapidFile),
    [recordsKeyFile]: signingKeyPathOf(config),
  };
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { assertValidKey } from '../platform/storage';

/*
 * A backup is a folder:
 *   manifest.json   what it holds (written last: a folder without it is an unfinished backup)
 *   database.dump   pg_dump's custom format, taken in one snapshot with the manifest's row counts
 *   objects.tsv     one line per stored object: sha256, bytes, key (tab-separated)
 *   objects/<key>   each object of the storage (local disk or S3), as stored
 *   data-dir/       files of DATA_DIR that are neither database nor storage (vapid.json,
 *                   records-signing.key)
 */

export const manifestFormat = 'mise-backup/1';
export const manifestFile = 'manifest.json';
export const dumpFile = 'database.dump';
export const objectIndexFile = 'objects.tsv';
export const objectsFolder = 'objects';
export const dataDirFolder = 'data-dir';
/** The Web Push keys made once when VAPID_* are unset (platform/push.ts). */
export const vapidFile = 'vapid.json';
/** The records key made once when RECORDS_SIGNING_KEY is unset (records/signing.ts). */
export const recordsKeyFile = 'records-signing.key';
/** The key files of DATA_DIR a backup carries. */
export const dataDirKeyFiles = [vapidFile, recordsKeyFile] as const;
export type DataDirKeyFile = (typeof dataDirKeyFiles)[number];

export type BackupManifest = {
  format: typeof manifestFormat;
  createdAt: string;
  appVersion: string;
  database: {
    serverVersion: string;
    dumpFile: string;
    dumpBytes: number;
    dumpSha256: string;
    migrations: { applied: number; last: string | null };
    /** Rows of every table (`schema.table`), counted in the dump's snapshot. */
    tables: Record<string, number>;
    rows: number;
  };
  storage: {
    driver: 'local' | 's3';
    objects: number;
    bytes: number;
    indexFile: string;
    /** Keys listed but left out: unfinished uploads, temporary files, keys the app never makes. */
    skipped: number;
    /** Objects listed but gone before they were read (deleted while the backup ran). */
    vanished: number;
  };
  /** Files of DATA_DIR kept beside (relative to data-dir/). */
  dataDirFiles: string[];
};

export type ObjectEntry = { sha256: string; size: number; key: string };

export function objectPath(backupDir: string, key: string): string {
  assertValidKey(key);
  return join(backupDir, objectsFolder, key);
}

export function formatObjectIndex(entries: ObjectEntry[]): string {
  return entries.map((entry) => `${entry.sha256}\t${entry.size}\t${entry.key}\n`).join('');
}

export function parseObjectIndex(text: string): ObjectEntry[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha256, size, key] = line.split('\t');
      if (!sha256 || !size || !key)
        throw new Error(`Malformed line in ${objectIndexFile}: ${line}`);
      return { sha256, size: Number(size), key };
    });
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Whether a listed key is the application's: unfinished resumable uploads and their outcomes
 * (`uploads/…`, the S3 driver's tus area, transient by design) and the local driver's
 * in-progress writes (`<key>.<12 hex>.partial`) are not, nor any key the app would refuse.
 */
export function isBackedUpKey(key: string): boolean {
  if (key.startsWith('uploads/')) return false;
  if (/\.[0-9a-f]{12}\.partial$/.test(key)) return false;
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function forEachLimited<T>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  for await (const item of items) {
    if (failure) break;
    const task = work(item).then(
      () => {
        running.delete(task);
      },
      (error: unknown) => {
        running.delete(task);
        failure ??= error;
      },
    );
    running.add(task);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure) throw failure;
}

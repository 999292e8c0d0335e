import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/server';
import type { Storage } from '../../platform/storage';
import type { UploadOutcome } from './uploads.service';

/**
 * An unfinished upload expires this long after its creation (tus expiration extension): its
 * partial bytes are removed by the hourly 'uploads-cleanup' job (docs/decisions.md).
 */
export const uploadExpiryMs = 24 * 60 * 60 * 1000;

/** An unfinished upload as the area keeps it. */
export type PartialUpload = {
  size: number;
  /** The bytes received so far. */
  offset: number;
  metadata: Record<string, string | null>;
};

/**
 * Where unfinished uploads and the outcomes of finished ones live: the local disk
 * (DATA_DIR/uploads) with the local storage driver, the app's bucket (uploads/partial/ and
 * uploads/done/) with the S3 driver, so that every instance behind a load balancer sees them.
 * Upload ids are the 32 hex characters of /api/uploads/<id>.
 */
export type UploadArea = {
  /** The tus datastore holding the unfinished uploads. */
  datastore: DataStore;
  /** The datastore's key for an upload id. */
  keyOf(id: string): string;
  /** An unfinished upload's size, metadata and offset; null if none. */
  findUpload(id: string): Promise<PartialUpload | null>;
  /** The first bytes of a complete upload (fewer when the file is shorter). */
  head(id: string, length: number): Promise<Buffer>;
  /** A stream of a complete upload. */
  open(id: string): Readable;
  /**
   * Stores a complete upload under `key` of the app's storage and answers its size; the upload
   * stays in the area until remove().
   */
  moveTo(id: string, key: string, storage: Storage): Promise<{ size: number }>;
  /** Removes an upload's bytes and info (once its outcome is recorded). */
  remove(id: string): Promise<void>;
  readOutcome(id: string): Promise<UploadOutcome | null>;
  writeOutcome(outcome: UploadOutcome): Promise<void>;
  forgetOutcome(id: string): Promise<void>;
  /**
   * Removes unfinished uploads past their expiry, leftovers (interrupted creations, complete
   * uploads never finished) and outcomes older than the expiry. Answers the entries removed.
   */
  cleanUp(now: number): Promise<number>;
  /** The names in the partial area (uploads, their info and leftovers), for checks. */
  listPartial(): Promise<string[]>;
};

/** Where uploads live on the local disk, under DATA_DIR/uploads. */
export function uploadDirectories(dataDir: string) {
  const root = join(dataDir, 'uploads');
  return {
    /** The tus file store: `<id>` (the bytes so far) and `<id>.json` (its info). */
    partial: join(root, 'partial'),
    /** The outcome of each finished upload, `<id>.json`, read by GET /api/uploads/:id. */
    done: join(root, 'done'),
  };
}

export function createLocalUploadArea(dataDir: string): UploadArea {
  const directories = uploadDirectories(dataDir);
  const store = new FileStore({
    directory: directories.partial,
    expirationPeriodInMilliseconds: uploadExpiryMs,
  });
  const pathOf = (id: string) => join(directories.partial, id);
  const outcomePath = (id: string) => join(directories.done, `${id}.json`);

  return {
    datastore: store,
    keyOf: (id) => id,
    async findUpload(id) {
      const info = await store.configstore.get(id);
      if (!info) return null;
      const file = await stat(pathOf(id)).catch(() => null);
      return {
        size: info.size ?? 0,
        offset: file?.size ?? 0,
        metadata: (info.metadata ?? {}) as Record<string, string | null>,
      };
    },
    async head(id, length) {
      const handle = await open(pathOf(id), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    open: (id) => createReadStream(pathOf(id)),
    moveTo: (id, key, storage) => storage.putFile(key, pathOf(id)),
    async remove(id) {
      await store.remove(id);
    },
    async readOutcome(id) {
      try {
        return JSON.parse(await readFile(outcomePath(id), 'utf8')) as UploadOutcome;
      } catch {
        return null;
      }
    },
    async writeOutcome(outcome) {
      await mkdir(directories.done, { recursive: true });
      const temporary = `${outcomePath(outcome.id)}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(outcome));
      await rename(temporary, outcomePath(outcome.id));
    },
    async forgetOutcome(id) {
      await rm(outcomePath(id), { force: true });
    },
    async cleanUp(now) {
      let removed = await store.deleteExpired().catch(() => 0);
      for (const directory of [directories.partial, directories.done]) {
        const names = await readdir(directory).catch(() => [] as string[]);
        for (const name of names) {
          const path = join(directory, name);
          const info = await stat(path).catch(() => null);
          if (info?.isFile() && now - info.mtimeMs > uploadExpiryMs) {
            await rm(path, { force: true });
            removed += 1;
          }
        }
      }
      return removed;
    },
    listPartial: () => readdir(directories.partial).catch(() => [] as string[]),
  };
}

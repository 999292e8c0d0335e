import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { FinishedUpload, UploadCaller, UploadPurposes } from './purposes';

/** The largest upload (spec 002 §5 and §9: 500 MB, 'documents.file-too-big'). */
export const maxUploadBytes = 500 * 1024 * 1024;

/**
 * An unfinished upload expires this long after its creation (tus expiration extension): its
 * partial file is removed by the daily 'uploads-cleanup' job (docs/decisions.md).
 */
export const uploadExpiryMs = 24 * 60 * 60 * 1000;

/** Upload ids: the tus server's default, 16 random bytes in hex. */
export const uploadIdPattern = /^[0-9a-f]{32}$/;

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

/** The server's own entries in an upload's metadata (never taken from the client). */
export const callerKey = 'mise-caller';

export const callerStamp = (caller: UploadCaller) =>
  caller.kind === 'user' ? `user:${caller.user.id}` : `device:${caller.device.id}`;

/** The outcome of a finished upload: what its purpose answered, or why it refused the file. */
export type UploadOutcome = {
  id: string;
  caller: string;
  purpose: string;
  owner: string;
  filename: string;
  size: number;
  status: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: { code: AppError['code']; message: string } | null;
  finishedAt: string;
};

export type UploadMetadata = {
  purpose: string;
  owner: string;
  filename: string;
  filetype: string;
  [callerKey]: string;
};

/**
 * The resumable uploads of one app: the tus server on the local disk, the finishing step that
 * hands a complete file to its purpose (once, whoever asks first), and the outcomes.
 */
export function createUploads(deps: AppDeps, purposes: UploadPurposes) {
  const directories = uploadDirectories(deps.config.DATA_DIR);
  const store = new FileStore({
    directory: directories.partial,
    expirationPeriodInMilliseconds: uploadExpiryMs,
  });
  /** The metadata a creation request was checked with, by request (see the routes). */
  const creations = new WeakMap<object, UploadMetadata>();
  const tus = new Server({
    path: '/api/uploads',
    datastore: store,
    maxSize: maxUploadBytes,
    // Location `/api/uploads/<id>`: never built from the Host header.
    relativeLocation: true,
    // Same-origin only: no Access-Control-Allow-Origin.
    allowedOrigins: [],
    async onUploadCreate(request, upload) {
      const metadata = creations.get(request);
      if (!metadata || upload.size === undefined) {
        throw { status_code: 500, body: 'Upload not prepared\n' };
      }
      // Only the checked entries are kept (and the caller, stamped by the server).
      return { metadata: { ...metadata } };
    },
  });

  const outcomePath = (id: string) => join(directories.done, `${id}.json`);

  async function readOutcome(id: string): Promise<UploadOutcome | null> {
    try {
      return JSON.parse(await readFile(outcomePath(id), 'utf8')) as UploadOutcome;
    } catch {
      return null;
    }
  }

  async function writeOutcome(outcome: UploadOutcome): Promise<void> {
    await mkdir(directories.done, { recursive: true });
    const temporary = `${outcomePath(outcome.id)}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(outcome));
    await rename(temporary, outcomePath(outcome.id));
  }

  /** An unfinished upload's info (size, metadata), without reading its bytes; null if none. */
  async function findUpload(id: string): Promise<Upload | null> {
    return ((await store.configstore.get(id)) as Upload | undefined) ?? null;
  }

  /** The bytes received so far. */
  async function offsetOf(id: string): Promise<number> {
    const info = await stat(join(directories.partial, id)).catch(() => null);
    return info?.size ?? 0;
  }

  async function headOf(path: string, length: number): Promise<Buffer> {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async function runFinish(id: string, caller: UploadCaller): Promise<UploadOutcome> {
    const known = await readOutcome(id);
    if (known) return known;
    const upload = await findUpload(id);
    if (!upload) throw new AppError('not-found');
    const metadata = upload.metadata as UploadMetadata;
    const path = join(directories.partial, id);
    const file: FinishedUpload = {
      id,
      owner: metadata.owner,
      filename: metadata.filename,
      filetype: metadata.filetype,
      size: upload.size ?? 0,
      head: (length) => headOf(path, length),
      open: () => createReadStream(path),
      moveTo: (key) => deps.storage.putFile(key, path),
    };
    const base = {
      id,
      caller: metadata[callerKey],
      purpose: metadata.purpose,
      owner: metadata.owner,
      filename: metadata.filename,
      size: file.size,
      finishedAt: deps.now().toISOString(),
    };
    let outcome: UploadOutcome;
    try {
      const purpose = purposes.get(metadata.purpose);
      if (!purpose) throw new AppError('validation/invalid-input', 'Unknown upload purpose.');
      const result = await purpose.complete(deps, caller, file);
      outcome = { ...base, status: 'completed', result, error: null };
    } catch (error) {
      // Anything else (database or storage down) keeps the upload: the next HEAD retries.
      if (!(error instanceof AppError)) throw error;
      outcome = {
        ...base,
        status: 'failed',
        result: null,
        error: { code: error.code, message: error.message },
      };
    }
    await writeOutcome(outcome);
    await store.remove(id).catch(() => {});
    return outcome;
  }

  const finishing = new Map<string, Promise<UploadOutcome>>();

  /**
   * Hands a complete upload to its purpose, once: a request that asks while another finishes
   * it waits for the same outcome; a later one reads the recorded outcome.
   */
  function finish(id: string, caller: UploadCaller): Promise<UploadOutcome> {
    let running = finishing.get(id);
    if (!running) {
      running = runFinish(id, caller).finally(() => finishing.delete(id));
      finishing.set(id, running);
    }
    return running;
  }

  return {
    tus,
    store,
    creations,
    directories,
    readOutcome,
    findUpload,
    offsetOf,
    finish,
    cleanUp: (now?: number) => cleanUpUploads(deps.config.DATA_DIR, now),
    async forget(id: string): Promise<void> {
      await rm(outcomePath(id), { force: true });
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;

/**
 * Removes unfinished uploads past their expiry (tus expiration extension), leftovers of
 * interrupted creations and outcomes older than the expiry. Answers the files removed.
 */
export async function cleanUpUploads(dataDir: string, now = Date.now()): Promise<number> {
  const directories = uploadDirectories(dataDir);
  const store = new FileStore({
    directory: directories.partial,
    expirationPeriodInMilliseconds: uploadExpiryMs,
  });
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
}

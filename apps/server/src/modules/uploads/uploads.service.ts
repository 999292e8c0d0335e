import { randomBytes } from 'node:crypto';
import { Server } from '@tus/server';
import type { Config } from '../../config';
import type { AppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { FinishedUpload, UploadCaller, UploadPurposes } from './purposes';
import { createLocalUploadArea, type UploadArea } from './upload-area';
import { createS3UploadArea } from './upload-area-s3';
import { createUploadLocker } from './upload-locker';

export { uploadDirectories, uploadExpiryMs } from './upload-area';

/** The largest upload (spec 002 §5 and §9: 500 MB, 'documents.file-too-big'). */
export const maxUploadBytes = 500 * 1024 * 1024;

/** Upload ids: the tus server's default, 16 random bytes in hex. */
export const uploadIdPattern = /^[0-9a-f]{32}$/;

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

/** Where unfinished uploads and outcomes live: the app's bucket with the S3 driver, else the disk. */
export function createUploadArea(config: Config): UploadArea {
  return config.storage.driver === 's3'
    ? createS3UploadArea(config.storage)
    : createLocalUploadArea(config.DATA_DIR);
}

type Logger = { warn(object: object, message: string): void };

/**
 * The resumable uploads of one app: the tus server on the upload area (local disk or the S3
 * bucket) with a lock per upload shared by every instance (advisory locks on PostgreSQL), the
 * finishing step that hands a complete file to its purpose (once, whoever asks first), and the
 * outcomes.
 */
export function createUploads(deps: AppDeps, purposes: UploadPurposes, log?: Logger) {
  const area = createUploadArea(deps.config);
  const locker = createUploadLocker(deps.database, log);
  /** The upload id (its last 32 hex characters) of a datastore key. */
  const idOf = (key: string) => key.slice(key.length - 32);
  /** The metadata a creation request was checked with, by request (see the routes). */
  const creations = new WeakMap<object, UploadMetadata>();
  const tus = new Server({
    path: '/api/uploads',
    datastore: area.datastore,
    locker,
    maxSize: maxUploadBytes,
    // The datastore's key holds the area's prefix (S3); URLs carry the bare id.
    namingFunction: () => area.keyOf(randomBytes(16).toString('hex')),
    // Location `/api/uploads/<id>`: relative, never built from the Host header.
    generateUrl: (_request, { path, id }) => `${path}/${idOf(id)}`,
    getFileIdFromRequest: (_request, lastPath) =>
      lastPath && uploadIdPattern.test(lastPath) ? area.keyOf(lastPath) : undefined,
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
  async function runFinish(id: string, caller: UploadCaller): Promise<UploadOutcome> {
    const known = await area.readOutcome(id);
    if (known) return known;
    const upload = await area.findUpload(id);
    if (!upload) throw new AppError('not-found');
    const metadata = upload.metadata as UploadMetadata;
    const file: FinishedUpload = {
      id,
      owner: metadata.owner,
      filename: metadata.filename,
      filetype: metadata.filetype,
      size: upload.size,
      head: (length) => area.head(id, length),
      open: () => area.open(id),
      moveTo: (key) => area.moveTo(id, key, deps.storage),
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
    await area.writeOutcome(outcome);
    // Only now does the upload leave the area: a failure before keeps it for a retry.
    await area.remove(id).catch(() => {});
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
    creations,
    /** A finished upload's outcome; null before (or once forgotten). */
    readOutcome: (id: string) => area.readOutcome(id),
    /** An unfinished upload's size, metadata and bytes received so far; null if none. */
    findUpload: (id: string) => area.findUpload(id),
    /** The bytes received so far (0 when the upload is unknown). */
    offsetOf: async (id: string) => (await area.findUpload(id))?.offset ?? 0,
    finish,
    cleanUp: (now = Date.now()) => area.cleanUp(now),
    forget: (id: string) => area.forgetOutcome(id),
    /** Closes the locker's connections (when the app closes). */
    close: () => locker.close(),
  };
}

export type Uploads = ReturnType<typeof createUploads>;

/**
 * Removes unfinished uploads past their expiry (tus expiration extension), leftovers of
 * interrupted creations and outcomes older than the expiry, wherever the upload area is.
 * Answers the entries removed.
 */
export function cleanUpUploads(config: Config, now = Date.now()): Promise<number> {
  return createUploadArea(config).cleanUp(now);
}

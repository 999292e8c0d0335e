import type { Readable } from 'node:stream';
import type { UserRow } from '../../platform/auth/sessions';
import type { AppDeps } from '../../platform/deps';
import type { Scope } from '../../platform/scope';

/** Who sends an upload: a signed-in user (with their scope) or a paired tablet. */
export type UploadCaller =
  | { kind: 'user'; user: UserRow; scope: Scope }
  | { kind: 'device'; device: { id: string; storeId: string } };

/** What the client declared in Upload-Metadata (checked at creation). */
export type UploadDeclaration = {
  /** The record the file is for, e.g. an element id (the purpose parses it). */
  owner: string;
  /** The file's name as the user sees it (no directory part). */
  filename: string;
  /** The declared content type (Upload-Metadata `filetype`). */
  filetype: string;
  /** Upload-Length in bytes. */
  size: number;
};

/** A finished upload, still in the resumable store: the purpose moves it into storage. */
export type FinishedUpload = UploadDeclaration & {
  /** The tus upload id (32 hex characters): stable across retries, usable as an idempotency key. */
  id: string;
  /** The first bytes of the file (magic-byte checks). */
  head(length: number): Promise<Buffer>;
  /** A stream of the whole file. */
  open(): Readable;
  /**
   * Stores the file under `key` (built by the server) and answers its size: a link or copy on
   * the local disk, a server-side copy within the bucket on S3. The upload itself leaves the
   * upload area only once its outcome is recorded.
   */
  moveTo(key: string): Promise<{ size: number }>;
};

/**
 * One kind of upload (Upload-Metadata `purpose`): who may send it, for which record, and what
 * happens to the finished file. `authorize` runs before the upload exists (nothing is stored
 * when it throws); `complete` runs once every byte has arrived, with the caller of the last
 * request, and answers what the client reads from GET /api/uploads/:id.
 */
export type UploadPurpose = {
  /** Accepted content types (Upload-Metadata `filetype`); null accepts any. */
  contentTypes: readonly string[] | null;
  /** Throws the usual AppError (404 outside the scope, 403 without the right) to refuse. */
  authorize(deps: AppDeps, caller: UploadCaller, upload: UploadDeclaration): Promise<void>;
  /** Stores the file under a server-built key and records it; throws an AppError to refuse. */
  complete(
    deps: AppDeps,
    caller: UploadCaller,
    upload: FinishedUpload,
  ): Promise<Record<string, unknown>>;
};

/** The purposes an app accepts, registered by the modules that own the records. */
export class UploadPurposes {
  private readonly purposes = new Map<string, UploadPurpose>();

  register(name: string, purpose: UploadPurpose): this {
    if (!/^[a-z][a-z0-9-]{0,62}$/.test(name)) throw new Error(`Invalid upload purpose: ${name}`);
    if (this.purposes.has(name)) throw new Error(`Upload purpose registered twice: ${name}`);
    this.purposes.set(name, purpose);
    return this;
  }

  get(name: string): UploadPurpose | undefined {
    return this.purposes.get(name);
  }
}

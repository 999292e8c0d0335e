import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { PackFile } from '@mise/shared/records/pack';
import { ZipFile } from 'yazl';
import type { Storage } from '../../platform/storage';

/*
 * The pack's ZIP, written as it is made (issue 21): yazl deflates each entry into its output
 * stream, which goes straight to the storage (the local disk or S3), so the archive is never
 * held in memory. Each entry is hashed (sha256) and measured on its way into the ZIP, and the
 * next entry is only made once the previous one has been written: at most one file of the
 * pack is in memory at a time.
 */

export type PackZip = {
  /** Adds a file (bytes or a stream) under `name`, resolving once written, with its hash. */
  add(name: string, content: Buffer | string | Readable): Promise<PackFile>;
  /** Every file added so far, in order. */
  readonly files: readonly PackFile[];
  /** Writes the central directory; resolves with the ZIP's size once stored. */
  finish(): Promise<{ size: number }>;
  /** Abandons the ZIP: nothing is left under the key. */
  abort(error: Error): Promise<void>;
};

/** Already compressed formats are stored as they are: deflating them again only costs time. */
const storedExtensions = /\.(pdf|png|jpe?g|zip)$/i;

export function createPackZip(storage: Storage, key: string, mtime: Date): PackZip {
  const zip = new ZipFile();
  // A Node Readable (yazl's own PassThrough); its types say the older NodeJS.ReadableStream.
  const output = zip.outputStream as unknown as Readable;
  const files: PackFile[] = [];
  let rejectFailure: (error: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    rejectFailure = reject;
  });
  failure.catch(() => {});
  const stored = storage.putStream(key, output);
  stored.catch((error: Error) => rejectFailure(error));
  zip.on('error', (error: Error) => {
    rejectFailure(error);
    output.destroy(error);
  });

  return {
    files,
    async add(name, content) {
      const hash = createHash('sha256');
      let size = 0;
      const source =
        content instanceof Readable
          ? content
          : Readable.from([typeof content === 'string' ? Buffer.from(content, 'utf8') : content]);
      const measured = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const written = new Promise<void>((resolve, reject) => {
        measured.on('end', resolve);
        measured.on('error', reject);
        source.on('error', reject);
      });
      source.pipe(measured);
      zip.addReadStreamLazy(
        name,
        { mtime, compress: !storedExtensions.test(name) },
        (callback: (error: Error | null, stream: Readable) => void) => callback(null, measured),
      );
      await Promise.race([written, failure]);
      const file = { name, size, sha256: hash.digest('hex') };
      files.push(file);
      return file;
    },
    async finish() {
      zip.end();
      return Promise.race([stored, failure]);
    },
    async abort(error) {
      output.destroy(error);
      await stored.catch(() => {});
      await storage.delete(key).catch(() => {});
    },
  };
}

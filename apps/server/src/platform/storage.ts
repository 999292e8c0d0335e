import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A byte range to read, both ends included as in HTTP's Range header; `end` past the last byte
 * (or left out) means up to the last byte.
 */
export type ByteRange = { start: number; end?: number };

export type StoredFile = {
  stream: Readable;
  /** The whole object's size in bytes, even when a range was read. */
  size: number;
  /** With a range: the bytes the stream holds, both ends included, within the object. */
  range?: { start: number; end: number };
};

/** A range that starts at or past the object's end (HTTP 416); `size` is the object's size. */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`Range not satisfiable (object of ${size} bytes)`);
    this.name = 'RangeNotSatisfiableError';
  }
}

/**
 * File storage: one interface, two drivers chosen by configuration (STORAGE_DRIVER): the local
 * disk below, an S3-compatible bucket in storage-s3.ts.
 */
export type Storage = {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes a stream under the key and answers the bytes written, without holding the whole
   * stream in memory. Nothing is left under the key when the stream fails (the object appears
   * only once complete; an earlier object under the key stays as it was).
   */
  putStream(key: string, stream: Readable): Promise<{ size: number }>;
  /**
   * Stores a file of the local disk under the key (a finished upload), leaving the file where
   * it is; as putStream, the object appears only once complete.
   */
  putFile(key: string, path: string): Promise<{ size: number }>;
  /**
   * The object as a stream, null when missing; with a range, only those bytes (throws
   * RangeNotSatisfiableError when the range starts at or past the end).
   */
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** The object's size without reading it, null when missing. */
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
};

const keyPattern = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Keys are built by the server; this refuses anything else, including any path traversal. */
export function assertValidKey(key: string): void {
  if (!keyPattern.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
}

export function createLocalStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertValidKey(key);
    const path = resolve(join(base, key));
    if (!path.startsWith(base + sep)) throw new Error('Invalid storage key');
    return path;
  };
  return {
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
    async putStream(key, stream) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
      let size = 0;
      try {
        await pipeline(
          stream,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              size += chunk.length;
              yield chunk;
            }
          },
          createWriteStream(temporary),
        );
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { size };
    },
    /**
     * A hard link when the file is on the same disk (no byte copied), else the kernel's copy
     * (copy_file_range); then renamed into place.
     */
    async putFile(key, source) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await link(source, temporary).catch(() => copyFile(source, temporary));
        const { size } = await stat(temporary);
        await rename(temporary, path);
        return { size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const path = pathOf(key);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) return null;
      if (!range) return { stream: createReadStream(path), size: info.size };
      const bounds = clampRange(range, info.size);
      return {
        stream: createReadStream(path, bounds),
        size: info.size,
        range: bounds,
      };
    },
    async stat(key) {
      const info = await stat(pathOf(key)).catch(() => null);
      return info?.isFile() ? { size: info.size } : null;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** A range within an object of `size` bytes, or RangeNotSatisfiableError. */
export function clampRange(range: ByteRange, size: number): { start: number; end: number } {
  if (!Number.isSafeInteger(range.start) || range.start < 0) {
    throw new Error(`Invalid range start: ${range.start}`);
  }
  if (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < range.start)) {
    throw new Error(`Invalid range end: ${range.end}`);
  }
  if (range.start >= size) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** Copies a stored file to another key (duplicates); false when the source is missing. */
export async function copyStoredFile(storage: Storage, from: string, to: string): Promise<boolean> {
  const file = await storage.get(from);
  if (!file) return false;
  await storage.putStream(to, file.stream);
  return true;
}

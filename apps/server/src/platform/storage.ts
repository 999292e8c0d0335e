import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** File storage: one interface; the local-disk driver below, an S3 driver by configuration later. */
export type Storage = {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes a stream under the key and answers the bytes written. Nothing is left under the
   * key when the stream fails (the file appears only once complete).
   */
  putStream(key: string, stream: Readable): Promise<{ size: number }>;
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
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
    async get(key) {
      const path = pathOf(key);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(path), size: info.size };
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** Copies a stored file to another key (duplicates); false when the source is missing. */
export async function copyStoredFile(storage: Storage, from: string, to: string): Promise<boolean> {
  const file = await storage.get(from);
  if (!file) return false;
  await storage.putStream(to, file.stream);
  return true;
}

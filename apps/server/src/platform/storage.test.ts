import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../test/s3-server';
import {
  copyStoredFile,
  createLocalStorage,
  RangeNotSatisfiableError,
  type Storage,
} from './storage';
import { createS3Storage } from './storage-s3';

/**
 * The same contract for every driver: the local disk, and S3 against a real S3-protocol server
 * (s3rver in a child process on loopback, so this process's memory is the driver's alone).
 */
type Opened = {
  storage: Storage;
  /** Every file the driver's backend keeps (objects, temporary files, multipart parts). */
  storedFiles(): string[];
  close(): Promise<void>;
};

const drivers: { name: string; open: () => Promise<Opened> }[] = [
  {
    name: 'local disk',
    open: async () => {
      const root = mkdtempSync(join(tmpdir(), 'mise-storage-'));
      return {
        storage: createLocalStorage(root),
        storedFiles: () =>
          readdirSync(root, { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => relative(root, join(entry.parentPath, entry.name))),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3',
    open: async () => {
      const server = await startS3Server();
      return {
        storage: createS3Storage(server.options),
        storedFiles: () => server.storedFiles(),
        close: () => server.close(),
      };
    },
  },
];

// A full garbage collection before and during the big upload, so that the resident memory
// measured is what the driver holds, not garbage the collector has not reached yet.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

/** `total` bytes of random data in 64 KB chunks (as an HTTP request body arrives), made lazily. */
function randomStream(
  total: number,
  options: { failAfter?: number; onChunk?: (sent: number) => void } = {},
) {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (options.failAfter !== undefined && sent >= options.failAfter) {
        this.destroy(new Error('connection reset by the client'));
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(64 * 1024, total - sent));
      hash.update(chunk);
      sent += chunk.length;
      options.onChunk?.(sent);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function digestOf(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function textOf(stream: Readable): Promise<string> {
  return Buffer.concat(await stream.toArray()).toString();
}

describe.each(drivers)('the $name storage driver', (driver) => {
  let opened: Opened;
  let storage: Storage;
  beforeAll(async () => {
    opened = await driver.open();
    storage = opened.storage;
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('stores bytes with put, reads them back with their size, and deletes them', async () => {
    const key = 'accounts/owner-1/notes.txt';
    await storage.put(key, Buffer.from('Frigo 2 : 3,5 °C'));
    const file = await storage.get(key);
    expect(file?.size).toBe(Buffer.byteLength('Frigo 2 : 3,5 °C'));
    expect(file?.range).toBeUndefined();
    expect(await textOf(file!.stream)).toBe('Frigo 2 : 3,5 °C');
    expect(await storage.stat(key)).toEqual({ size: file!.size });

    await storage.put(key, Buffer.from('replaced'));
    expect(await textOf((await storage.get(key))!.stream)).toBe('replaced');

    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.stat(key)).toBeNull();
  });

  it('stores a file of the disk with putFile, leaving the file where it was', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mise-putfile-'));
    try {
      const source = join(folder, 'upload.bin');
      const bytes = randomBytes(300 * 1024);
      writeFileSync(source, bytes);
      const key = 'accounts/owner-1/upload.bin';
      expect(await storage.putFile(key, source)).toEqual({ size: bytes.length });
      const file = await storage.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of file!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      expect(readFileSync(source).equals(bytes)).toBe(true);
      await storage.delete(key);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers null for a missing key, and deleting one is not an error', async () => {
    const key = 'accounts/owner-1/missing.pdf';
    expect(await storage.get(key)).toBeNull();
    expect(await storage.get(key, { start: 0, end: 10 })).toBeNull();
    expect(await storage.stat(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses keys the server would not build (traversal, absolute, empty parts)', async () => {
    for (const key of ['../etc/passwd', 'accounts/../../x', '/accounts/a/b', 'accounts//b', 'x']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow('Invalid storage key');
      await expect(storage.get(key)).rejects.toThrow('Invalid storage key');
    }
    expect(opened.storedFiles().filter((path) => path.includes('passwd'))).toEqual([]);
  });

  it('streams 60 MB with putStream in bounded memory and gives back the same bytes', async () => {
    const key = 'stores/store-1/video.mp4';
    // Warm-up (the S3 client loads its modules on first use), not measured.
    await storage.putStream(key, randomStream(6 * MB).stream);

    // Resident memory, and live memory (the heap and buffers: exact after a collection, where
    // the resident size also counts memory freed but kept by the allocator).
    const live = () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.external;
    };
    collectGarbage();
    const before = { rss: process.memoryUsage().rss, live: live() };
    const peak = { ...before };
    const source = randomStream(60 * MB, {
      onChunk: (sent) => {
        if (sent % (4 * MB) === 0) {
          collectGarbage();
          peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
          peak.live = Math.max(peak.live, live());
        }
      },
    });
    const started = performance.now();
    const { size } = await storage.putStream(key, source.stream);
    const seconds = (performance.now() - started) / 1000;
    const growth = { rss: (peak.rss - before.rss) / MB, live: (peak.live - before.live) / MB };

    expect(size).toBe(60 * MB);
    // Buffering the stream would take at least 60 MB more: the drivers hold a few parts at most.
    expect(growth.live).toBeLessThan(32);
    expect(growth.rss).toBeLessThan(48);
    expect(seconds).toBeLessThan(30);
    const stored = await storage.get(key);
    expect(stored?.size).toBe(60 * MB);
    expect(await digestOf(stored!.stream)).toEqual({ sha256: source.digest(), size: 60 * MB });
    await storage.delete(key);
  });

  it('leaves nothing under the key when the stream fails, and keeps an earlier object', async () => {
    const key = 'stores/store-1/cut.mp4';
    const fresh = 'stores/store-1/never.mp4';
    await storage.put(key, Buffer.from('earlier version'));
    const before = opened.storedFiles();

    // 12 MB then a failure: past S3's 5 MB parts, so a multipart upload had begun.
    for (const target of [key, fresh]) {
      await expect(
        storage.putStream(target, randomStream(60 * MB, { failAfter: 12 * MB }).stream),
      ).rejects.toThrow('connection reset by the client');
    }

    expect(await textOf((await storage.get(key))!.stream)).toBe('earlier version');
    expect(await storage.get(fresh)).toBeNull();
    // No partial file, no multipart part: the backend holds exactly what it held before.
    expect(opened.storedFiles().sort()).toEqual(before.sort());
  });

  it('stores an empty stream and a small one (under one multipart part)', async () => {
    expect(await storage.putStream('stores/store-1/empty.txt', Readable.from([]))).toEqual({
      size: 0,
    });
    expect((await storage.get('stores/store-1/empty.txt'))?.size).toBe(0);
    const small = randomStream(300 * 1024);
    expect(await storage.putStream('stores/store-1/small.bin', small.stream)).toEqual({
      size: 300 * 1024,
    });
    const stored = await storage.get('stores/store-1/small.bin');
    expect(await digestOf(stored!.stream)).toEqual({ sha256: small.digest(), size: 300 * 1024 });
  });

  it('reads byte ranges: closed, open-ended, an end past the last byte clamped', async () => {
    const key = 'stores/store-1/alphabet.txt';
    await storage.put(key, Buffer.from('abcdefghijklmnopqrstuvwxyz'));

    const middle = await storage.get(key, { start: 2, end: 4 });
    expect(middle?.size).toBe(26);
    expect(middle?.range).toEqual({ start: 2, end: 4 });
    expect(await textOf(middle!.stream)).toBe('cde');

    const tail = await storage.get(key, { start: 23 });
    expect(tail?.range).toEqual({ start: 23, end: 25 });
    expect(await textOf(tail!.stream)).toBe('xyz');

    const clamped = await storage.get(key, { start: 20, end: 1000 });
    expect(clamped?.range).toEqual({ start: 20, end: 25 });
    expect(await textOf(clamped!.stream)).toBe('uvwxyz');

    const last = await storage.get(key, { start: 25, end: 25 });
    expect(await textOf(last!.stream)).toBe('z');
  });

  it('refuses a range starting at or past the end with the object size', async () => {
    const key = 'stores/store-1/short.txt';
    await storage.put(key, Buffer.from('0123456789'));
    for (const start of [10, 500]) {
      const error = await storage.get(key, { start }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RangeNotSatisfiableError);
      expect((error as RangeNotSatisfiableError).size).toBe(10);
    }
  });

  it('copies a stored file to another key (duplicates)', async () => {
    await storage.put('databases/db-1/logo.png', Buffer.from('png bytes'));
    expect(
      await copyStoredFile(storage, 'databases/db-1/logo.png', 'databases/db-2/logo.png'),
    ).toBe(true);
    expect(await textOf((await storage.get('databases/db-2/logo.png'))!.stream)).toBe('png bytes');
    expect(await copyStoredFile(storage, 'databases/db-1/none.png', 'databases/db-2/x.png')).toBe(
      false,
    );
  });
});

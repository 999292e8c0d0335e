import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PackDocumentRequest, PackWorkerReply, PackWorkerRequest } from './pack-worker';

/*
 * The pack's documents off the main thread (ARCHITECTURE.md: large PDFs are rendered off the
 * event loop): one worker thread per build, started with the build and ended with it, renders
 * the documents one at a time (pack-worker.ts). From source (tsx: tests, benchmarks) the worker
 * is pack-worker.ts loaded through tsx, as the audit PDF's worker is; in the built server it is
 * dist/inspector-pack-worker.js, an entry of apps/server/build.mjs beside dist/main.js, where
 * this module is bundled.
 */

const isSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(
  isSource ? './pack-worker.ts' : './inspector-pack-worker.js',
  import.meta.url,
);
/** A document taking longer ends the worker (and fails the build). */
const renderTimeoutMilliseconds = 5 * 60_000;

/** Registers tsx's loader in the worker's own thread, then imports the TypeScript worker. */
const sourceBootstrap = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.url);
});
`;

function createWorker(): Worker {
  if (!isSource) return new Worker(workerUrl, { name: 'inspector-pack' });
  const require = createRequire(import.meta.url);
  const tsxPackage = require('tsx/package.json') as {
    exports: { './esm/api': { import: { default: string } } };
  };
  const tsxApi = join(
    dirname(require.resolve('tsx/package.json')),
    tsxPackage.exports['./esm/api'].import.default,
  );
  return new Worker(sourceBootstrap, {
    eval: true,
    name: 'inspector-pack',
    workerData: { tsx: pathToFileURL(tsxApi).href, url: workerUrl.href },
  });
}

export type PackDocuments = {
  render(request: PackDocumentRequest): Promise<Buffer>;
  /** Ends the worker (the renders it still held fail). */
  close(): Promise<void>;
};

export function openPackDocuments(): PackDocuments {
  const worker = createWorker();
  const jobs = new Map<
    number,
    { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const job of jobs.values()) job.reject(error);
    jobs.clear();
  };
  worker.on('message', (reply: PackWorkerReply) => {
    const job = jobs.get(reply.id);
    if (!job) return;
    jobs.delete(reply.id);
    if (reply.bytes) {
      job.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
    } else job.reject(new Error(`inspector pack document failed: ${reply.error}`));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`inspector pack worker exited (${code})`)));

  return {
    render(request) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => {
          failAll(new Error(`inspector pack document timed out: ${request.kind}`));
          void worker.terminate();
        }, renderTimeoutMilliseconds);
        timer.unref();
        jobs.set(id, {
          resolve: (bytes) => {
            clearTimeout(timer);
            resolve(bytes);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        worker.postMessage({ id, request } satisfies PackWorkerRequest);
      });
    },
    async close() {
      failAll(new Error('inspector pack worker closed'));
      await worker.terminate();
    },
  };
}

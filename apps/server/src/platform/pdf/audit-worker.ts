import { parentPort } from 'node:worker_threads';
import { type AuditPdfInput, renderAuditPdfInThread } from './audit-render';

/*
 * The audit PDF worker thread (audit.ts starts it): renders each asked result and sends its
 * bytes back, so a render never holds the server's event loop. Built as its own entry
 * (apps/server/build.mjs: dist/audit-worker.js); run from source through tsx.
 */

export type AuditWorkerRequest = { id: number; input: AuditPdfInput };
export type AuditWorkerReply =
  | { id: number; pdf: Uint8Array; error?: undefined }
  | { id: number; pdf?: undefined; error: string };

parentPort?.on('message', async ({ id, input }: AuditWorkerRequest) => {
  try {
    const pdf = await renderAuditPdfInThread(input);
    // The bytes move to the main thread without a copy when they own their memory.
    const bytes =
      pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength
        ? new Uint8Array(pdf.buffer)
        : new Uint8Array(pdf);
    parentPort?.postMessage({ id, pdf: bytes } satisfies AuditWorkerReply, [
      bytes.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ id, error: message } satisfies AuditWorkerReply);
  }
});

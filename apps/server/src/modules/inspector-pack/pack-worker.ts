import { parentPort } from 'node:worker_threads';
import type { PunchCards } from '@mise/shared/people/schemas';
import type { PackManifest } from '@mise/shared/records/pack';
import type { PunchCardsPdfLanguage } from '../../platform/pdf/punch-cards';
import { renderPunchCardsPdf } from '../../platform/pdf/punch-cards';
import { renderTasksPdf, type TasksExportInput } from '../../platform/pdf/tasks';
import { renderTasksCsv } from '../history/history-csv';
import { renderManifestPdf } from './inspector-pack-pdf';

/*
 * The inspector pack's worker thread (pack-documents.ts starts one per build): lays out the
 * pack's large documents — the history PDF and CSV of a module, the punch cards sheet, the
 * manifest page — so a build never holds the server's event loop for seconds. Built as its own
 * entry (apps/server/build.mjs: dist/inspector-pack-worker.js); run from source through tsx.
 */

export type PackDocumentRequest =
  | { kind: 'tasks-pdf'; input: TasksExportInput }
  | { kind: 'tasks-csv'; input: TasksExportInput }
  | {
      kind: 'punch-cards-pdf';
      input: { cards: PunchCards; lang: PunchCardsPdfLanguage; generatedAt: Date };
    }
  | { kind: 'manifest-pdf'; input: PackManifest };

export type PackWorkerRequest = { id: number; request: PackDocumentRequest };
export type PackWorkerReply =
  | { id: number; bytes: Uint8Array; error?: undefined }
  | { id: number; bytes?: undefined; error: string };

/** Thumbnails cross the thread as Uint8Array: pdfkit wants Buffers back. */
function withBuffers(input: TasksExportInput): TasksExportInput {
  if (!input.thumbnails) return input;
  const thumbnails = new Map<string, Buffer>();
  for (const [path, bytes] of input.thumbnails) {
    thumbnails.set(path, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return { ...input, thumbnails };
}

export async function renderPackDocument(request: PackDocumentRequest): Promise<Buffer> {
  switch (request.kind) {
    case 'tasks-pdf':
      return renderTasksPdf(withBuffers(request.input));
    case 'tasks-csv':
      return Buffer.from(renderTasksCsv(request.input), 'utf8');
    case 'punch-cards-pdf':
      return renderPunchCardsPdf(request.input.cards, {
        lang: request.input.lang,
        generatedAt: request.input.generatedAt,
      });
    case 'manifest-pdf':
      return renderManifestPdf(request.input);
  }
}

parentPort?.on('message', async ({ id, request }: PackWorkerRequest) => {
  try {
    const document = await renderPackDocument(request);
    // The bytes move to the main thread without a copy when they own their memory.
    const bytes =
      document.byteOffset === 0 && document.byteLength === document.buffer.byteLength
        ? new Uint8Array(document.buffer)
        : new Uint8Array(document);
    parentPort?.postMessage({ id, bytes } satisfies PackWorkerReply, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ id, error: message } satisfies PackWorkerReply);
  }
});

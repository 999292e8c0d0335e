import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AuditResult } from '@mise/shared/audits/schemas';
import type { AuditPdfInput } from './audit-render';
import type { AuditWorkerReply, AuditWorkerRequest } from './audit-worker';
import type { ExportLanguage } from './export-texts';

export { type AuditPdfInput, renderAuditPdfInThread } from './audit-render';
export { auditCsvTexts, auditPdfTexts } from './audit-texts';

/*
 * The audit result PDF off the main thread (issue 16: it renders without blocking the other
 * requests of the instance). One worker thread is kept while renders come and ends after a
 * minute without any; renders queue in it, one at a time. From source (tsx, tests) the worker
 * is audit-worker.ts, loaded through tsx; in the built server it is dist/audit-worker.js, an
 * entry of apps/server/build.mjs beside dist/main.js, where this module is bundled.
 */

const isSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(isSource ? './audit-worker.ts' : './audit-worker.js', import.meta.url);
/** A worker without a render ends after this long. */
const idleMilliseconds = 60_000;
/** A render taking longer ends the worker (and fails the renders it held). */
const renderTimeoutMilliseconds = 60_000;

/**
 * From source the worker script is TypeScript: a bootstrap registers tsx's loader in the
 * worker's own thread (an --import of the parent is not applied to a worker's script on
 * Node 20), then imports it.
 */
const sourceBootstrap = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.url);
});
`;

function createWorker(): Worker {
  if (!isSource) return new Worker(workerUrl, { name: 'audit-pdf' });
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
    name: 'audit-pdf',
    workerData: { tsx: pathToFileURL(tsxApi).href, url: workerUrl.href },
  });
}

type Job = { resolve: (pdf: Buffer) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 1;
const jobs = new Map<number, Job>();

/** Ends a worker and fails the renders it held. */
function endWorker(ending: Worker, error: Error): Promise<unknown> {
  if (worker !== ending) return Promise.resolve();
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const pending = [...jobs.values()];
  jobs.clear();
  for (const job of pending) job.reject(error);
  return ending.terminate();
}

function startWorker(): Worker {
  const created = createWorker();
  created.on('message', (reply: AuditWorkerReply) => {
    const job = jobs.get(reply.id);
    if (!job) return;
    jobs.delete(reply.id);
    if (reply.pdf)
      job.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
    else job.reject(new Error(`audit PDF failed: ${reply.error}`));
    settle();
  });
  created.on('error', (error) => void endWorker(created, error));
  created.on(
    'exit',
    (code) => void endWorker(created, new Error(`audit PDF worker exited (${code})`)),
  );
  return created;
}

/** Holds the process while renders are under way; schedules the idle end once none is. */
function settle() {
  if (!worker) return;
  if (jobs.size > 0) {
    worker.ref();
    return;
  }
  worker.unref();
  if (idleTimer) clearTimeout(idleTimer);
  const idle = worker;
  idleTimer = setTimeout(() => {
    if (jobs.size === 0 && worker === idle) {
      worker = null;
      void idle.terminate();
    }
  }, idleMilliseconds);
  idleTimer.unref();
}

/**
 * Renders an audit result's PDF in the worker thread (spec 002 §7 POST pdf/audit): the bytes
 * of the document renderAuditPdfInThread lays out.
 */
export function renderAuditPdf(input: AuditPdfInput): Promise<Buffer> {
  if (!worker) worker = startWorker();
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const current = worker;
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => {
      void endWorker(current, new Error('audit PDF render timed out'));
    }, renderTimeoutMilliseconds);
    timer.unref();
    jobs.set(id, {
      resolve: (pdf) => {
        clearTimeout(timer);
        resolve(pdf);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    settle();
    current.postMessage({ id, input } satisfies AuditWorkerRequest);
  });
}

/** Ends the worker thread (server shutdown, tests); the next render starts another. */
export async function closeAuditPdfWorker(): Promise<void> {
  if (worker) await endWorker(worker, new Error('audit PDF worker closed'));
}

/**
 * The PDF's input from a result as the API reads it (auditResultSchema): the caller adds the
 * reader's language, the store's zone and, when it has them, the database's and the files'
 * names.
 */
export function auditPdfInputOf(
  result: AuditResult,
  options: {
    language: ExportLanguage;
    timeZone: string;
    databaseName?: string | null;
    fileNames?: Record<string, string>;
  },
): AuditPdfInput {
  return {
    language: options.language,
    timeZone: options.timeZone,
    auditName: result.audit_name,
    storeName: result.store.name,
    databaseName: options.databaseName ?? null,
    auditorName: result.auditor.name,
    startDate: result.start_date,
    endDate: result.end_date,
    score: result.score,
    maxScore: result.max_score,
    sections: result.sections,
    answers: result.answers,
    sectionScores: result.section_scores,
    ...(options.fileNames ? { fileNames: options.fileNames } : {}),
  };
}

import { randomBytes, randomUUID } from 'node:crypto';
import { Upload as StoredUpload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communications, documents, elementAttachments, trainings } from '../../db/schema';
import type { Storage } from '../../platform/storage';
import {
  buildDatabaseElement,
  buildStoreTaskConfiguration,
  buildTask,
  buildTaskConfiguration,
  buildTwoTenants,
} from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { sweepCursorKey } from './unreferenced-files';
import { runUploadsCleanup, uploadsCleanupJob } from './uploads.jobs';
import { createUploadArea } from './uploads.service';

const day = 24 * 60 * 60 * 1000;
const target = { stores: [], store_tags: [], employee_roles: [], store_tags_union: false };
const pdf = Buffer.from('%PDF-1.7\n% a stored attachment\n');

/**
 * Waits until the next whole second (and a little), answering it: objects written before are
 * "old" for a clock set a day after it, objects written after are not (S3 dates objects to the
 * second, the disk to the millisecond).
 */
async function nextSecond(): Promise<number> {
  const boundary = Math.ceil((Date.now() + 1) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, boundary - Date.now() + 100));
  return boundary;
}

const drivers = [{ driver: 'local' as const }, { driver: 's3' as const }];

describe.each(drivers)('cleanup of unreferenced uploads on the $driver driver', ({ driver }) => {
  let s3: TestS3Server | null = null;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    if (driver === 's3') {
      s3 = await startS3Server();
      Object.assign(env, s3.env);
    }
  });
  afterAll(async () => {
    await s3?.close();
  });
  /** The server's clock: the system's, unless a test sets it. */
  let clock: number | null = null;
  const context = useTestApp({ env, now: () => new Date(clock ?? Date.now()) });

  let storage: Storage;
  let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
  const isStored = async (key: string) => (await storage.stat(key)) !== null;
  const logged: { object: object; message: string }[] = [];
  const log = { info: (object: object, message: string) => logged.push({ object, message }) };

  beforeAll(async () => {
    storage = context.app.deps.storage;
    tenants = await buildTwoTenants(context.db);
  });

  it('removes old files no row references; keeps referenced, recent and other files', async () => {
    const databaseId = tenants.a.database.id;
    const storeId = tenants.a.stores[0]!.id;
    const distributorId = tenants.a.distributor.id;
    const element = await buildDatabaseElement(context.db, { database_id: databaseId });
    const folder = (owner: string, name: string) => `${owner}/${name}/${randomUUID()}`;

    // Referenced, each by its own kind of row.
    const referenced = {
      elementAttachment: `databases/${databaseId}/element_attachments/${element.id}/${randomUUID()}.pdf`,
      databaseAction: `${folder(`databases/${databaseId}`, 'task_configurations_attachments')}/fiche.pdf`,
      storeAction: `${folder(`stores/${storeId}`, 'task_configurations_attachments')}/photo.pdf`,
      taskHistory: `${folder(`databases/${databaseId}`, 'task_configurations_attachments')}/old.pdf`,
      communication: `${folder(`databases/${databaseId}`, 'communications')}/note.pdf`,
      training: `${folder(`distributors/${distributorId}`, 'training')}/section.pdf`,
      document: `${folder(`stores/${storeId}`, 'documents')}/plan.pdf`,
    };
    // Uploaded, never saved.
    const unreferenced = {
      elementAttachment: `stores/${storeId}/element_attachments/${randomUUID()}/${randomUUID()}.pdf`,
      action: `${folder(`databases/${databaseId}`, 'task_configurations_attachments')}/lost.pdf`,
      communication: `${folder(`databases/${databaseId}`, 'communications')}/lost.pdf`,
      training: `${folder(`stores/${storeId}`, 'training')}/lost.pdf`,
      globalTraining: `trainings/${randomUUID()}/lost.pdf`,
      document: `${folder(`distributors/${distributorId}`, 'documents')}/lost.pdf`,
    };
    // Old and referenced by nothing here, but outside the upload folders: not the sweep's.
    const others = [
      `databases/${databaseId}/logo-${randomBytes(8).toString('hex')}.png`,
      `stores/${storeId}/tasks/2026-01/${randomBytes(16).toString('hex')}.jpg`,
      `image-variants/ab/${randomBytes(32).toString('hex')}/128x0.webp`,
    ];
    for (const key of [...Object.values(referenced), ...Object.values(unreferenced), ...others]) {
      await storage.put(key, pdf);
    }
    // A tus upload left unfinished (the upload area), as old.
    const area = createUploadArea(context.config);
    const uploadId = randomBytes(16).toString('hex');
    await area.datastore.create(
      new StoredUpload({ id: area.keyOf(uploadId), size: 1000, offset: 0, metadata: {} }),
    );

    await context.db.insert(elementAttachments).values({
      database_id: databaseId,
      database_element_id: element.id,
      name: 'Fiche.pdf',
      type: 'pdf',
      content_type: 'application/pdf',
      path: referenced.elementAttachment,
      size: pdf.length,
    });
    const action = (path: string) => ({
      name: 'Nettoyer',
      requires_picture: false,
      attachments: [{ name: 'Fiche.pdf', path }],
    });
    await buildTaskConfiguration(context.db, {
      database_id: databaseId,
      configuration: { actions: [action(referenced.databaseAction)] },
    });
    await buildStoreTaskConfiguration(context.db, {
      store_id: storeId,
      module: 'actions',
      name: 'Photo du plan de travail',
      configuration: { actions: [action(referenced.storeAction)] },
    });
    // The configuration changed since; the task done then still shows its file.
    await buildTask(context.db, {
      store_id: storeId,
      module: 'actions',
      elements: [],
      actions: [action(referenced.taskHistory)],
    });
    const start = new Date();
    await context.db.insert(communications).values({
      database_id: databaseId,
      name: 'Nouvelle procédure',
      start_day: '2026-01-01',
      end_day: '2026-01-31',
      time_zone: 'Europe/Paris',
      start_at: start,
      end_at: start,
      attachment_name: 'note.pdf',
      attachment_path: referenced.communication,
      attachment_content_type: 'application/pdf',
      target,
    });
    await context.db.insert(trainings).values({
      name: 'Hygiène',
      type: 'distributor',
      source: distributorId,
      distributor_id: distributorId,
      sections: [
        {
          id: randomUUID(),
          title: 'Mains',
          attachment: {
            name: 'section.pdf',
            path: referenced.training,
            content_type: 'application/pdf',
          },
          quiz: { questions: [] },
        },
      ],
      target,
    });
    await context.db.insert(documents).values({
      owner_kind: 'store',
      owner_id: storeId,
      store_id: storeId,
      name: 'plan.pdf',
      type: 'file',
      storage_key: referenced.document,
      size: pdf.length,
      content_type: 'application/pdf',
    });

    // Uploaded just now, not saved yet: the editor may still save it.
    const boundary = await nextSecond();
    const recent = [
      `databases/${databaseId}/element_attachments/${element.id}/${randomUUID()}.pdf`,
      `${folder(`databases/${databaseId}`, 'documents')}/brouillon.pdf`,
    ];
    for (const key of recent) await storage.put(key, pdf);

    // The hourly job, a day after the old files were written.
    clock = boundary + day;
    try {
      await uploadsCleanupJob(context.app.deps, log).handler();
    } finally {
      clock = null;
    }

    for (const key of Object.values(referenced)) expect(await isStored(key), key).toBe(true);
    for (const key of Object.values(unreferenced)) expect(await isStored(key), key).toBe(false);
    for (const key of [...recent, ...others]) expect(await isStored(key), key).toBe(true);
    expect(await area.findUpload(uploadId)).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      message: 'uploads cleanup',
      object: {
        uploadsRemoved: expect.any(Number),
        examined: Object.keys(referenced).length + Object.keys(unreferenced).length + recent.length,
        old: Object.keys(referenced).length + Object.keys(unreferenced).length,
        referenced: Object.keys(referenced).length,
        removed: Object.keys(unreferenced).length,
        failed: 0,
        isPassComplete: true,
      },
    });
    expect((logged[0]!.object as { uploadsRemoved: number }).uploadsRemoved).toBeGreaterThan(0);
  });

  it('bounds each run and goes on where the last one stopped', async () => {
    const owner = `databases/${randomUUID()}/documents`;
    const lost = Array.from({ length: 5 }, (_, index) => `${owner}/${index}/lost-${index}.pdf`);
    for (const key of lost) await storage.put(key, pdf);
    const boundary = await nextSecond();
    clock = boundary + day;
    const runs = [];
    try {
      // At most 2 removals a run: a pass takes several runs, each going on after the last.
      for (let run = 0; run < 10; run++) {
        const summary = await runUploadsCleanup(context.app.deps, log, { maxRemoved: 2 });
        runs.push(summary);
        expect(summary.removed).toBeLessThanOrEqual(2);
        if (summary.isPassComplete) break;
      }
      // One object listed a run at most.
      const first = await runUploadsCleanup(context.app.deps, log, { maxExamined: 1 });
      expect(first).toMatchObject({ examined: 1, isPassComplete: false });
    } finally {
      clock = null;
    }
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.at(-1)!.isPassComplete).toBe(true);
    expect(runs.slice(0, -1).every((run) => !run.isPassComplete && run.removed === 2)).toBe(true);
    // Each run went on after what the one before had decided on: it listed less.
    for (const [index, run] of runs.entries()) {
      if (index > 0) expect(run.examined).toBeLessThan(runs[index - 1]!.examined);
    }
    for (const key of lost) expect(await isStored(key), key).toBe(false);
    expect(await isStored(sweepCursorKey)).toBe(true);
  });
});

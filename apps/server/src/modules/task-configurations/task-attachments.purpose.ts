import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import { z } from 'zod';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { findDatabaseInScope } from '../databases/databases.service';
import { assertDatabaseWriter } from '../elements/elements.policy';
import { attachmentNameOf, hasSignatureOf, plainFileName } from '../files/uploads';
import { findEditableStore } from '../stores/stores.service';
import { attachmentIdOf } from '../uploads/element-attachments.purpose';
import type { UploadCaller, UploadPurpose, UploadPurposes } from '../uploads/purposes';

/**
 * The storage folder of a level's action attachments (spec 000 §7 task_configurations_attachments;
 * the task configuration service accepts an action's attachment only under it).
 */
async function folderOf(
  deps: AppDeps,
  caller: UploadCaller,
  level: 'database' | 'store',
  owner: string,
): Promise<string> {
  if (!z.uuid().safeParse(owner).success) throw notFound();
  // Task configurations are edited in the back-office; a tablet only reads the files.
  if (caller.kind !== 'user') throw forbidden();
  if (level === 'database') {
    const database = await findDatabaseInScope(deps.db, caller.scope, owner);
    assertDatabaseWriter(caller.scope);
    return `databases/${database.id}/task_configurations_attachments`;
  }
  const store = await findEditableStore(deps.db, caller.scope, owner);
  return `stores/${store.id}/task_configurations_attachments`;
}

/**
 * Attachments of an action (spec 001 §3.6: a cleaning procedure, a photo of how it should
 * look), through the resumable path, before the configuration is saved: Upload-Metadata
 * `owner` is the database (or store) id; the file is stored under the level's folder and the
 * outcome gives the { path, name } the editor puts in the action and saves with the
 * configuration (which checks the folder).
 */
function taskAttachmentPurpose(level: 'database' | 'store'): UploadPurpose {
  return {
    contentTypes: Object.keys(attachmentContentTypes),
    async authorize(deps, caller, upload) {
      await folderOf(deps, caller, level, upload.owner);
    },
    async complete(deps, caller, upload) {
      const allowed = attachmentContentTypes[upload.filetype];
      if (!allowed || !hasSignatureOf(upload.filetype, await upload.head(16))) {
        throw new AppError('file/unsupported-type');
      }
      const folder = await folderOf(deps, caller, level, upload.owner);
      const name = attachmentNameOf(upload.filename);
      const path = `${folder}/${attachmentIdOf(upload.id)}/${plainFileName(name, allowed.extension)}`;
      // Stored again under the same key when a completion runs twice.
      await upload.moveTo(path);
      return { path, name, url: `/api/files/${path}` };
    },
  };
}

export function registerTaskAttachmentPurposes(purposes: UploadPurposes): void {
  purposes
    .register('database-task-attachment', taskAttachmentPurpose('database'))
    .register('store-task-attachment', taskAttachmentPurpose('store'));
}

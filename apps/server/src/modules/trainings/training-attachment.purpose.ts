import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import { canEditTrainingType, type TrainingType } from '@mise/shared/trainings/rules';
import { z } from 'zod';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { findDatabaseInScope } from '../databases/databases.service';
import { attachmentNameOf, hasSignatureOf, plainFileName } from '../files/uploads';
import { findStoreInScope } from '../stores/stores.service';
import { attachmentIdOf } from '../uploads/element-attachments.purpose';
import type { UploadCaller, UploadPurpose } from '../uploads/purposes';
import { trainingFolder } from './trainings.service';

/**
 * Upload-Metadata `owner` of a section attachment: 'global', or '<type>:<id>' for a distributor,
 * a database or a store training (the owner of the training being edited or created).
 */
function parseOwner(owner: string): { type: TrainingType; source: string | null } {
  if (owner === 'global') return { type: 'global', source: null };
  const [type, id] = owner.split(':');
  if (
    (type === 'distributor' || type === 'database' || type === 'store') &&
    z.uuid().safeParse(id).success
  ) {
    return { type, source: id! };
  }
  throw notFound();
}

/** The caller may write trainings of this owner (spec 002 §6 edit rights, in their scope). */
async function assertOwnerWriter(deps: AppDeps, caller: UploadCaller, owner: string) {
  if (caller.kind !== 'user') throw forbidden();
  const { scope } = caller;
  const { type, source } = parseOwner(owner);
  if (type === 'database') await findDatabaseInScope(deps.db, scope, source!);
  if (type === 'store') await findStoreInScope(deps.db, scope, source!);
  if (type === 'distributor' && !scope.isAll && !scope.distributorIds.includes(source!)) {
    throw notFound();
  }
  const role = scope.role as 'admin' | 'distributor' | 'manager' | 'customer';
  if (!canEditTrainingType(role, type)) throw forbidden();
  return { type, source };
}

/**
 * A training section's attachment (spec 002 §2 editor, attachment tab; §7 "section attachments
 * are uploaded under databases/{database id}/training/…"), through the resumable path before
 * the training is saved. The outcome's { path, name } goes into the section.
 */
export const trainingAttachmentPurpose: UploadPurpose = {
  contentTypes: Object.keys(attachmentContentTypes),
  async authorize(deps, caller, upload) {
    await assertOwnerWriter(deps, caller, upload.owner);
  },
  async complete(deps, caller, upload) {
    const { type, source } = await assertOwnerWriter(deps, caller, upload.owner);
    const allowed = attachmentContentTypes[upload.filetype];
    if (!allowed || !hasSignatureOf(upload.filetype, await upload.head(16))) {
      throw new AppError('file/unsupported-type');
    }
    const name = attachmentNameOf(upload.filename);
    const path = `${trainingFolder(type, source)}${attachmentIdOf(upload.id)}/${plainFileName(name, allowed.extension)}`;
    await upload.moveTo(path);
    return { path, name, url: `/api/files/${path}` };
  },
};

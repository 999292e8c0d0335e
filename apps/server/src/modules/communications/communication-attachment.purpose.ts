import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import { z } from 'zod';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { findDatabaseInScope } from '../databases/databases.service';
import { attachmentNameOf, hasSignatureOf, plainFileName } from '../files/uploads';
import { attachmentIdOf } from '../uploads/element-attachments.purpose';
import type { UploadPurpose } from '../uploads/purposes';
import { attachmentFolder, canEditCommunications } from './communications.service';

/**
 * A communication's attachment (spec 002 §2 edit: attachment upload), through the resumable
 * path before the communication is saved: Upload-Metadata `owner` is the database id; the file
 * goes under `databases/<id>/communications/<upload>/<name>` and the outcome gives the
 * { path, name } the editor saves with the communication (which checks the folder).
 */
export const communicationAttachmentPurpose: UploadPurpose = {
  contentTypes: Object.keys(attachmentContentTypes),
  async authorize(deps, caller, upload) {
    if (!z.uuid().safeParse(upload.owner).success) throw notFound();
    if (caller.kind !== 'user') throw forbidden();
    await findDatabaseInScope(deps.db, caller.scope, upload.owner);
    if (!canEditCommunications(caller.scope)) throw forbidden();
  },
  async complete(deps, caller, upload) {
    await communicationAttachmentPurpose.authorize(deps, caller, upload);
    const allowed = attachmentContentTypes[upload.filetype];
    if (!allowed || !hasSignatureOf(upload.filetype, await upload.head(16))) {
      throw new AppError('file/unsupported-type');
    }
    const name = attachmentNameOf(upload.filename);
    const path = `${attachmentFolder(upload.owner)}${attachmentIdOf(upload.id)}/${plainFileName(name, allowed.extension)}`;
    await upload.moveTo(path);
    return { path, name, url: `/api/files/${path}` };
  },
};

import { Metadata, TUS_RESUMABLE } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NodeRequest } from 'srvx/node';
import { z } from 'zod';
import type { AppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/scope';
import { communicationAttachmentPurpose } from '../communications/communication-attachment.purpose';
import { documentUploadPurpose } from '../documents/document-upload.purpose';
import { registerTaskAttachmentPurposes } from '../task-configurations/task-attachments.purpose';
import { trainingAttachmentPurpose } from '../trainings/training-attachment.purpose';
import { registerElementAttachmentPurposes } from './element-attachments.purpose';
import { type UploadCaller, UploadPurposes } from './purposes';
import {
  callerKey,
  callerStamp,
  createUploads,
  maxUploadBytes,
  type UploadMetadata,
  type UploadOutcome,
  uploadIdPattern,
} from './uploads.service';

const tags = ['uploads'];
const params = z.object({ id: z.string().max(100) });

const uploadStatusSchema = z.object({
  id: z.string(),
  purpose: z.string(),
  owner: z.string(),
  filename: z.string(),
  size: z.number().int(),
  offset: z.number().int(),
  status: z.enum(['uploading', 'completed', 'failed']),
  /** What the purpose answered (e.g. the attachment id), once completed. */
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const invalid = (path: string, message: string) =>
  new AppError('validation/invalid-input', undefined, [{ path, message }]);

/** A file name as given, without any directory part; 1 to 255 characters, no control ones. */
function fileNameOf(value: string | null | undefined): string {
  const name = (value ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters
  if (!name || name.length > 255 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw invalid('Upload-Metadata.filename', 'A file name of 1 to 255 characters is required.');
  }
  return name;
}

/**
 * Resumable uploads (tus 1.0: creation, expiration, termination) at /api/uploads, for every
 * large file of the product. The caller is the session's user (cookie with the CSRF token on
 * writes, or bearer) or a paired tablet (device token). Creation checks the declared length
 * (500 MB, 'documents.file-too-big' before any byte is stored), the metadata (`purpose`,
 * `owner`, `filename`, `filetype`) and the purpose's own authorization; each later request
 * must come from the upload's creator (404 otherwise). Once the last byte is in, the purpose
 * moves the file into storage under a key the server builds; GET /api/uploads/:id answers the
 * outcome.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  // The purposes the modules own (each checks its records and stores its files).
  const purposes = new UploadPurposes();
  registerElementAttachmentPurposes(purposes);
  purposes.register('document', documentUploadPurpose);
  registerTaskAttachmentPurposes(purposes);
  purposes.register('communication-attachment', communicationAttachmentPurpose);
  purposes.register('training-attachment', trainingAttachmentPurpose);
  const uploads = createUploads(deps, purposes, app.log);
  // After the last request: the lock connections and the release listener (PostgreSQL).
  app.addHook('onClose', async () => {
    await uploads.close();
  });

  // Stale unfinished uploads of a previous run; the hourly 'uploads-cleanup' job does the rest.
  app.addHook('onReady', async () => {
    await uploads.cleanUp().catch((error: unknown) => {
      app.log.warn({ err: error }, 'upload cleanup failed');
    });
  });

  // The tus server reads the request body itself: nothing is parsed or buffered here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  async function callerOf(request: FastifyRequest): Promise<UploadCaller> {
    if (request.auth) {
      const user = request.auth.user;
      return { kind: 'user', user, scope: await scopeOf(request, deps.db, user) };
    }
    if (request.device) {
      if (!request.device.storeLicensed) throw new AppError('device/store-unlicensed');
      return { kind: 'device', device: request.device };
    }
    throw new AppError('auth/unauthenticated');
  }

  const toTus = (request: FastifyRequest, reply: FastifyReply) =>
    new NodeRequest({ req: request.raw, res: reply.raw });

  /** The outcome of a finished upload as an error, when its purpose refused the file. */
  const refusal = (outcome: UploadOutcome) =>
    outcome.error ? new AppError(outcome.error.code, outcome.error.message) : null;

  const completedHead = (reply: FastifyReply, size: number) =>
    reply
      .code(200)
      .headers({
        'tus-resumable': TUS_RESUMABLE,
        'upload-offset': String(size),
        'upload-length': String(size),
        'cache-control': 'no-store',
      })
      .send();

  /** The caller's upload: its recorded outcome once finished, else its info (404 otherwise). */
  async function findOwnUpload(id: string, caller: UploadCaller) {
    if (!uploadIdPattern.test(id)) throw notFound();
    const outcome = await uploads.readOutcome(id);
    if (outcome) {
      if (outcome.caller !== callerStamp(caller)) throw notFound();
      return { outcome, upload: null };
    }
    const upload = await uploads.findUpload(id);
    const metadata = upload?.metadata as UploadMetadata | undefined;
    if (!upload || metadata?.[callerKey] !== callerStamp(caller)) throw notFound();
    return { outcome: null, upload: { size: upload.size, offset: upload.offset, metadata } };
  }

  app.options('/uploads', { schema: { hide: true } }, async (request, reply) =>
    reply.send(await uploads.tus.handleWeb(toTus(request, reply))),
  );

  app.post('/uploads', { schema: { tags } }, async (request, reply) => {
    const caller = await callerOf(request);
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const lengthHeader = header('upload-length');
    if (lengthHeader === undefined || !/^\d{1,16}$/.test(lengthHeader)) {
      throw invalid('Upload-Length', 'The upload length is required (no deferred length).');
    }
    const size = Number(lengthHeader);
    if (size > maxUploadBytes) throw new AppError('documents.file-too-big');
    if (size === 0) throw invalid('Upload-Length', 'The file is empty.');
    let metadata: Record<string, string | null | undefined>;
    try {
      metadata = Metadata.parse(header('upload-metadata'));
    } catch {
      throw invalid('Upload-Metadata', 'The upload metadata is not valid.');
    }
    const purposeName = metadata.purpose ?? '';
    const purpose = purposes.get(purposeName);
    if (!purpose) throw invalid('Upload-Metadata.purpose', 'Unknown upload purpose.');
    const owner = metadata.owner ?? '';
    if (!owner || owner.length > 200) {
      throw invalid('Upload-Metadata.owner', 'The record the file is for is required.');
    }
    const filename = fileNameOf(metadata.filename);
    const filetype = (metadata.filetype ?? '').trim().toLowerCase();
    if (!/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(filetype) || filetype.length > 100) {
      throw invalid('Upload-Metadata.filetype', 'The file type is required.');
    }
    if (purpose.contentTypes && !purpose.contentTypes.includes(filetype)) {
      throw new AppError('file/unsupported-type');
    }
    await purpose.authorize(deps, caller, { owner, filename, filetype, size });

    const tusRequest = toTus(request, reply);
    uploads.creations.set(tusRequest, {
      purpose: purposeName,
      owner,
      filename,
      filetype,
      [callerKey]: callerStamp(caller),
    });
    const response = await uploads.tus.handleWeb(tusRequest);
    // Creation with upload (the whole file in the POST): finished at once.
    const id = response.headers.get('location')?.split('/').pop();
    if (response.status === 201 && id && response.headers.get('upload-offset') === String(size)) {
      const failure = refusal(await uploads.finish(id, caller));
      if (failure) throw failure;
    }
    return reply.send(response);
  });

  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: '/uploads/:id',
    schema: { tags, params },
    handler: async (request, reply) => {
      const caller = await callerOf(request);
      const { id } = request.params as z.infer<typeof params>;
      const { outcome, upload } = await findOwnUpload(id, caller);

      if (outcome) {
        if (request.method === 'DELETE') {
          await uploads.forget(id);
          return reply.code(204).header('tus-resumable', TUS_RESUMABLE).send();
        }
        const failure = refusal(outcome);
        if (failure) throw failure;
        if (request.method === 'HEAD') return completedHead(reply, outcome.size);
        // A PATCH after the end: nothing to write; the client learns the offset with HEAD.
        const isAtEnd = request.headers['upload-offset'] === String(outcome.size);
        return reply
          .code(isAtEnd ? 204 : 409)
          .headers({ 'tus-resumable': TUS_RESUMABLE, 'upload-offset': String(outcome.size) })
          .send();
      }

      // Every byte arrived but the finishing step did not run (a crash, a lost answer): now.
      if (request.method === 'HEAD' && upload.offset === upload.size) {
        const failure = refusal(await uploads.finish(id, caller));
        if (failure) throw failure;
        return completedHead(reply, upload.size);
      }

      const response = await uploads.tus.handleWeb(toTus(request, reply));
      const isLastPatch =
        request.method === 'PATCH' &&
        response.status === 204 &&
        response.headers.get('upload-offset') === String(upload.size);
      if (isLastPatch) {
        const failure = refusal(await uploads.finish(id, caller));
        if (failure) throw failure;
      }
      return reply.send(response);
    },
  });

  app.get(
    '/uploads/:id',
    { exposeHeadRoute: false, schema: { tags, params, response: { 200: uploadStatusSchema } } },
    async (request) => {
      const caller = await callerOf(request);
      const { id } = request.params;
      let { outcome, upload } = await findOwnUpload(id, caller);
      if (upload && upload.offset === upload.size) {
        outcome = await uploads.finish(id, caller);
      }
      if (outcome) {
        return {
          id,
          purpose: outcome.purpose,
          owner: outcome.owner,
          filename: outcome.filename,
          size: outcome.size,
          offset: outcome.size,
          status: outcome.status,
          result: outcome.result,
          error: outcome.error,
        };
      }
      const { size, offset, metadata } = upload!;
      return {
        id,
        purpose: metadata.purpose,
        owner: metadata.owner,
        filename: metadata.filename,
        size,
        offset,
        status: 'uploading' as const,
        result: null,
        error: null,
      };
    },
  );
};

import { Readable } from 'node:stream';
import {
  type AttachmentType,
  attachmentContentTypes,
  attachmentNameMaxLength,
  maxAttachmentBytes,
} from '@mise/shared/catalogue/constants';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors';
import type { Storage } from '../../platform/storage';

export const maxImageBytes = 5 * 1024 * 1024;

const imageTypes = {
  'image/png': { extension: 'png' },
  'image/jpeg': { extension: 'jpg' },
  'image/webp': { extension: 'webp' },
} as const;

export type ImageType = keyof typeof imageTypes;

/** Reads one image from a multipart request: allow-listed type, checked magic bytes, size cap. */
export async function readImageUpload(
  request: FastifyRequest,
): Promise<{ data: Buffer; contentType: ImageType; extension: string }> {
  if (!request.isMultipart())
    throw new AppError('validation/invalid-input', 'Send the image as multipart/form-data.');
  const file = await request.file({ limits: { fileSize: maxImageBytes, files: 1 } });
  if (!file) throw new AppError('validation/invalid-input', 'No file was sent.');
  const type = imageTypes[file.mimetype as ImageType];
  if (!type) {
    file.file.resume();
    throw new AppError('file/unsupported-type');
  }
  const data = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('file/too-large');
    throw error;
  });
  if (!hasSignatureOf(file.mimetype, data)) throw new AppError('file/unsupported-type');
  return { data, contentType: file.mimetype as ImageType, extension: type.extension };
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length &&
  bytes.every((byte, index) => data[offset + index] === byte);

/** Magic bytes of every accepted file type (images, videos, PDF). */
const signatures: Record<string, (head: Buffer) => boolean> = {
  'image/png': (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  'image/webp': (head) => startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8),
  'image/gif': (head) => startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a')),
  'video/mp4': (head) => startsWith(head, ascii('ftyp'), 4),
  'video/quicktime': (head) =>
    ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].some((box) => startsWith(head, ascii(box), 4)),
  'video/webm': (head) => startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]),
  'application/pdf': (head) => startsWith(head, ascii('%PDF-')),
};

/** Whether the first bytes of a file match its declared content type. */
export function hasSignatureOf(contentType: string, head: Buffer): boolean {
  const check = Object.hasOwn(signatures, contentType) ? signatures[contentType] : undefined;
  return check ? check(head) : false;
}

/** The image type of downloaded bytes (PNG, JPEG or WebP), by magic bytes; null otherwise. */
export function detectImageType(
  data: Buffer,
): { contentType: ImageType; extension: string } | null {
  for (const [contentType, type] of Object.entries(imageTypes)) {
    if (hasSignatureOf(contentType, data)) {
      return { contentType: contentType as ImageType, extension: type.extension };
    }
  }
  return null;
}

/** Content types served by GET /api/files/<key>, by extension. */
const servedTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
};

export function contentTypeOf(key: string): string {
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  return Object.hasOwn(servedTypes, extension)
    ? servedTypes[extension]!
    : 'application/octet-stream';
}

const headLength = 16;

/** Passes the stream through once its first bytes match the declared type. */
async function* checkedHead(
  source: AsyncIterable<Buffer>,
  contentType: string,
): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let isChecked = false;
  for await (const chunk of source) {
    if (isChecked) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length >= headLength) {
      if (!hasSignatureOf(contentType, head)) throw new AppError('file/unsupported-type');
      isChecked = true;
      yield head;
    }
  }
  if (!isChecked) {
    if (!hasSignatureOf(contentType, head)) throw new AppError('file/unsupported-type');
    yield head;
  }
}

export type StoredAttachment = {
  name: string;
  type: AttachmentType;
  contentType: string;
  size: number;
};

/** A file name as shown: no directory part, trimmed, at most the attachment name length. */
export function attachmentNameOf(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return base.slice(0, attachmentNameMaxLength) || 'attachment';
}

/**
 * Streams one multipart file to storage under the key `keyFor(extension)` builds: allow-listed
 * content type, magic bytes checked on the first bytes, size capped; nothing is left in
 * storage when a check fails.
 */
export async function receiveAttachment(
  request: FastifyRequest,
  storage: Storage,
  keyFor: (extension: string) => string,
): Promise<StoredAttachment & { key: string }> {
  if (!request.isMultipart())
    throw new AppError('validation/invalid-input', 'Send the file as multipart/form-data.');
  const file = await request.file({ limits: { fileSize: maxAttachmentBytes, files: 1 } });
  if (!file) throw new AppError('validation/invalid-input', 'No file was sent.');
  const allowed = Object.hasOwn(attachmentContentTypes, file.mimetype)
    ? attachmentContentTypes[file.mimetype]
    : undefined;
  if (!allowed) {
    file.file.resume();
    throw new AppError('file/unsupported-type');
  }
  const key = keyFor(allowed.extension);
  const { size } = await storage.putStream(
    key,
    Readable.from(checkedHead(file.file, file.mimetype)),
  );
  if (file.file.truncated) {
    await storage.delete(key);
    throw new AppError('file/too-large');
  }
  return {
    key,
    name: attachmentNameOf(file.filename),
    type: allowed.type,
    contentType: file.mimetype,
    size,
  };
}

/**
 * A file name in storage-key letters (keys are built by the server): no accents, any other
 * character as '-', at most 80 letters, then its extension.
 */
export function plainFileName(name: string, extension: string): string {
  const base = name.replace(/\.[^.]*$/, '');
  const plain = base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  const suffix = extension
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 10);
  return `${plain || 'file'}${suffix ? `.${suffix}` : ''}`;
}

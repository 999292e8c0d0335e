import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors';

export const maxImageBytes = 5 * 1024 * 1024;

const imageTypes = {
  'image/png': { extension: 'png', magic: [0x89, 0x50, 0x4e, 0x47] },
  'image/jpeg': { extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
  'image/webp': { extension: 'webp', magic: [0x52, 0x49, 0x46, 0x46] },
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
  if (!type.magic.every((byte, index) => data[index] === byte))
    throw new AppError('file/unsupported-type');
  return { data, contentType: file.mimetype as ImageType, extension: type.extension };
}

export function contentTypeOf(key: string): string {
  const extension = key.split('.').pop();
  const found = Object.entries(imageTypes).find(([, value]) => value.extension === extension);
  return found ? found[0] : 'application/octet-stream';
}

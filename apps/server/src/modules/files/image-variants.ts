import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { z } from 'zod';
import type { Storage } from '../../platform/storage';

/*
 * Resized images (spec 000 §7: the image CDN's width, height and watermark; thumbnails 128
 * wide by default), made with sharp from the stored original and kept in storage beside it, so a
 * variant is computed once. Only PNG, JPEG, WebP and GIF originals are resized.
 */

/** Spec 000 §7: a thumbnail is 128 pixels wide unless asked otherwise. */
export const defaultThumbnailWidth = 128;
const maxSide = 2048;
const maxSourceBytes = 25 * 1024 * 1024;
const resizable = new Set(['png', 'jpg', 'jpeg', 'webp', 'gif']);

export const imageVariantQuerySchema = z.object({
  w: z.coerce.number().int().min(16).max(maxSide).optional(),
  h: z.coerce.number().int().min(16).max(maxSide).optional(),
  /** 'thumb' = the default thumbnail width. */
  size: z.literal('thumb').optional(),
  watermark: z.enum(['true', 'false']).optional(),
});
export type ImageVariantQuery = z.infer<typeof imageVariantQuerySchema>;

export type ImageVariant = { width?: number; height?: number; watermark: boolean };

/** The variant a query asks for, or null for the original. */
export function variantOf(query: ImageVariantQuery): ImageVariant | null {
  const width = query.w ?? (query.size === 'thumb' ? defaultThumbnailWidth : undefined);
  const watermark = query.watermark === 'true';
  if (width === undefined && query.h === undefined && !watermark) return null;
  return { width, height: query.h, watermark };
}

export function isResizable(key: string): boolean {
  return resizable.has(key.split('.').pop()?.toLowerCase() ?? '');
}

/** Where a variant of an original is kept (a hash: the original's key may be long). */
export function variantKey(key: string, variant: ImageVariant): string {
  const hash = createHash('sha256').update(key).digest('hex');
  const name = `${variant.width ?? 0}x${variant.height ?? 0}${variant.watermark ? '-wm' : ''}.webp`;
  return `image-variants/${hash.slice(0, 2)}/${hash}/${name}`;
}

const watermarkSvg = (width: number, height: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" ` +
      `font-family="DejaVu Sans, sans-serif" font-size="${Math.max(12, Math.round(width / 8))}" ` +
      `fill="white" fill-opacity="0.45" stroke="black" stroke-opacity="0.25" ` +
      `transform="rotate(-30 ${width / 2} ${height / 2})">Mise</text></svg>`,
  );

async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.get(key);
  if (!file) return null;
  if (file.size > maxSourceBytes) {
    file.stream.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The key of the variant, made and stored on first use; null when the original is missing,
 * too large or not an image sharp reads.
 */
export async function ensureVariant(
  storage: Storage,
  key: string,
  variant: ImageVariant,
): Promise<string | null> {
  const target = variantKey(key, variant);
  if (await storage.stat(target)) return target;
  const source = await readAll(storage, key);
  if (!source) return null;
  try {
    let image = sharp(source, { failOn: 'error', limitInputPixels: 50_000_000 })
      .rotate()
      .resize(variant.width, variant.height, { fit: 'inside', withoutEnlargement: true });
    if (variant.watermark) {
      const resized = await image.toBuffer({ resolveWithObject: true });
      image = sharp(resized.data).composite([
        { input: watermarkSvg(resized.info.width, resized.info.height), gravity: 'center' },
      ]);
    }
    await storage.put(target, await image.webp({ quality: 80 }).toBuffer());
    return target;
  } catch {
    return null;
  }
}

import { resultLines } from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import sharp from 'sharp';
import type { Storage } from '../../platform/storage';
import { taskPicturePrefix } from '../tasks/task-results.service';

/*
 * The pictures of the history PDF: each result picture read through the storage module and
 * resized with sharp to a small JPEG thumbnail. Only the store's own task pictures are read
 * (their keys start with the store's prefix); a missing, oversized or unreadable file simply
 * has no thumbnail (the PDF keeps the picture count).
 */

/** Thumbnail box in pixels (about 2× the 42 pt the PDF prints, for a sharp print). */
const thumbnailPixels = 96;
/** Pictures read per export at most, and bytes per source file. */
const maxPicturesPerExport = 600;
const maxSourceBytes = 15 * 1024 * 1024;
/** Files read and resized at once. */
const concurrency = 4;

async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.get(key).catch(() => null);
  if (!file || file.size > maxSourceBytes) {
    file?.stream.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function thumbnailOf(storage: Storage, key: string): Promise<Buffer | null> {
  try {
    const source = await readAll(storage, key);
    if (!source) return null;
    return await sharp(source, { failOn: 'error', limitInputPixels: 50_000_000 })
      .rotate()
      .resize(thumbnailPixels, thumbnailPixels, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 70 })
      .toBuffer();
  } catch {
    return null;
  }
}

/** Thumbnails of the pictures of the given tasks' results, by storage path. */
export async function loadResultThumbnails(
  storage: Storage,
  storeId: string,
  tasks: readonly HistoryTask[],
): Promise<Map<string, Buffer>> {
  const prefix = taskPicturePrefix(storeId);
  const paths = new Set<string>();
  for (const task of tasks) {
    for (const line of resultLines(task)) {
      if (line.module === 'temperature_control') continue;
      for (const path of line.picture_paths) {
        if (path.startsWith(prefix) && paths.size < maxPicturesPerExport) paths.add(path);
      }
    }
  }
  const queue = [...paths];
  const thumbnails = new Map<string, Buffer>();
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const thumbnail = await thumbnailOf(storage, path);
      if (thumbnail) thumbnails.set(path, thumbnail);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return thumbnails;
}

import { type DocumentItem, previewExtensions } from '@mise/shared/documents/schemas';

/**
 * How an item opens (spec 002 §2; issue 17): a folder is browsed, an image previews in a modal,
 * a video plays in a modal, a PDF opens in the browser's viewer, anything else downloads.
 */
export type DocumentOpening = 'folder' | 'image' | 'video' | 'pdf' | 'download';

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const imageExtensions: ReadonlySet<string> = new Set(previewExtensions);

export function documentOpening(item: DocumentItem): DocumentOpening {
  if (item.type === 'folder') return 'folder';
  if (item.url === null) return 'download';
  if (item.isVideo) return 'video';
  const extension = fileExtension(item.name);
  if (imageExtensions.has(extension)) return 'image';
  if (extension === 'pdf' || item.content_type === 'application/pdf') return 'pdf';
  return 'download';
}

/** The rights the screen draws (the server checks them again). */
export function canWrite(item: DocumentItem): boolean {
  return !item.forceReadonly;
}

/** Rename and delete wait for an unlock; lock/unlock itself needs write rights only. */
export function canChange(item: DocumentItem): boolean {
  return !item.forceReadonly && !item.locked;
}

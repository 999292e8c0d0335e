import type { Element } from '@mise/shared/catalogue/schemas';
import { apiRequest, apiUpload } from '../../../shared/api/api-client';
import { type ElementLevel, elementPath } from './element-query-keys';

export type ElementImageKind = 'illustration' | 'allergenIllustration';
type ProgressHandler = (percent: number) => void;

/** `?version=N`: the element's version the screen holds (a stale one answers 409). */
function withVersion(path: string, version: number): string {
  return `${path}?version=${encodeURIComponent(String(version))}`;
}

function fileForm(file: File): FormData {
  const formData = new FormData();
  formData.append('file', file);
  return formData;
}

/**
 * POST /api/{databaseElements|storeElements}/:id/illustration?version=N or
 * …/allergenIllustration?version=N (multipart field `file`): the updated element.
 */
export async function uploadElementImage(
  level: ElementLevel,
  id: string,
  version: number,
  kind: ElementImageKind,
  file: File,
  onProgress?: ProgressHandler,
): Promise<Element> {
  const { element } = await apiUpload<{ element: Element }>(
    withVersion(`${elementPath(level, id)}/${kind}`, version),
    { formData: fileForm(file), onProgress },
  );
  return element;
}

/** POST …/illustration/stock?version=N {url}: the server downloads the stock image and stores it. */
export async function pickStockImage(
  level: ElementLevel,
  id: string,
  version: number,
  url: string,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    withVersion(`${elementPath(level, id)}/illustration/stock`, version),
    { method: 'POST', body: { url } },
  );
  return element;
}

/** GET /api/elementAttachments/:id/download */
export function attachmentDownloadUrl(attachmentId: string): string {
  return `/api/elementAttachments/${encodeURIComponent(attachmentId)}/download`;
}

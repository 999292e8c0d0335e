import type { Attachment, Element } from '@mise/shared/catalogue/schemas';
import { apiRequest, apiUpload } from '../../../shared/api/api-client';
import { type ElementLevel, elementPath } from './element-query-keys';

export type ElementImageKind = 'illustration' | 'allergenIllustration';
type ProgressHandler = (percent: number) => void;

function fileForm(file: File): FormData {
  const formData = new FormData();
  formData.append('file', file);
  return formData;
}

/**
 * POST /api/{databaseElements|storeElements}/:id/illustration or …/allergenIllustration
 * (multipart field `file`): the updated element.
 */
export async function uploadElementImage(
  level: ElementLevel,
  id: string,
  kind: ElementImageKind,
  file: File,
  onProgress?: ProgressHandler,
): Promise<Element> {
  const { element } = await apiUpload<{ element: Element }>(`${elementPath(level, id)}/${kind}`, {
    formData: fileForm(file),
    onProgress,
  });
  return element;
}

/** POST …/illustration/stock {url}: the server downloads the stock image and stores it. */
export async function pickStockImage(
  level: ElementLevel,
  id: string,
  url: string,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    `${elementPath(level, id)}/illustration/stock`,
    { method: 'POST', body: { url } },
  );
  return element;
}

/**
 * POST …/attachments (multipart field `file`), with progress. The answer carries the new
 * attachment, and the element when the server sends it back (its version moved).
 */
export async function uploadElementAttachment(
  level: ElementLevel,
  id: string,
  file: File,
  onProgress?: ProgressHandler,
): Promise<{ attachment: Attachment | null; element: Element | null }> {
  const body = await apiUpload<{ attachment?: Attachment; element?: Element }>(
    `${elementPath(level, id)}/attachments`,
    { formData: fileForm(file), onProgress },
  );
  return { attachment: body?.attachment ?? null, element: body?.element ?? null };
}

/** GET /api/elementAttachments/:id/download */
export function attachmentDownloadUrl(attachmentId: string): string {
  return `/api/elementAttachments/${encodeURIComponent(attachmentId)}/download`;
}

import { useMutation } from '@tanstack/react-query';
import { buildApiUrl } from '../../../shared/api/api-client';
import { ApiError, apiErrorFromBody } from '../../../shared/api/api-error';
import type { Language } from '../../../shared/i18n/i18n';
import type { AllergenSource } from './get-allergen-table';

export type AllergensPdfRequest = { source: AllergenSource; language: Language };

/** The download's name: the server's Content-Disposition name, else allergens.pdf. */
function fileName(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Falls through to the plain name.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? 'allergens.pdf';
}

export function allergensPdfUrl({ source, language }: AllergensPdfRequest): string {
  return buildApiUrl('/pdf/allergens', { ...source, lang: language });
}

/**
 * GET /api/pdf/allergens?databaseId=|storeId=&lang=: the server renders the table on A4; the
 * file is fetched (so the screen can show that it is being generated and report a failure)
 * and handed to the browser as a download.
 */
export async function downloadAllergensPdf(request: AllergensPdfRequest): Promise<void> {
  let response: Response;
  try {
    response = await fetch(allergensPdfUrl(request), {
      credentials: 'same-origin',
      headers: { accept: 'application/pdf' },
    });
  } catch {
    throw new ApiError({ status: 0, code: 'network', message: 'Unable to reach the API' });
  }
  if (!response.ok) {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    throw apiErrorFromBody(response.status, body);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName(response);
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has started the download by now; the blob can go once it has been read.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function useDownloadAllergensPdf() {
  return useMutation({ mutationFn: downloadAllergensPdf });
}

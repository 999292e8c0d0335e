import { buildApiUrl, refreshCsrfToken } from '../api/api-client';
import { ApiError, apiErrorFromBody } from '../api/api-error';

/** The server answered 2xx with another type than the one asked for (spec 002 §8). */
export class UnexpectedFileTypeError extends Error {
  readonly contentType: string;

  constructor(contentType: string) {
    super(`Unexpected file type received from the server: ${contentType || 'none'}`);
    this.name = 'UnexpectedFileTypeError';
    this.contentType = contentType;
  }
}

export function isUnexpectedFileTypeError(error: unknown): error is UnexpectedFileTypeError {
  return error instanceof UnexpectedFileTypeError;
}

/** Bytes received so far; `percent` is null while the size is unknown. */
export type DownloadProgress = { loaded: number; total: number | null; percent: number | null };

export type DownloadRequest = {
  /** API path under /api ('/pdf/tasks'). */
  path: string;
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  /** The answer must have this content type ('application/pdf'), else UnexpectedFileTypeError. */
  expectedType: string;
  /** The file's name when the server does not give one (Content-Disposition). */
  fileName: string;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
};

export type DownloadedFile = { blob: Blob; fileName: string };

/** The name a Content-Disposition header gives (RFC 6266 `filename*` first), else null. */
export function fileNameFromDisposition(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Falls through to the plain name.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

async function readErrorBody(response: unknown): Promise<unknown> {
  try {
    const text =
      response instanceof Blob
        ? await response.text()
        : typeof response === 'string'
          ? response
          : '';
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

const networkError = () =>
  new ApiError({ status: 0, code: 'network', message: 'Unable to reach the API' });

/**
 * Fetches a file from the API with XMLHttpRequest, which (unlike fetch) reports download
 * progress. Same session cookie and CSRF header as apiRequest; a failed answer becomes the
 * ApiError of its `{ error }` body, a 2xx of another type an UnexpectedFileTypeError.
 */
export async function fetchFile(request: DownloadRequest): Promise<DownloadedFile> {
  const method = request.method ?? (request.body === undefined ? 'GET' : 'POST');
  // The token is session-bound: a fresh read is always valid for this write.
  const csrfToken = method === 'GET' ? null : await refreshCsrfToken();
  return new Promise<DownloadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, buildApiUrl(request.path));
    xhr.responseType = 'blob';
    xhr.setRequestHeader('accept', `${request.expectedType}, application/json`);
    if (request.body !== undefined) xhr.setRequestHeader('content-type', 'application/json');
    if (csrfToken) xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.withCredentials = true;

    const handleAbort = () => xhr.abort();
    request.signal?.addEventListener('abort', handleAbort, { once: true });
    const settle = () => request.signal?.removeEventListener('abort', handleAbort);

    xhr.onprogress = (event) => {
      const total = event.lengthComputable && event.total > 0 ? event.total : null;
      request.onProgress?.({
        loaded: event.loaded,
        total,
        percent: total ? Math.min(100, Math.round((event.loaded / total) * 100)) : null,
      });
    };
    xhr.onload = async () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(apiErrorFromBody(xhr.status, await readErrorBody(xhr.response)));
        return;
      }
      const contentType = mediaType(xhr.getResponseHeader('content-type'));
      if (contentType !== request.expectedType.toLowerCase()) {
        reject(new UnexpectedFileTypeError(contentType));
        return;
      }
      const blob =
        xhr.response instanceof Blob
          ? xhr.response
          : new Blob([xhr.response ?? ''], { type: request.expectedType });
      resolve({
        blob,
        fileName:
          fileNameFromDisposition(xhr.getResponseHeader('content-disposition')) ?? request.fileName,
      });
    };
    xhr.onerror = () => {
      settle();
      reject(networkError());
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The download was cancelled', 'AbortError'));
    };
    xhr.send(request.body === undefined ? null : JSON.stringify(request.body));
  });
}

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has started the download by now; the blob can go once it has been read.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** fetchFile, then saveBlob: the whole download with progress. */
export async function downloadFile(request: DownloadRequest): Promise<DownloadedFile> {
  const file = await fetchFile(request);
  saveBlob(file.blob, file.fileName);
  return file;
}

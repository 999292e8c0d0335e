import { ApiError, apiErrorFromBody, isApiError } from './api-error';

/**
 * The one way the web app talks to the API: JSON under /api, the session
 * cookie (same-origin credentials) and, on every non-GET request, the
 * session-bound CSRF token in `x-csrf-token`.
 */

export type QueryValue = string | number | boolean | null | undefined;

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data (uploads). */
  formData?: FormData;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Extra request headers (an `Idempotency-Key`, ...). */
  headers?: Record<string, string>;
};

const apiBase = '/api';
const csrfHeader = 'x-csrf-token';

let csrfToken: string | null = null;
let csrfRequest: Promise<string | null> | null = null;

export function buildApiUrl(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value));
  }
  const queryString = search.toString();
  return `${apiBase}${path}${queryString ? `?${queryString}` : ''}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function requestCsrfToken(): Promise<string | null> {
  try {
    const response = await fetch(buildApiUrl('/auth/csrf'), {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return null;
    const body = (await readJson(response)) as { csrfToken?: unknown } | null;
    return typeof body?.csrfToken === 'string' ? body.csrfToken : null;
  } catch {
    return null;
  }
}

/**
 * Fetches a fresh CSRF token. Call it once when the app loads and again after
 * anything that changes the session (login, logout, token sign-in): the token
 * is bound to the session.
 */
export function refreshCsrfToken(): Promise<string | null> {
  const request = requestCsrfToken().then((token) => {
    if (csrfRequest === request) {
      csrfToken = token;
      csrfRequest = null;
    }
    return token;
  });
  csrfRequest = request;
  return request;
}

/** Forgets the current token; the next write fetches a new one. */
export function resetCsrfToken(): void {
  csrfToken = null;
  csrfRequest = null;
}

async function currentCsrfToken(): Promise<string | null> {
  if (csrfRequest) return csrfRequest;
  if (csrfToken) return csrfToken;
  return refreshCsrfToken();
}

async function send(path: string, options: ApiRequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.formData) {
    body = options.formData;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET') {
    const token = await currentCsrfToken();
    if (token) headers[csrfHeader] = token;
  }
  try {
    return await fetch(buildApiUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: 'network', message: 'Unable to reach the API' });
  }
}

/**
 * Calls the API and returns the parsed JSON body, or throws an ApiError
 * carrying the server's code and message. A write refused for a stale CSRF
 * token is retried once with a fresh token.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  let response = await send(path, options);
  if (!response.ok) {
    const body = await readJson(response);
    const error = apiErrorFromBody(response.status, body);
    if (!isApiError(error, 'auth/csrf') || (options.method ?? 'GET') === 'GET') throw error;
    await refreshCsrfToken();
    response = await send(path, options);
    if (!response.ok) throw apiErrorFromBody(response.status, await readJson(response));
  }
  return (await readJson(response)) as T;
}

type UploadOptions = {
  formData: FormData;
  onProgress?: (percent: number) => void;
};

function uploadOnce<T>(path: string, options: UploadOptions, token: string | null): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', buildApiUrl(path));
    request.setRequestHeader('accept', 'application/json');
    if (token) request.setRequestHeader(csrfHeader, token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable)
        options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      let body: unknown = null;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(apiErrorFromBody(request.status, body));
    };
    request.onerror = () =>
      reject(new ApiError({ status: 0, code: 'network', message: 'Unable to reach the API' }));
    request.send(options.formData);
  });
}

/**
 * Multipart upload with progress (fetch cannot report upload progress).
 * Same CSRF rules as apiRequest.
 */
export async function apiUpload<T>(path: string, options: UploadOptions): Promise<T> {
  try {
    return await uploadOnce<T>(path, options, await currentCsrfToken());
  } catch (error) {
    if (!isApiError(error, 'auth/csrf')) throw error;
    return uploadOnce<T>(path, options, await refreshCsrfToken());
  }
}

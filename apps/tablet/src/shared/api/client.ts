import { getDeviceToken } from '../device/device-token';

/** An answer of the API that is not a success: its status and the server's error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The request never got an answer (no network, server down, timeout). */
export class NetworkError extends Error {
  constructor(message = 'network') {
    super(message);
    this.name = 'NetworkError';
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Multipart or binary uploads: sent as they are. */
  formData?: FormData;
  /** The identified employee's token (`x-employee-token`), for the employee's actions. */
  employeeToken?: string | null;
  signal?: AbortSignal;
  /** Milliseconds before the request is abandoned as a network failure (default 20 s). */
  timeoutMs?: number;
};

/**
 * Every call of the tablet: /api with the device token as Bearer, JSON in and out. A failed
 * answer becomes an ApiError with the server's code; no answer at all a NetworkError (the
 * outbox keeps the record and retries).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  const token = await getDeviceToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.employeeToken) headers['x-employee-token'] = options.employeeToken;
  // The tablet's clock at sending: with the time a record reports, the server places a record
  // made offline on its own clock (a reading kept when the network returns after its window).
  headers['x-sent-at'] = new Date().toISOString();
  let body: BodyInit | undefined;
  if (options.formData) body = options.formData;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error instanceof Error ? error.message : 'network');
  }
  // 204 No Content (e.g. a push subscription kept) has no JSON to read.
  if (response.status === 204) return undefined as T;
  if (response.ok) return (await response.json()) as T;
  // A proxy's or the browser's own failure page is no answer of ours: retry later.
  const payload = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  if (!payload?.error?.code) {
    if (response.status >= 500 || response.status === 0)
      throw new NetworkError(`http ${response.status}`);
    throw new ApiError(response.status, 'unknown', response.statusText);
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    payload.error.code,
    payload.error.message ?? payload.error.code,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

import { DetailedError } from 'tus-js-client';
import { ApiError, apiErrorFromBody } from '../api/api-error';

/** What start() rejects with when the user cancels the upload. */
export class UploadCancelledError extends Error {
  constructor() {
    super('The upload was cancelled.');
    this.name = 'UploadCancelledError';
  }
}

export function isUploadCancelled(error: unknown): error is UploadCancelledError {
  return error instanceof UploadCancelledError;
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The API's own error in an answer (`{ error: { code, message } }`), or null when the answer is
 * not one (the tus server's plain-text answers, a proxy's page, an empty body).
 */
export function apiErrorOfAnswer(status: number, body: string | null | undefined): ApiError | null {
  const error = apiErrorFromBody(status, parseJson(body));
  return error.code === 'unknown' || (error.code === 'internal' && !parseJson(body)) ? null : error;
}

/**
 * Whether a failed request is sent again (after the next of the spec's delays): no answer, a
 * server error, a busy upload (423), a tus offset conflict (409 without our JSON) or 429 are;
 * a refusal of the API (413 'documents.file-too-big', 409 'documents.file-exists', 403, 404,
 * 415…) is final, except a stale CSRF token, sent again once with a fresh one.
 */
export function retryDecisionOf(
  status: number,
  body: string | null | undefined,
): 'retry' | 'refresh-csrf' | 'stop' {
  if (status === 0 || status >= 500) return 'retry';
  const apiError = apiErrorOfAnswer(status, body);
  if (apiError) return apiError.code === 'auth/csrf' ? 'refresh-csrf' : 'stop';
  return status === 409 || status === 423 || status === 429 ? 'retry' : 'stop';
}

const networkError = () =>
  new ApiError({ status: 0, code: 'network', message: 'Unable to reach the API' });

/** The error a failed upload shows: the API's code and message, else a network or generic one. */
export function uploadErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DetailedError) {
    const response = error.originalResponse;
    if (!response) return networkError();
    const status = response.getStatus();
    return apiErrorOfAnswer(status, response.getBody()) ?? apiErrorFromBody(status, null);
  }
  return new ApiError({
    status: 0,
    code: 'unknown',
    message: error instanceof Error ? error.message : 'The upload failed.',
  });
}

/** An upload stopped by the connection or the server (not a refusal): it may be resumed. */
export function isResumableError(error: { code: string }): boolean {
  return error.code === 'network' || error.code === 'internal';
}

import type { ApiErrorBody, ErrorCode } from '@mise/shared/errors/codes';

/** Codes the web client produces itself, next to the server's ErrorCode list. */
export type ClientErrorCode = 'network' | 'unknown';

export type ApiErrorIssue = { path: string; message: string };

/**
 * An API call that did not succeed: the server's error code and English
 * message (`{ error: { code, message, issues? } }`), or a client-side code
 * when the server could not be reached or answered something unreadable.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly issues: ApiErrorIssue[];

  constructor(options: {
    status: number;
    code: ErrorCode | ClientErrorCode;
    message: string;
    issues?: ApiErrorIssue[];
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.issues = options.issues ?? [];
  }
}

export function isApiError(error: unknown, code?: ApiError['code']): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** Builds the ApiError of a failed response from its status and (possibly unparsable) body. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  if (isApiErrorBody(body)) {
    return new ApiError({
      status,
      code: body.error.code,
      message: body.error.message,
      issues: body.error.issues,
    });
  }
  return new ApiError({
    status,
    code: status >= 500 ? 'internal' : 'unknown',
    message: `Request failed with status ${status}`,
  });
}

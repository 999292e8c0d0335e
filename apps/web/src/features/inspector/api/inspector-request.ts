import { inspectorAuthScheme } from '@mise/shared/records/links';
import { type ApiRequestOptions, apiRequest } from '../../../shared/api/api-client';

/**
 * A call of the inspector's API: the link's token in `Authorization: Inspector <token>`,
 * never in a URL (the server's logs keep URLs; the page holds the token in its fragment).
 */
export function inspectorRequest<T>(
  token: string,
  path: string,
  options: ApiRequestOptions = {},
): Promise<T> {
  return apiRequest<T>(path, {
    ...options,
    headers: { ...options.headers, authorization: `${inspectorAuthScheme} ${token}` },
  });
}

/** The Authorization header of the inspector's calls. */
export function inspectorHeaders(token: string): Record<string, string> {
  return { authorization: `${inspectorAuthScheme} ${token}` };
}

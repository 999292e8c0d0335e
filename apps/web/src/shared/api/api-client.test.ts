import { describe, expect, it, vi } from 'vitest';
import { apiError, mockApi } from '../../test/mock-api';
import { apiRequest, refreshCsrfToken } from './api-client';
import { ApiError } from './api-error';

describe('api client', () => {
  it('reads without a CSRF token and writes with the session one', async () => {
    const api = mockApi({
      'GET /api/things': { body: { items: [1] } },
      'POST /api/things': { body: { status: 'ok' } },
    });

    expect(await apiRequest('/things', { query: { search: 'a b', skipped: undefined } })).toEqual({
      items: [1],
    });
    expect(api.calls[0]?.headers.get('x-csrf-token')).toBeNull();
    expect(api.calls[0]?.query.toString()).toBe('search=a+b');

    await apiRequest('/things', { method: 'POST', body: { name: 'x' } });
    const post = api.callsTo('POST', '/api/things')[0];
    expect(post?.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(post?.headers.get('content-type')).toBe('application/json');
    expect(post?.body).toEqual({ name: 'x' });
    expect(api.fetchMock.mock.calls[0]?.[1]?.credentials).toBe('same-origin');
  });

  it('refetches the token and retries once when the server refuses it', async () => {
    let csrfReads = 0;
    let attempts = 0;
    const api = mockApi({
      'GET /api/auth/csrf': () => {
        csrfReads += 1;
        return { body: { csrfToken: `csrf-${csrfReads}` } };
      },
      'POST /api/things': ({ headers }) => {
        attempts += 1;
        return headers.get('x-csrf-token') === 'csrf-2'
          ? { body: { status: 'ok' } }
          : apiError(403, 'auth/csrf');
      },
    });
    await refreshCsrfToken();

    await expect(apiRequest('/things', { method: 'POST' })).resolves.toEqual({ status: 'ok' });
    expect(attempts).toBe(2);
    expect(api.callsTo('GET', '/api/auth/csrf')).toHaveLength(2);
  });

  it('gives up after one retry', async () => {
    mockApi({ 'POST /api/things': apiError(403, 'auth/csrf') });
    await expect(apiRequest('/things', { method: 'POST' })).rejects.toMatchObject({
      code: 'auth/csrf',
      status: 403,
    });
  });

  it("turns an error body into an ApiError with the server's code and message", async () => {
    mockApi({
      'PATCH /api/users/1': {
        status: 409,
        body: { error: { code: 'conflict/stale-version', message: 'Stale', issues: [] } },
      },
    });
    const error = await apiRequest('/users/1', { method: 'PATCH', body: {} }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'conflict/stale-version', message: 'Stale' });
  });

  it('reports an unreachable API with the network code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/me')).rejects.toMatchObject({ code: 'network', status: 0 });
  });
});

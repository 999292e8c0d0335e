import { vi } from 'vitest';

export type ApiCall = {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
};

export type MockResponse = { status?: number; body?: unknown };
export type MockHandler = MockResponse | ((call: ApiCall) => MockResponse | Promise<MockResponse>);

/** An API error body as the server sends it. */
export function apiError(status: number, code: string, message = code): MockResponse {
  return { status, body: { error: { code, message } } };
}

/**
 * Replaces `fetch` (the only boundary mocked in component tests) with a
 * router over "METHOD /api/path" keys. The CSRF endpoint answers by default;
 * anything unplanned answers 404 `not-found`.
 */
export function mockApi(handlers: Record<string, MockHandler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const rawBody = init.body;
    const body = typeof rawBody === 'string' ? JSON.parse(rawBody) : (rawBody ?? null);
    const call: ApiCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: new Headers(init.headers),
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    const handler: MockHandler | undefined =
      handlers[key] ??
      (key === 'GET /api/auth/csrf' ? { body: { csrfToken: 'csrf-1' } } : undefined);
    const result: MockResponse = handler
      ? typeof handler === 'function'
        ? await handler(call)
        : handler
      : apiError(404, 'not-found', `No mock for ${key}`);
    return new Response(result.body === undefined ? null : JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** Calls other than the CSRF token reads. */
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { e2eUrl } from './env';

/** Signs in through the real login page and waits for the landing page. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('header-name')).toBeVisible();
}

/** Fills and submits the login form, without expecting any outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * API calls with the cookie session of `request` (a page's or a context's): writes carry
 * the session's CSRF token and a same-origin Origin, as the web app sends them.
 */
export async function apiSession(request: APIRequestContext) {
  const csrfResponse = await request.get('/api/auth/csrf');
  expect(csrfResponse.ok()).toBe(true);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  expect(csrfToken, 'a cookie session (sign in first)').not.toBe('');
  const headers = { 'x-csrf-token': csrfToken, origin: e2eUrl };

  async function post<T>(path: string, data: unknown): Promise<T> {
    const response = await request.post(`/api${path}`, { data, headers });
    expect(response.ok(), `POST /api${path}: ${response.status()} ${await response.text()}`).toBe(
      true,
    );
    return (await response.json()) as T;
  }
  async function put<T>(path: string, data: unknown): Promise<T> {
    const response = await request.put(`/api${path}`, { data, headers });
    expect(response.ok(), `PUT /api${path}: ${response.status()} ${await response.text()}`).toBe(
      true,
    );
    return (await response.json()) as T;
  }
  async function get<T>(path: string, params?: Record<string, string>): Promise<T> {
    const response = await request.get(`/api${path}`, { params });
    expect(response.ok(), `GET /api${path}: ${response.status()} ${await response.text()}`).toBe(
      true,
    );
    return (await response.json()) as T;
  }

  return {
    post,
    put,
    get,
    /** The id of the account with this e-mail, as the caller's scope sees it. */
    async userIdOf(email: string): Promise<string> {
      const { items } = await get<{ items: { id: string; email: string }[] }>('/users', {
        search: email,
      });
      const found = items.find((item) => item.email === email);
      expect(found, `account ${email}`).toBeDefined();
      return found!.id;
    },
  };
}

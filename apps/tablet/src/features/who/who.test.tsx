import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentSession } from '../../shared/session/employee-session';
import { PatternGrid } from './pattern-grid';
import { PinPad } from './pin-pad';
import { formatWait, WhoScreen } from './who-screen';

afterEach(() => vi.unstubAllGlobals());

describe('PIN pad', () => {
  it('moves on with each digit and submits at the fourth, then starts empty again', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<PinPad onComplete={onComplete} />);
    for (const digit of ['1', '2', '3'])
      await user.click(screen.getByRole('button', { name: `Digit ${digit}` }));
    expect(onComplete).not.toHaveBeenCalled();
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('3 / 4');
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    await user.click(screen.getByRole('button', { name: 'Digit 9' }));
    await user.click(screen.getByRole('button', { name: 'Digit 0' }));
    expect(onComplete).toHaveBeenCalledWith('1290');
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('0 / 4');
  });
});

describe('pattern grid', () => {
  it('sends the points in the order they were tapped', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<PatternGrid onSubmit={onSubmit} />);
    for (const point of [1, 5, 9, 6])
      await user.click(screen.getByRole('button', { name: `Point ${point}` }));
    await user.click(screen.getByRole('button', { name: 'Point 5' }));
    expect(screen.getByRole('button', { name: 'Point 9' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await user.click(screen.getByRole('button', { name: 'Point 3' }));
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(onSubmit).toHaveBeenCalledWith([0, 4, 2]);
  });
});

const employees = {
  items: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Lucas',
      surname: 'Martin',
      role_id: null,
      illustration_url: null,
      using_password: true,
      has_secret: true,
    },
    {
      id: '00000000-0000-4000-8000-000000000002',
      name: 'Nina',
      surname: 'Moreau',
      role_id: null,
      illustration_url: null,
      using_password: false,
      has_secret: true,
    },
  ],
};

function renderWho(answer: (url: string, body: unknown) => Response) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) =>
    answer(url, typeof init.body === 'string' ? JSON.parse(init.body) : null),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['employees'], employees);
  render(
    <QueryClientProvider client={client}>
      <WhoScreen />
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('who is working', () => {
  it('shows the lockout message with the time left after too many wrong PINs', async () => {
    const user = userEvent.setup();
    renderWho((url) =>
      url.endsWith('/authenticate')
        ? json(
            429,
            { error: { code: 'employee/locked-out', message: 'Too many' } },
            { 'retry-after': '245' },
          )
        : json(200, employees),
    );
    await user.click(screen.getByRole('button', { name: /Lucas Martin/ }));
    for (const digit of ['1', '1', '1', '1'])
      await user.click(screen.getByRole('button', { name: `Digit ${digit}` }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many failed attempts. Try again in 4 min 05 s.',
    );
    expect(currentSession()).toBeNull();
  });

  it("shows the spec's message for a wrong PIN and opens the session on the right one", async () => {
    const user = userEvent.setup();
    renderWho((url, body) => {
      if (!url.endsWith('/authenticate')) return json(200, employees);
      return (body as { pin: string }).pin === '1234'
        ? json(200, {
            status: 'ok',
            employee: employees.items[0],
            employee_token: 'token-1',
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
          })
        : json(401, { error: { code: 'invalid-password', message: 'Invalid password.' } });
    });
    await user.click(screen.getByRole('button', { name: /Lucas Martin/ }));
    for (const digit of ['9', '9', '9', '9'])
      await user.click(screen.getByRole('button', { name: `Digit ${digit}` }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid password. Please enter a 4-digit PIN.',
    );
    for (const digit of ['1', '2', '3', '4'])
      await user.click(screen.getByRole('button', { name: `Digit ${digit}` }));
    await vi.waitFor(() => expect(currentSession()?.token).toBe('token-1'));
  });

  it('refuses a pattern of fewer than 3 points before asking the server', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    renderWho((url) => {
      calls.push(url);
      return json(200, employees);
    });
    await user.click(screen.getByRole('button', { name: /Nina Moreau/ }));
    await user.click(screen.getByRole('button', { name: 'Point 1' }));
    await user.click(screen.getByRole('button', { name: 'Point 2' }));
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Pattern too short. Please select at least 3 points.',
    );
    expect(calls.filter((url) => url.endsWith('/authenticate'))).toEqual([]);
  });

  it('formats the lockout wait as people read it', () => {
    expect(formatWait(900)).toBe('15 min 00 s');
    expect(formatWait(42)).toBe('42 s');
  });
});

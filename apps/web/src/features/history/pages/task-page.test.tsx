import type { TaskDetail } from '@mise/shared/history/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildElement, buildTaskDetail } from '../test/build-history';

const firstRender = { timeout: 10_000 };

function renderTask(task: TaskDetail) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
    [`GET /api/tasks/${task.id}`]: { body: { task } },
  });
  return { ...renderApp(`/task?id=${task.id}`), api };
}

describe('task page', { timeout: 30_000 }, () => {
  it('shows the expected date, a late submission, the employee, the result and the revisions', async () => {
    const fridge = buildElement({
      name: 'Frigo 1',
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    const task = buildTaskDetail({
      name: 'Relevé des frigos',
      start: '2026-11-22T08:00:00Z',
      duration: 60,
      expected_at: '2026-11-22T09:00:00Z',
      completed_timestamp: '2026-11-22T09:45:00Z',
      status: 'done-late',
      employee: { name: 'Léa', surname: 'Petit' },
      elements: [fridge],
      result: {
        entries: [
          {
            element: fridge.id,
            temperature: 6,
            first_temperature: 6,
            control_temperature: null,
            comment: 'Corrigé',
            pictures: [{ path: 'stores/s/tasks/fridge.jpg', timestamp: 1_795_000_000 }],
            timestamp: 1_795_000_000,
          },
        ],
      },
      revisions: [
        {
          revision: 1,
          kind: 'result',
          author: { name: 'Léa', surname: 'Petit' },
          created_at: '2026-11-22T09:45:00Z',
          reason: null,
          result: null,
        },
        {
          revision: 2,
          kind: 'result',
          author: { name: 'Hugo', surname: 'Bernard' },
          created_at: '2026-11-22T10:05:00Z',
          reason: 'Mauvais frigo saisi',
          result: null,
        },
      ],
    });
    const { user } = renderTask(task);

    const detail = await screen.findByTestId('task-detail', {}, firstRender);
    expect(screen.getByTestId('page-title').textContent).toBe('Task');
    // Start plus duration on the store's clock (Paris), not the browser's (New York).
    expect(within(detail).getByTestId('task-expected').textContent).toBe('22/11/2026 10:00');
    const submitted = within(detail).getByTestId('task-submitted');
    expect(submitted.textContent).toContain('22/11/2026 10:45');
    expect(within(submitted).getByTestId('task-late').textContent).toBe('Late');
    expect(within(detail).getByTestId('task-employee').textContent).toBe('Léa Petit');
    expect(within(detail).getByTestId('task-module').textContent).toBe('Temperatures');
    expect(within(detail).getByTestId('result-temperature').getAttribute('data-out-of-range')).toBe(
      'true',
    );

    const revisions = within(detail).getAllByTestId('task-revision');
    expect(
      revisions.map((row) => within(row).getByTestId('task-revision-number').textContent),
    ).toEqual(['1', '2']);
    expect(
      within(revisions[1] as HTMLElement).getByTestId('task-revision-author').textContent,
    ).toBe('Hugo Bernard');
    expect(
      within(revisions[1] as HTMLElement).getByTestId('task-revision-reason').textContent,
    ).toBe('Mauvais frigo saisi');
    expect(within(revisions[1] as HTMLElement).getByText('22/11/2026 11:05')).toBeTruthy();

    await user.click(within(detail).getByTestId('history-picture'));
    expect((await screen.findByTestId('picture-modal-image')).getAttribute('src')).toBe(
      '/api/files/stores/s/tasks/fridge.jpg',
    );
  });

  it('shows no late indicator nor revisions for a task done on time once', async () => {
    const task = buildTaskDetail({
      status: 'done',
      completed_timestamp: '2026-11-22T08:30:00Z',
      result: { entries: [] },
      revisions: [
        {
          revision: 1,
          kind: 'result',
          author: { name: 'Léa', surname: 'Petit' },
          created_at: '2026-11-22T08:30:00Z',
          reason: null,
          result: null,
        },
      ],
    });
    renderTask(task);

    const detail = await screen.findByTestId('task-detail', {}, firstRender);
    expect(within(detail).getByTestId('task-submitted').textContent).toBe('22/11/2026 09:30');
    expect(within(detail).queryByTestId('task-late')).toBeNull();
    expect(within(detail).queryByTestId('task-revisions')).toBeNull();
  });

  it('says so when the task cannot be found', async () => {
    const task = buildTaskDetail();
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      [`GET /api/tasks/${task.id}`]: apiError(404, 'not-found'),
    });
    renderApp(`/task?id=${task.id}`);
    expect((await screen.findByTestId('empty-state', {}, firstRender)).textContent).toContain(
      'This could not be loaded.',
    );
    expect(screen.queryByTestId('task-detail')).toBeNull();
  });
});

import type { DeviceTraining } from '@mise/shared/trainings/schemas';
import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { listWithWaitingSteps } from './training-results';
import { trainingResultPath } from './trainings-api';

const item = (id: string, overrides: Partial<DeviceTraining> = {}) =>
  ({
    id,
    name: id,
    lang: 'fr',
    type: 'database',
    required: false,
    category: null,
    sections: [],
    unread: true,
    completed_at: null,
    skipped_count: 0,
    ...overrides,
  }) satisfies DeviceTraining;

let key = 0;
const step = (
  trainingId: string,
  action: 'view' | 'skip' | 'complete',
  state: OutboxRecord['state'] = 'waiting',
): OutboxRecord => ({
  seq: ++key,
  idempotency_key: `key-${key}`,
  kind: 'training-result',
  path: trainingResultPath(trainingId),
  body: { action, time_spent: 10, idempotency_key: `key-${key}` },
  employee_token: 'token',
  employee_name: 'Ana Lopes',
  label: action,
  task_id: null,
  created_at: Date.parse('2026-11-25T10:00:00Z'),
  state,
  attempts: 0,
  refusal: state === 'refused' ? { status: 409, code: 'training/not-active', message: '' } : null,
});

describe('the trainings with the steps still waiting', () => {
  it('puts required ones not done first, then the others not done, then the done ones', () => {
    const list = listWithWaitingSteps(
      [
        item('done', { required: true, completed_at: '2026-11-20T08:00:00.000Z' }),
        item('newer'),
        item('required', { required: true }),
        item('older'),
      ],
      [],
    );
    // Inside each group, the server's order (the newest first) is kept.
    expect(list.map((entry) => entry.id)).toEqual(['required', 'newer', 'older', 'done']);
  });

  it('applies waiting skips and completions, not refused ones, and sorts again', () => {
    const list = listWithWaitingSteps(
      [item('first', { required: true, skipped_count: 1 }), item('second', { required: true })],
      [
        step('first', 'skip'),
        step('first', 'skip'),
        step('first', 'complete'),
        step('first', 'skip'),
        step('second', 'complete', 'refused'),
        step('second', 'view'),
      ],
    );
    expect(list.map((entry) => entry.id)).toEqual(['second', 'first']);
    expect(list[0]).toMatchObject({ unread: false, completed_at: null, skipped_count: 0 });
    // A skip after the completion is not counted (the server's rule).
    expect(list[1]).toMatchObject({
      unread: false,
      completed_at: '2026-11-25T10:00:00.000Z',
      skipped_count: 3,
    });
  });

  it('keeps a completion the server already has', () => {
    const done = item('done', { completed_at: '2026-11-20T08:00:00.000Z' });
    expect(listWithWaitingSteps([done], [step('done', 'complete')])[0]?.completed_at).toBe(
      '2026-11-20T08:00:00.000Z',
    );
  });
});

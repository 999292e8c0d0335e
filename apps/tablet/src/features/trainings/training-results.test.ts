import type { DeviceTraining } from '@mise/shared/trainings/schemas';
import { describe, expect, it } from 'vitest';
import type { StepAction } from '../../shared/learning/step-results';
import { stepRecord } from '../../shared/learning/test-support';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { trainingSteps } from './training-results';
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

const step = (trainingId: string, action: StepAction, state: OutboxRecord['state'] = 'waiting') =>
  stepRecord(
    'training-result',
    trainingResultPath(trainingId),
    action,
    state,
    'training/not-active',
  );

const { listWithWaitingSteps } = trainingSteps;

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

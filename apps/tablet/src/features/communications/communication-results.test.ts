import { communicationLimits, type DeviceCommunication } from '@mise/shared/communications/schemas';
import { describe, expect, it } from 'vitest';
import type { StepAction } from '../../shared/learning/step-results';
import { stepRecord } from '../../shared/learning/test-support';
import { timeSpentMax } from '../../shared/learning/use-reading-time';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { communicationSteps } from './communication-results';
import { resultPath } from './communications-api';

const item = (id: string, start: string, overrides: Partial<DeviceCommunication> = {}) =>
  ({
    id,
    name: id,
    start,
    end: '2026-12-31T22:59:59.000Z',
    attachment: null,
    quiz: { questions: [] },
    unread: true,
    completed_at: null,
    skipped_count: 0,
    ...overrides,
  }) satisfies DeviceCommunication;

const step = (
  communicationId: string,
  action: StepAction,
  state: OutboxRecord['state'] = 'waiting',
) =>
  stepRecord(
    'communication-result',
    resultPath(communicationId),
    action,
    state,
    'communication/not-running',
  );

const { listWithWaitingSteps } = communicationSteps;

describe('the list with the steps still waiting', () => {
  const older = item('older', '2026-11-01T23:00:00.000Z');
  const newer = item('newer', '2026-11-10T23:00:00.000Z', { skipped_count: 1 });

  it("applies waiting skips and completions, not refused ones, and keeps the server's order", () => {
    const list = listWithWaitingSteps(
      [newer, older],
      [
        step('newer', 'skip'),
        step('newer', 'skip'),
        step('newer', 'complete'),
        step('older', 'complete', 'refused'),
        step('older', 'view'),
      ],
    );
    expect(list.map((entry) => entry.id)).toEqual(['older', 'newer']);
    expect(list[0]).toMatchObject({ unread: false, completed_at: null, skipped_count: 0 });
    expect(list[1]).toMatchObject({
      unread: false,
      completed_at: '2026-11-25T10:00:00.000Z',
      skipped_count: 3,
    });
  });

  it('keeps a completion the server already has', () => {
    const done = item('done', '2026-11-10T23:00:00.000Z', {
      completed_at: '2026-11-20T08:00:00.000Z',
    });
    expect(listWithWaitingSteps([done], [step('done', 'complete')])[0]?.completed_at).toBe(
      '2026-11-20T08:00:00.000Z',
    );
  });

  it('reports at most what the contract takes in one request', () => {
    expect(timeSpentMax).toBe(communicationLimits.timeSpentMax);
  });
});

import { describe, expect, it } from 'vitest';
import type { DeviceTask } from '../../shared/api/types';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { buildTask } from '../../test/factories';
import { displayStatus, groupTasks } from './task-display';

const task = (overrides: Partial<DeviceTask> = {}): DeviceTask =>
  buildTask({
    id: 't1',
    module: 'temperatures',
    name: 'Fridges',
    start: '2026-11-24T09:00:00.000Z',
    day: '2026-11-24',
    duration: 60,
    opens_at: '2026-11-24T08:30:00.000Z',
    closes_at: '2026-11-24T23:00:00.000Z',
    ...overrides,
  });
const none = { waiting: [], refused: [] };
const at = (time: string) => new Date(`2026-11-24T${time}Z`);

describe('task status on the tablet', () => {
  it('follows the time: not open yet, on time, late, closed', () => {
    expect(displayStatus(task(), at('08:00:00'), none)).toBe('not-open');
    expect(displayStatus(task(), at('08:45:00'), none)).toBe('on-time');
    expect(displayStatus(task(), at('10:00:01'), none)).toBe('late');
    expect(displayStatus(task(), at('23:00:00'), none)).toBe('closed');
  });

  it('done or done late from the completion time; postponed stays postponed', () => {
    expect(
      displayStatus(task({ completed_timestamp: '2026-11-24T09:30:00Z' }), at('12:00:00'), none),
    ).toBe('done');
    expect(
      displayStatus(task({ completed_timestamp: '2026-11-24T10:30:00Z' }), at('12:00:00'), none),
    ).toBe('done-late');
    expect(displayStatus(task({ status: 'postponed' }), at('12:00:00'), none)).toBe('postponed');
  });

  it('shows the outbox first: waiting to send, or refused with the server reason', () => {
    const record = { task_id: 't1', kind: 'task-result' } as OutboxRecord;
    expect(displayStatus(task(), at('10:30:00'), { waiting: [record], refused: [] })).toBe(
      'waiting',
    );
    expect(displayStatus(task(), at('10:30:00'), { waiting: [], refused: [record] })).toBe(
      'refused',
    );
  });
});

describe('grouping', () => {
  it("orders groups as the device's calendar order says, untyped last, each by start", () => {
    const groups = groupTasks(
      [
        task({ id: 'a', type_name: 'Closing', start: '2026-11-24T20:00:00Z' }),
        task({ id: 'b', type_name: null }),
        task({ id: 'c', type_name: 'Opening', start: '2026-11-24T07:00:00Z' }),
        task({ id: 'd', type_name: 'Closing', start: '2026-11-24T19:00:00Z' }),
        task({ id: 'e', type_name: 'Cleaning' }),
      ],
      ['Opening', 'Closing'],
    );
    expect(groups.map((group) => group.type)).toEqual(['Opening', 'Closing', 'Cleaning', null]);
    expect(groups[1]!.tasks.map((item) => item.id)).toEqual(['d', 'a']);
  });
});

import type { OutputLine } from '@mise/shared/operations/schemas';
import { describe, expect, it } from 'vitest';
import { appendOutput } from './get-profiling-output';

const line = (seq: number): OutputLine => ({
  seq,
  time: '2026-11-24T11:00:00.000Z',
  level: 'info',
  msg: `line ${seq}`,
  line: '{}',
});
const seqs = (state: { lines: OutputLine[] }) => state.lines.map((item) => item.seq);

describe('appendOutput', () => {
  it('appends the lines after the last one held and keeps the last_seq for the next read', () => {
    const first = appendOutput(undefined, {
      instance_id: 'a',
      items: [line(1), line(2)],
      last_seq: 2,
    });
    const next = appendOutput(first, { instance_id: 'a', items: [line(2), line(3)], last_seq: 5 });
    expect(seqs(next)).toEqual([1, 2, 3]);
    expect(next.lastSeq).toBe(5);
  });

  it('keeps only the newest lines beyond the limit', () => {
    const first = appendOutput(
      undefined,
      { instance_id: 'a', items: [line(1), line(2), line(3)], last_seq: 3 },
      4,
    );
    const next = appendOutput(
      first,
      { instance_id: 'a', items: [line(4), line(5), line(6)], last_seq: 6 },
      4,
    );
    expect(seqs(next)).toEqual([3, 4, 5, 6]);
  });

  it('starts over when the sequence went back', () => {
    const first = appendOutput(undefined, {
      instance_id: 'a',
      items: [line(8), line(9)],
      last_seq: 9,
    });
    const next = appendOutput(first, { instance_id: 'a', items: [line(1)], last_seq: 1 });
    expect(seqs(next)).toEqual([1]);
  });
});

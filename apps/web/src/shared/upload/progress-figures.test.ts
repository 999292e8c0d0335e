import { describe, expect, it } from 'vitest';
import {
  addProgressSample,
  formatBytes,
  formatDuration,
  formatSpeed,
  type ProgressSample,
  progressFigures,
} from './progress-figures';

const megabyte = 1024 * 1024;
/** Intl separates numbers from units with (narrow) no-break spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

function samplesOf(points: [number, number][]): ProgressSample[] {
  return points.reduce<ProgressSample[]>(
    (samples, [at, bytes]) => addProgressSample(samples, { at, bytes }),
    [],
  );
}

describe('progress figures', () => {
  it('measures the speed over the last 5 seconds and the time left at that speed', () => {
    // 2 MB/s for 10 s, then 1 MB/s: the figures follow the recent speed.
    const samples = samplesOf([
      [0, 0],
      [5000, 10 * megabyte],
      [10_000, 20 * megabyte],
      [12_000, 22 * megabyte],
      [15_000, 25 * megabyte],
    ]);
    expect(samples.map((sample) => sample.at)).toEqual([10_000, 12_000, 15_000]);
    expect(progressFigures(samples, 100 * megabyte)).toEqual({
      speedBytesPerSecond: megabyte,
      secondsLeft: 75,
    });
  });

  it('rounds the time left up and says nothing before a second has been measured', () => {
    expect(progressFigures([], 100)).toEqual({ speedBytesPerSecond: 0, secondsLeft: null });
    const early = samplesOf([
      [0, 0],
      [400, 1000],
    ]);
    expect(progressFigures(early, 10_000)).toEqual({ speedBytesPerSecond: 0, secondsLeft: null });
    const measured = samplesOf([
      [0, 0],
      [2000, 3000],
    ]);
    // 1500 B/s, 7000 bytes left: 4.67 s, shown as 5.
    expect(progressFigures(measured, 10_000)).toEqual({
      speedBytesPerSecond: 1500,
      secondsLeft: 5,
    });
    expect(
      progressFigures(
        samplesOf([
          [0, 0],
          [2000, 10_000],
        ]),
        10_000,
      ).secondsLeft,
    ).toBe(0);
  });

  it('starts the measure again when the bytes go back (resumed from the server offset)', () => {
    const samples = samplesOf([
      [0, 0],
      [3000, 9000],
      [3500, 6000],
    ]);
    expect(samples).toEqual([{ at: 3500, bytes: 6000 }]);
    expect(progressFigures(samples, 10_000)).toEqual({ speedBytesPerSecond: 0, secondsLeft: null });
  });

  it('gives no time left while nothing moves', () => {
    expect(
      progressFigures(
        samplesOf([
          [0, 500],
          [3000, 500],
        ]),
        1000,
      ),
    ).toEqual({
      speedBytesPerSecond: 0,
      secondsLeft: null,
    });
  });

  it('writes speeds in KB/s below 1 MB/s, else MB/s, sizes and durations in the language', () => {
    expect(plain(formatSpeed(850 * 1024, 'en'))).toBe('850 kB/s');
    expect(plain(formatSpeed(3.25 * megabyte, 'en'))).toBe('3.3 MB/s');
    expect(plain(formatSpeed(3.25 * megabyte, 'fr'))).toBe('3,3 Mo/s');
    expect(plain(formatBytes(500 * megabyte, 'en'))).toBe('500 MB');
    expect(plain(formatBytes(12.5 * megabyte, 'de'))).toBe('12,5 MB');
    expect(plain(formatBytes(2048, 'en'))).toBe('2 kB');
    expect(plain(formatDuration(44.2, 'en'))).toBe('45 sec');
    expect(plain(formatDuration(125, 'fr'))).toBe('3 min');
    expect(plain(formatDuration(5400, 'en'))).toBe('1.5 hr');
  });
});

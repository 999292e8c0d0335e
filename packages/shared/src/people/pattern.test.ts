import { describe, expect, it } from 'vitest';
import { tapPatternPoint } from './pattern';

describe('tapPatternPoint', () => {
  it('appends a point not yet in the pattern', () => {
    expect(tapPatternPoint([], 4)).toEqual([4]);
    expect(tapPatternPoint([0, 4], 8)).toEqual([0, 4, 8]);
  });

  it('truncates the pattern at an already selected point, which stays the last one', () => {
    expect(tapPatternPoint([0, 1, 2, 5, 8], 2)).toEqual([0, 1, 2]);
    expect(tapPatternPoint([0, 4, 8, 5], 4)).toEqual([0, 4]);
    expect(tapPatternPoint([3, 4, 5], 3)).toEqual([3]);
  });

  it('leaves the pattern as drawn when its last point is tapped again (a drag ending on it)', () => {
    expect(tapPatternPoint([0, 1, 2], 2)).toEqual([0, 1, 2]);
  });

  it('ignores a point outside the 9-point grid and leaves the input untouched', () => {
    const pattern = [0, 1];
    expect(tapPatternPoint(pattern, 9)).toEqual([0, 1]);
    expect(tapPatternPoint(pattern, -1)).toEqual([0, 1]);
    expect(tapPatternPoint(pattern, 1.5)).toEqual([0, 1]);
    tapPatternPoint(pattern, 2);
    expect(pattern).toEqual([0, 1]);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDuration, formatTemperature } from './result-format';

describe('result format', () => {
  it('writes durations and temperatures', () => {
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(750)).toBe('12 min 30 s');
    expect(formatDuration(3900)).toBe('1 h 05 min');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatTemperature(-18)).toBe('-18 °C');
    expect(formatTemperature(3.456)).toBe('3.46 °C');
    expect(formatTemperature(null)).toBe('');
  });
});

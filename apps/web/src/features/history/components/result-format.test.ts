import { describe, expect, it } from 'vitest';
import { formatDecimal, formatDuration, formatTemperature } from './result-format';

describe('result format', () => {
  it('writes durations', () => {
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(750)).toBe('12 min 30 s');
    expect(formatDuration(3900)).toBe('1 h 05 min');
    expect(formatDuration(45)).toBe('45 s');
  });

  it('writes numbers with the decimal separator of the interface language', () => {
    expect(formatTemperature(-18, 'fr')).toBe('-18 °C');
    expect(formatTemperature(3.456, 'en')).toBe('3.46 °C');
    expect(formatTemperature(3.456, 'fr')).toBe('3,46 °C');
    expect(formatTemperature(3.5, 'de')).toBe('3,5 °C');
    expect(formatTemperature(3.5, 'pl')).toBe('3,5 °C');
    expect(formatDecimal(1234.5, 'fr')).toBe('1234,5');
    expect(formatTemperature(null, 'fr')).toBe('');
  });
});

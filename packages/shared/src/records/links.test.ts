import { describe, expect, it } from 'vitest';
import {
  inspectorLinkExpiry,
  inspectorLinkStatus,
  isDayInPeriod,
  periodDays,
  tokenOfFragment,
  validateInspectorLinkPeriod,
} from './links';

describe('inspector link rules', () => {
  it('takes the history range: up to 31 days, every calendar month, never an end before the start', () => {
    expect(validateInspectorLinkPeriod('2026-11-16', '2026-11-22')).toBeNull();
    expect(validateInspectorLinkPeriod('2026-10-01', '2026-10-31')).toBeNull();
    expect(validateInspectorLinkPeriod('2026-02-01', '2026-02-28')).toBeNull();
    expect(validateInspectorLinkPeriod('2026-10-01', '2026-11-01')).toBe('date-range-too-long');
    expect(validateInspectorLinkPeriod('2026-11-10', '2026-11-09')).toBe(
      'validation/invalid-input',
    );
    expect(validateInspectorLinkPeriod('2026-02-30', '2026-03-02')).toBe(
      'validation/invalid-input',
    );
  });

  it('knows the days of a period, both ends included', () => {
    expect(periodDays('2026-10-30', '2026-11-02')).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(isDayInPeriod('2026-11-16', '2026-11-16', '2026-11-22')).toBe(true);
    expect(isDayInPeriod('2026-11-22', '2026-11-16', '2026-11-22')).toBe(true);
    expect(isDayInPeriod('2026-11-23', '2026-11-16', '2026-11-22')).toBe(false);
    expect(isDayInPeriod('2026-11-1', '2026-11-01', '2026-11-22')).toBe(false);
  });

  it('expires after its days and stops at once when revoked', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const expires_at = inspectorLinkExpiry(now, 7);
    expect(expires_at.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(inspectorLinkStatus({ expires_at, revoked_at: null }, now)).toBe('active');
    expect(inspectorLinkStatus({ expires_at, revoked_at: null }, expires_at)).toBe('expired');
    expect(inspectorLinkStatus({ expires_at, revoked_at: now.toISOString() }, now)).toBe('revoked');
  });

  it('reads the token from the fragment only when it looks like one', () => {
    const token = 'Abc_-0123456789abcdefghijklmnopqrstuvwxyzA';
    expect(tokenOfFragment(`#${token}`)).toBe(token);
    expect(tokenOfFragment('')).toBe('');
    expect(tokenOfFragment('#short')).toBe('');
    expect(tokenOfFragment('#<script>alert(1)</script>aaaaaaaaaaaaaa')).toBe('');
  });
});

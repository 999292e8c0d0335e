import { describe, expect, it } from 'vitest';
import { buildProbe } from '../test/build-probe';
import { probeEditBody, probeFormProblem, probeFormValues } from './probe-form';

describe('probe form: the alert delay', () => {
  const values = probeFormValues(buildProbe({ alertDelayMinutes: 15 }));
  it('sends the delay in minutes with the other fields', () => {
    expect(probeEditBody({ ...values, alertDelayMinutes: 0 }).alertDelayMinutes).toBe(0);
  });
  it('refuses an empty, fractional or out-of-bounds delay', () => {
    for (const alertDelayMinutes of [null, 2.5, -1, 241])
      expect(probeFormProblem({ ...values, alertDelayMinutes })).toBe('probes.invalidAlertDelay');
    expect(probeFormProblem({ ...values, alertDelayMinutes: 240 })).toBeNull();
  });
});

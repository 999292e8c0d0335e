import { alertDelayMinutesRange } from '@mise/shared/probes/alert-rules';
import { postingIntervalMinutesRange } from '@mise/shared/probes/constants';
import { secondsToMinutes } from '@mise/shared/probes/rules';
import type { EditProbeBody, Probe } from '@mise/shared/probes/schemas';

/** What the probe detail edits; the upload frequency in minutes, as entered (spec 000 §9). */
export type ProbeFormValues = {
  name: string;
  active: boolean;
  intervalMinutes: number | null;
  pushNotification: boolean;
  minimumTemperature: number | null;
  maximumTemperature: number | null;
  /** Minutes out of range before an alert opens. */
  alertDelayMinutes: number | null;
};

export function probeFormValues(probe: Probe): ProbeFormValues {
  return {
    name: probe.name,
    active: probe.active,
    intervalMinutes: secondsToMinutes(probe.postingInterval),
    pushNotification: probe.pushNotification,
    minimumTemperature: probe.minimumTemperature,
    maximumTemperature: probe.maximumTemperature,
    alertDelayMinutes: probe.alertDelayMinutes,
  };
}

/** The first problem of the form, as a locale key, or null when it can be sent. */
export function probeFormProblem(values: ProbeFormValues): string | null {
  if (values.name.trim() === '') return 'forms.fillRequired';
  const minutes = values.intervalMinutes;
  if (
    minutes === null ||
    !Number.isInteger(minutes) ||
    minutes < postingIntervalMinutesRange.min ||
    minutes > postingIntervalMinutesRange.max
  ) {
    return 'probes.invalidInterval';
  }
  if (
    values.minimumTemperature !== null &&
    values.maximumTemperature !== null &&
    values.minimumTemperature > values.maximumTemperature
  ) {
    return 'errors.probe/invalid-range';
  }
  const delay = values.alertDelayMinutes;
  if (
    delay === null ||
    !Number.isInteger(delay) ||
    delay < alertDelayMinutesRange.min ||
    delay > alertDelayMinutesRange.max
  ) {
    return 'probes.invalidAlertDelay';
  }
  return null;
}

/** POST probes/edit body: the interval goes in minutes, the server stores seconds (x60). */
export function probeEditBody(values: ProbeFormValues): EditProbeBody {
  return {
    name: values.name.trim(),
    active: values.active,
    postingInterval: values.intervalMinutes ?? undefined,
    pushNotification: values.pushNotification,
    minimumTemperature: values.minimumTemperature,
    maximumTemperature: values.maximumTemperature,
    alertDelayMinutes: values.alertDelayMinutes ?? undefined,
  };
}

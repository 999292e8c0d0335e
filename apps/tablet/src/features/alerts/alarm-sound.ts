import { useEffect, useState } from 'react';
import { playTones, type Tone } from '../../app/use-device-effects';

/** The alarm repeats every few seconds while an episode rings (not acknowledged, not resolved). */
export const alarmRepeatMs = 4000;
/** "Silence" mutes the alarm this long for the episodes ringing when it was pressed. */
export const silenceMinutes = 10;

/** Three alternating high tones: unlike the task chime, and heard over a kitchen's noise. */
const alarmTones: readonly Tone[] = [
  { offset: 0, frequency: 988, duration: 0.25 },
  { offset: 0.3, frequency: 740, duration: 0.25 },
  { offset: 0.6, frequency: 988, duration: 0.25 },
  { offset: 0.9, frequency: 740, duration: 0.25 },
];

export function playAlarm(): void {
  playTones(alarmTones, 0.6);
}

/** Plays the alarm at once, then every `alarmRepeatMs`, while `isRinging`. */
export function useAlarmSound(isRinging: boolean): void {
  useEffect(() => {
    if (!isRinging) return;
    playAlarm();
    const timer = setInterval(playAlarm, alarmRepeatMs);
    return () => clearInterval(timer);
  }, [isRinging]);
}

export type Silence = { until: number; alertIds: ReadonlySet<string> };

/**
 * The silence button's state: which episodes are muted until when. An episode that opens
 * during the silence rings again (it is news); the silence ends by itself after 10 minutes.
 */
export function useSilence() {
  const [silence, setSilence] = useState<Silence | null>(null);
  useEffect(() => {
    if (!silence) return;
    const timer = setTimeout(() => setSilence(null), Math.max(0, silence.until - Date.now()));
    return () => clearTimeout(timer);
  }, [silence]);
  return {
    silence,
    silenceFor: (alertIds: readonly string[]) =>
      setSilence({ until: Date.now() + silenceMinutes * 60_000, alertIds: new Set(alertIds) }),
    isSilenced: (alertId: string) => silence?.alertIds.has(alertId) ?? false,
  };
}

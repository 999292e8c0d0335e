import { useEffect } from 'react';
import type { Device } from '../shared/api/types';

/** Dark mode from the back-office's device settings, for real (the whole app's colours). */
export function useDarkMode(device: Device | null): void {
  const isDark = device?.dark_mode ?? false;
  useEffect(() => {
    document.documentElement.dataset.theme = isDark ? 'dark' : 'light';
    document
      .querySelector('meta[name="theme-color"]')
      ?.setAttribute('content', isDark ? '#12131a' : '#3b3fd8');
  }, [isDark]);
}

/**
 * "Prevent screen lock": a screen wake lock while the app is visible (asked again when the
 * app comes back, as the system drops it when hidden).
 */
export function useWakeLock(device: Device | null): void {
  const isWanted = device?.prevent_screen_lock ?? false;
  useEffect(() => {
    if (!isWanted || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    const request = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock
        .request('screen')
        .then((lock) => {
          sentinel = lock;
        })
        .catch(() => undefined);
    };
    request();
    document.addEventListener('visibilitychange', request);
    return () => {
      document.removeEventListener('visibilitychange', request);
      void sentinel?.release().catch(() => undefined);
    };
  }, [isWanted]);
}

/** "Rotation lock": holds the current orientation where the system allows it (installed app). */
export function useRotationLock(device: Device | null): void {
  const isLocked = device?.rotation_lock ?? false;
  useEffect(() => {
    const orientation = screen.orientation as ScreenOrientation & {
      lock?: (orientation: string) => Promise<void>;
    };
    if (!orientation?.lock) return;
    if (isLocked) {
      const current = orientation.type.startsWith('portrait') ? 'portrait' : 'landscape';
      orientation.lock(current).catch(() => undefined);
    } else orientation.unlock?.();
  }, [isLocked]);
}

let audio: AudioContext | null = null;

/** One tone of a chime: when it starts (s after now), its pitch (Hz) and its length (s). */
export type Tone = { offset: number; frequency: number; duration: number };

/**
 * Plays tones through Web Audio (no sound file to download). A context the browser left
 * suspended (no touch yet) is asked to resume; where sound is impossible nothing plays and the
 * screen still tells (the day list, the alert banner).
 */
export function playTones(tones: readonly Tone[], volume = 0.4): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
    const start = audio.currentTime;
    for (const { offset, frequency, duration } of tones) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(volume, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + duration - 0.02);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + duration);
    }
  } catch {
    // No sound on this system.
  }
}

/** A short two-tone chime when a task opens. */
export function playReminder(): void {
  playTones([
    { offset: 0, frequency: 880, duration: 0.22 },
    { offset: 0.22, frequency: 1175, duration: 0.22 },
  ]);
}

import { useCallback, useEffect, useRef } from 'react';

/**
 * The most one request may report (communicationLimits.timeSpentMax, a day; written here so the
 * contract's zod stays out of the tablet's bundle, its test checks they agree).
 */
export const timeSpentMax = 86_400;

/** Whether the employee can be reading: the app's page shown and the window in the foreground. */
function isInForeground(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/** How often the state is read again besides its events (a missed event costs a second). */
const recheckMs = 1000;

/**
 * The time spent on a communication or a training (issue 18), counted only while `isRunning`
 * (its screen is open) and the page is visible and focused: hidden (another app, the screen off)
 * or blurred (another window in front), the count pauses. Read from the clock at each change, so a
 * throttled timer does not lose time. `take()` answers the whole seconds counted since the last
 * take (at most a day, the most one request may report) and starts again from there.
 */
export function useReadingTime(isRunning: boolean): { take: () => number } {
  const counted = useRef({ total: 0, since: null as number | null });

  /** Adds the time since the last change; counts on from now when `isCounting`. */
  const settle = useCallback((isCounting: boolean) => {
    const now = Date.now();
    const state = counted.current;
    if (state.since !== null) state.total += Math.max(0, now - state.since);
    state.since = isCounting ? now : null;
  }, []);

  useEffect(() => {
    if (!isRunning) return;
    const check = () => settle(isInForeground());
    let blurTimer: ReturnType<typeof setTimeout> | undefined;
    // Focus moving into a frame of the page (a PDF's) blurs the window but not the page.
    const handleBlur = () => {
      check();
      clearTimeout(blurTimer);
      blurTimer = setTimeout(check, 0);
    };
    check();
    document.addEventListener('visibilitychange', check);
    window.addEventListener('focus', check);
    window.addEventListener('blur', handleBlur);
    window.addEventListener('pagehide', check);
    const timer = setInterval(check, recheckMs);
    return () => {
      clearTimeout(blurTimer);
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('focus', check);
      window.removeEventListener('blur', handleBlur);
      window.removeEventListener('pagehide', check);
      settle(false);
    };
  }, [isRunning, settle]);

  const take = useCallback(() => {
    const state = counted.current;
    if (state.since !== null) settle(isInForeground());
    const seconds = Math.floor(state.total / 1000);
    state.total -= seconds * 1000;
    return Math.min(seconds, timeSpentMax);
  }, [settle]);

  return { take };
}

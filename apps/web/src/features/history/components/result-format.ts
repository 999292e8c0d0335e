/** How history's result tables write durations and temperatures. */

/** A duration in seconds as "1 h 05 min", "12 min 30 s" or "1 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (rest === 0) return `${minutes} min`;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

/** 4.5 °C, or '' when there is no value. */
export function formatTemperature(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return `${Math.round(value * 100) / 100} °C`;
}

/**
 * A time spent as the statistics show it: m:ss under an hour, h:mm:ss beyond ('—' when there
 * is none). Seconds are rounded (a median may fall between two).
 */
export function formatTimeSpent(seconds: number | null | undefined, missing = '—'): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return missing;
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}

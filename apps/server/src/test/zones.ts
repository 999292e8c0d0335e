/**
 * A zone where it is about noon when the test file runs (Etc/GMT-12 … Etc/GMT+11): tasks a few
 * hours around now lie within the store's day, "today" has a past and a future, whatever the
 * hour of the run (a task closes at the end of its store day).
 */
export function noonZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** Colour of a score out of 100: green from 80, orange from 50, red below, gray without one. */
export function scoreColor(value: number | null): string {
  if (value === null) return 'gray';
  if (value >= 80) return 'green';
  if (value >= 50) return 'orange';
  return 'red';
}

/** How history's result tables write durations, numbers and temperatures. */

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

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A measured value in the interface language: 3,5 in French, German and Polish, 3.5 in
 * English; at most two decimals, no grouping (like the PDF export).
 */
export function formatDecimal(value: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false });
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/** 4,5 °C in the interface language, or '' when there is no value. */
export function formatTemperature(value: number | null | undefined, language: string): string {
  if (value === null || value === undefined) return '';
  return `${formatDecimal(value, language)} °C`;
}

/** Probes (spec 000 §3, §4, §9) and the bounds of their readings (docs/decisions.md, issue 15). */

/** A probe is working while its last reading is less than this old (spec 000 §4, §9). */
export const probeWorkingMaxAgeMs = 2 * 60 * 60 * 1000;

/** Default upload frequency of a new probe, in seconds (stored unit, spec 000 §3). */
export const defaultPostingIntervalSeconds = 300;

/** Upload frequency as entered, in minutes (1 minute to 1 day). */
export const postingIntervalMinutesRange = { min: 1, max: 1440 } as const;

/** Readings one request may carry (a hub's buffer after an outage). */
export const maxReadingsPerRequest = 1000;

/** A reading may be stamped at most this far ahead of the server's clock (clock drift). */
export const readingFutureToleranceMs = 5 * 60 * 1000;

/** A reading older than this is refused by live ingestion (a hub buffers days, not months). */
export const readingMaxAgeMs = 31 * 24 * 60 * 60 * 1000;

/** Sane temperatures in °C: a deep freezer to a frying oil, nothing a sensor fault invents. */
export const temperatureRange = { min: -80, max: 300 } as const;

/** Battery level in percent. */
export const batteryRange = { min: 0, max: 100 } as const;

/** A chart range is answered raw up to this many readings, else downsampled to at most this many buckets. */
export const maxChartPoints = 1000;

/** Longest range a chart may ask for: the retention of the readings (2 years) plus a margin. */
export const maxChartRangeDays = 2 * 366 + 31;

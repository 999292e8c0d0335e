import dayjs from 'dayjs';

/** Date display (spec 000 §1): dd/mm/yyyy, with HH:MM or HH:MM:ss. Local time. */
export type DateInput = Date | string | number | null | undefined;

function parse(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed : null;
}

/** 05/01/2026 */
export function formatDate(value: DateInput): string {
  return parse(value)?.format('DD/MM/YYYY') ?? '';
}

/** 05/01/2026 08:07 */
export function formatDateTime(value: DateInput): string {
  return parse(value)?.format('DD/MM/YYYY HH:mm') ?? '';
}

/** 05/01/2026 08:07:09 */
export function formatDateTimeWithSeconds(value: DateInput): string {
  return parse(value)?.format('DD/MM/YYYY HH:mm:ss') ?? '';
}

/** A calendar day as the API sends it (YYYY-MM-DD). */
export function toCalendarDay(value: DateInput): string | null {
  return parse(value)?.format('YYYY-MM-DD') ?? null;
}

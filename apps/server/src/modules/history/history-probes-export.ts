import { probeDayOutOfRange } from '@mise/shared/history/rules';
import type { HistoryProbes } from '@mise/shared/history/schemas';
import type { AlertEpisode } from '@mise/shared/probes/alerts';
import {
  type ExportLanguage,
  type ExportTexts,
  exportTexts,
  fillTemplate,
} from '../../platform/pdf/export-texts';
import { type ExportTable, formatDay, type ZonedClock } from '../../platform/pdf/tasks';

/*
 * The probe records in the history exports (issue 15), in the recipient's language: the PDF
 * prints two tables after the module sections (the alert episodes of the period, newest first,
 * then each bound element's days, oldest first); the CSV writes the same as rows
 * (history-csv.ts). The words are the locale files' "exports.probes".
 */

export type ProbeRecords = Pick<HistoryProbes, 'alerts' | 'elements'>;
type ProbeWords = ExportTexts['probes'];

export function probeWords(lang: ExportLanguage): ProbeWords {
  return exportTexts(lang).probes;
}

/** 0 the store's owners, 1 the database's managers, 2 the distributor (shared alert rules). */
export function escalationText(level: number, words: ProbeWords): string {
  if (level <= 0) return words.escalation.owners;
  return level === 1 ? words.escalation.managers : words.escalation.distributor;
}

/** "Element (probe)", or the probe alone when no element of the store is bound to it. */
export function alertSubject(alert: AlertEpisode): string {
  return alert.elementName ? `${alert.elementName} (${alert.probeName})` : alert.probeName;
}

/** The PDF tables of the probe records; none when the store has no episode and no bound element. */
export function probeExportTables(
  records: ProbeRecords,
  lang: ExportLanguage,
  clock: ZonedClock,
  locale: string,
): ExportTable[] {
  if (records.alerts.length === 0 && records.elements.length === 0) return [];
  const words = probeWords(lang);
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false });
  const temperature = (value: number | null) =>
    value === null ? '—' : `${numbers.format(value)} °C`;
  const limits = (minimum: number | null, maximum: number | null) =>
    minimum === null && maximum === null
      ? '—'
      : `${temperature(minimum)} / ${temperature(maximum)}`;
  const instant = (iso: string) => {
    const parts = clock.instant(iso);
    return `${parts.date} ${parts.time}`;
  };
  const worst = (alert: AlertEpisode) => {
    if (alert.worstValue === null || alert.kind === 'offline') return '—';
    return alert.kind === 'low_battery'
      ? `${numbers.format(alert.worstValue)} %`
      : temperature(alert.worstValue);
  };
  const period = (alert: AlertEpisode) => {
    const start = clock.instant(alert.startedAt);
    if (!alert.resolvedAt) return `${start.date} ${start.time} – ${words.ongoing}`;
    const end = clock.instant(alert.resolvedAt);
    return end.date === start.date
      ? `${start.date} ${start.time} – ${end.time}`
      : `${start.date} ${start.time} – ${end.date} ${end.time}`;
  };

  const alerts: ExportTable = {
    heading: words.alertsTitle,
    count: fillTemplate(words.alertCount, { count: records.alerts.length }),
    columns: [
      { header: words.columns.element, weight: 130 },
      { header: words.columns.alert, weight: 95 },
      { header: words.columns.period, weight: 120 },
      { header: words.columns.limits, weight: 75 },
      { header: words.columns.worst, weight: 60 },
      { header: words.columns.escalation, weight: 80 },
      { header: words.columns.acknowledged, weight: 110 },
      { header: words.columns.correctiveAction, weight: 170, maxLines: 12 },
    ],
    rows: records.alerts.map((alert) => [
      { text: alertSubject(alert) },
      { text: words.kinds[alert.kind] ?? alert.kind, isAlert: true },
      { text: period(alert), isAlert: alert.resolvedAt === null },
      {
        text:
          alert.kind === 'out_of_range'
            ? limits(alert.minimumTemperature, alert.maximumTemperature)
            : '—',
      },
      { text: worst(alert), isAlert: alert.worstValue !== null && alert.kind !== 'offline' },
      { text: escalationText(alert.escalationLevel, words) },
      alert.acknowledgedAt
        ? {
            text: fillTemplate(words.acknowledged, {
              name: alert.acknowledgedByName ?? '—',
              time: instant(alert.acknowledgedAt),
            }),
          }
        : { text: words.notAcknowledged, isAlert: true },
      { text: alert.correctiveAction ?? '' },
    ]),
    emptyText: words.noAlert,
  };
  const tables = [alerts];
  if (records.elements.length === 0) return tables;

  const readings: ExportTable = {
    heading: words.readingsTitle,
    count: fillTemplate(words.elementCount, { count: records.elements.length }),
    columns: [
      { header: words.columns.element, weight: 170 },
      { header: words.columns.day, weight: 70 },
      { header: words.columns.limits, weight: 90 },
      { header: words.columns.lowest, weight: 70 },
      { header: words.columns.highest, weight: 70 },
      { header: words.columns.last, weight: 100 },
      { header: words.columns.readings, weight: 60 },
    ],
    rows: records.elements.flatMap((element) => {
      const subject = `${element.name} (${element.probe_name})`;
      if (element.days.length === 0) {
        return [
          [
            { text: subject },
            { text: '—' },
            { text: '—' },
            { text: '—' },
            { text: '—' },
            { text: '—' },
            { text: '0' },
          ],
        ];
      }
      return element.days.map((day) => {
        const isLow =
          element.minimum_temperature !== null && day.minimum < element.minimum_temperature;
        const isHigh =
          element.maximum_temperature !== null && day.maximum > element.maximum_temperature;
        const last = clock.instant(day.last_reading_at);
        return [
          { text: subject },
          { text: formatDay(day.day), isAlert: probeDayOutOfRange(day, element) },
          { text: limits(element.minimum_temperature, element.maximum_temperature) },
          { text: temperature(day.minimum), isAlert: isLow },
          { text: temperature(day.maximum), isAlert: isHigh },
          { text: `${temperature(day.last_temperature)} · ${last.time}` },
          { text: String(day.readings) },
        ];
      });
    }),
    emptyText: words.noAlert,
  };
  tables.push(readings);
  return tables;
}

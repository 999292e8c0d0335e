import { Table, Text } from '@mantine/core';
import {
  type ResultColumn,
  type ResultLine,
  resultColumns,
  resultLines,
} from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatStoreTimeOfSeconds } from '../../../shared/format/store-clock';

/** A table wider than a phone scrolls sideways, by keyboard too (focusable viewport). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

type InspectionResultTableProps = { task: HistoryTask; timeZone: string };

const numberFormats = new Map<string, Intl.NumberFormat>();

/** 3,5 in French, German and Polish, 3.5 in English; at most two decimals (as the PDF). */
function formatNumber(value: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false });
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/** "1 h 05 min", "12 min 30 s", "1 min". */
function formatSeconds(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = Math.round(seconds % 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (rest === 0) return `${minutes} min`;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

/** One cell of a result line, as the history's PDF writes it. */
function cellText(
  line: ResultLine,
  column: ResultColumn,
  context: { t: TFunction; language: string; timeZone: string },
): string {
  const { t, language, timeZone } = context;
  const value = (line as Record<string, unknown>)[column];
  const yesNo = (flag: unknown) => (flag ? t('inspector.result.yes') : t('inspector.result.no'));
  switch (column) {
    case 'element':
    case 'action':
    case 'comment':
      return typeof value === 'string' && value !== '' ? value : '—';
    case 'first_temperature':
    case 'temperature':
    case 'control_temperature':
    case 'start_temperature':
    case 'end_temperature':
    case 'target_temperature':
      if (typeof value === 'number') return `${formatNumber(value, language)} °C`;
      return line.module === 'temperatures' && column === 'temperature'
        ? t('inspector.result.notTaken')
        : '—';
    case 'polarity':
      return typeof value === 'number'
        ? `${formatNumber(value, language)} %`
        : t('inspector.result.notTaken');
    case 'done':
    case 'cleaned':
    case 'oil_changed':
    case 'oil_filtered':
    case 'filter_changed':
      return yesNo(value);
    case 'picture':
      return line.module === 'actions' ? yesNo(line.hasPicture) : '—';
    case 'pictures':
      return typeof value === 'number' ? String(value) : '0';
    case 'mode':
      return line.module === 'temperature_control' ? t(`inspector.result.modes.${line.mode}`) : '—';
    case 'start_timestamp':
    case 'end_timestamp':
      return typeof value === 'number' ? formatStoreTimeOfSeconds(value, timeZone) : '—';
    case 'duration_seconds':
      return typeof value === 'number' ? formatSeconds(value) : '—';
  }
}

/**
 * A task's result table (spec 002 §2), one line per element or action, from the shared rule the
 * history's PDF and CSV use (`resultLines`); values out of bounds are red and bold. Pictures are
 * counted: the inspector pack holds them.
 */
export function InspectionResultTable({ task, timeZone }: InspectionResultTableProps) {
  const { t, i18n } = useTranslation();
  const lines = resultLines(task);
  if (lines.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="inspection-result-none">
        {t('inspector.result.none')}
      </Text>
    );
  }
  const columns = resultColumns(task.module);
  const context = { t, language: i18n.language, timeZone };
  return (
    <Table.ScrollContainer
      minWidth={Math.max(320, columns.length * 110)}
      scrollAreaProps={keyboardScroll}
    >
      <Table striped withTableBorder data-testid="inspection-result">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{t(`inspector.result.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line, index) => (
            <Table.Tr
              // Lines have no id of their own: their order is the result's.
              // biome-ignore lint/suspicious/noArrayIndexKey: the result's order is stable
              key={index}
              data-testid="inspection-result-line"
              data-anomaly={String(line.hasAnomaly)}
            >
              {columns.map((column) => {
                const isAlert = line.alertColumns.includes(column);
                return (
                  <Table.Td
                    key={column}
                    c={isAlert ? 'red.9' : undefined}
                    fw={isAlert ? 700 : undefined}
                    data-column={column}
                  >
                    {cellText(line, column, context)}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

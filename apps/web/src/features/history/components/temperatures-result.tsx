import { Table, Text } from '@mantine/core';
import { probeDayOutOfRange, readingInRange } from '@mise/shared/history/rules';
import type { temperaturesResultSchema } from '@mise/shared/tasks/schemas';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  formatStoreTime,
  formatStoreTimeOfSeconds,
  todayInStoreZone,
} from '../../../shared/format/store-clock';
import { useProbeDays } from './probe-days-context';
import { formatTemperature } from './result-format';
import { Missing, ResultTable } from './result-parts';
import { PictureThumbnails } from './result-pictures';
import type { ResultElement } from './task-result';

type TemperaturesResultProps = {
  result: z.infer<typeof temperaturesResultSchema>;
  elements: ReadonlyMap<string, ResultElement>;
  timeZone: string;
  onOpenPicture: (path: string) => void;
};

/**
 * Temperatures (spec 002 §2): element, the time the reading was taken (store's clock), first
 * temperature, temperature in °C or 'Non prise', comment, pictures; a reading outside the
 * element's minimum/maximum is red. Numbers are written in the interface language. An element
 * bound to a probe gets a line under its reading: what the probe saw that store day (lowest,
 * highest, last), red when the day went beyond the element's bounds (issue 15).
 */
export function TemperaturesResult({
  result,
  elements,
  timeZone,
  onOpenPicture,
}: TemperaturesResultProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const probeDays = useProbeDays();
  const headers = 6;
  return (
    <ResultTable
      testId="result-temperatures"
      headers={[
        t('history.columns.element'),
        t('history.columns.readingTime'),
        t('history.columns.firstTemperature'),
        t('history.columns.temperature'),
        t('history.columns.comment'),
        t('history.columns.pictures'),
      ]}
    >
      {result.entries.map((entry) => {
        const element = elements.get(entry.element);
        const isTaken = entry.temperature !== null;
        const isInRange = readingInRange(entry, element);
        const probe =
          probeDays && entry.timestamp !== null
            ? probeDays(entry.element, todayInStoreZone(timeZone, new Date(entry.timestamp * 1000)))
            : null;
        const isProbeOut = probe ? probeDayOutOfRange(probe.day, probe.element) : false;
        return (
          <Fragment key={entry.element}>
            <Table.Tr data-testid="result-row">
              <Table.Td data-testid="result-element">{element?.name ?? <Missing />}</Table.Td>
              <Table.Td data-testid="result-reading-time">
                {formatStoreTimeOfSeconds(entry.timestamp, timeZone) || <Missing />}
              </Table.Td>
              <Table.Td>
                {entry.first_temperature === null ? (
                  <Missing />
                ) : (
                  formatTemperature(entry.first_temperature, language)
                )}
              </Table.Td>
              <Table.Td>
                <Text
                  size="sm"
                  fw={isInRange ? undefined : 700}
                  c={isTaken ? (isInRange ? undefined : 'red') : 'orange'}
                  data-testid="result-temperature"
                  data-out-of-range={String(!isInRange)}
                  data-not-taken={String(!isTaken)}
                >
                  {isTaken ? formatTemperature(entry.temperature, language) : t('history.notTaken')}
                </Text>
                {entry.control_temperature !== null ? (
                  <Text size="xs" c={isInRange ? 'dimmed' : 'red'}>
                    {formatTemperature(entry.control_temperature, language)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{entry.comment || <Missing />}</Table.Td>
              <Table.Td>
                <PictureThumbnails pictures={entry.pictures} onOpen={onOpenPicture} />
              </Table.Td>
            </Table.Tr>
            {probe ? (
              <Table.Tr data-testid="result-probe-line">
                <Table.Td colSpan={headers}>
                  <Text
                    size="xs"
                    c={isProbeOut ? 'red' : 'dimmed'}
                    fw={isProbeOut ? 700 : undefined}
                    data-out-of-range={String(isProbeOut)}
                  >
                    {t('history.probeRecords.probeLine', {
                      name: probe.element.probe_name,
                      minimum: formatTemperature(probe.day.minimum, language),
                      maximum: formatTemperature(probe.day.maximum, language),
                      last: formatTemperature(probe.day.last_temperature, language),
                      time: formatStoreTime(probe.day.last_reading_at, timeZone),
                    })}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Fragment>
        );
      })}
    </ResultTable>
  );
}

import { Badge, Stack, Table, Text } from '@mantine/core';
import { displayedDurationSeconds } from '@mise/shared/history/rules';
import { temperatureControlValid } from '@mise/shared/tasks/rules';
import type { temperatureControlResultSchema } from '@mise/shared/tasks/schemas';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatStoreTimeOfSeconds } from '../../../shared/format/store-clock';
import { formatDuration, formatTemperature } from './result-format';
import { Missing, ResultTable } from './result-parts';
import type { ResultElement } from './task-result';

type TemperatureControlResultProps = {
  result: z.infer<typeof temperatureControlResultSchema>;
  elements: ReadonlyMap<string, ResultElement>;
  timeZone: string;
};

function temperatureOrMissing(value: number | null) {
  return value === null ? <Missing /> : formatTemperature(value);
}

/**
 * Temperature control (spec 002 §2, §4): element, mode, start and end temperature and time,
 * target, duration (never under 60 s), comment. Cooling ending above the target or reheating
 * ending below it is red, with the target and the flag 'Hors plage'.
 */
export function TemperatureControlResult({
  result,
  elements,
  timeZone,
}: TemperatureControlResultProps) {
  const { t } = useTranslation();
  return (
    <ResultTable
      testId="result-temperature-control"
      minWidth={900}
      headers={[
        t('history.columns.element'),
        t('history.columns.mode'),
        t('history.columns.startTemperature'),
        t('history.columns.startTime'),
        t('history.columns.endTemperature'),
        t('history.columns.endTime'),
        t('history.columns.target'),
        t('history.columns.duration'),
        t('history.columns.comment'),
      ]}
    >
      {result.entries.map((entry) => {
        const isValid = temperatureControlValid(
          entry.mode,
          entry.end_temperature,
          entry.target_temperature,
        );
        const duration = displayedDurationSeconds(entry.start_timestamp, entry.end_timestamp);
        const failingColor = isValid ? undefined : 'red';
        return (
          <Table.Tr key={entry.element} data-testid="result-row" data-valid={String(isValid)}>
            <Table.Td data-testid="result-element">
              {elements.get(entry.element)?.name ?? <Missing />}
            </Table.Td>
            <Table.Td>{t(`history.modes.${entry.mode}`)}</Table.Td>
            <Table.Td>{temperatureOrMissing(entry.start_temperature)}</Table.Td>
            <Table.Td>
              {formatStoreTimeOfSeconds(entry.start_timestamp, timeZone) || <Missing />}
            </Table.Td>
            <Table.Td>
              <Text
                size="sm"
                c={failingColor}
                fw={isValid ? undefined : 700}
                data-testid="result-end-temperature"
              >
                {temperatureOrMissing(entry.end_temperature)}
              </Text>
            </Table.Td>
            <Table.Td>
              {formatStoreTimeOfSeconds(entry.end_timestamp, timeZone) || <Missing />}
            </Table.Td>
            <Table.Td>
              <Stack gap={4} align="flex-start">
                <Text size="sm" c={failingColor} data-testid="result-target">
                  {temperatureOrMissing(entry.target_temperature)}
                </Text>
                {isValid ? null : (
                  <Badge color="red" variant="filled" size="sm" data-testid="result-out-of-range">
                    {t('history.outOfRange')}
                  </Badge>
                )}
              </Stack>
            </Table.Td>
            <Table.Td data-testid="result-duration">
              {duration === null ? <Missing /> : formatDuration(duration)}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{entry.comment || <Missing />}</Table.Td>
          </Table.Tr>
        );
      })}
    </ResultTable>
  );
}

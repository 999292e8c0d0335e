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

/** The badge's label keeps every letter: no ellipsis, wrapping between words if needed. */
const outOfRangeBadgeStyles = {
  root: { overflow: 'visible', paddingBlock: 2 },
  label: { overflow: 'visible', textOverflow: 'clip', whiteSpace: 'normal' },
} as const;

type TemperatureControlResultProps = {
  result: z.infer<typeof temperatureControlResultSchema>;
  elements: ReadonlyMap<string, ResultElement>;
  timeZone: string;
};

function temperatureOrMissing(value: number | null, language: string) {
  return value === null ? <Missing /> : formatTemperature(value, language);
}

/** Who recorded a step of the control, when the result says (start_employee, end_employee). */
function StepEmployee({ employee }: { employee: unknown }) {
  const person = employee as { name?: unknown; surname?: unknown } | null | undefined;
  if (!person || typeof person.name !== 'string') return null;
  const surname = typeof person.surname === 'string' ? person.surname : '';
  return (
    <Text size="xs" c="dimmed" data-testid="result-step-employee">
      {`${person.name} ${surname}`.trim()}
    </Text>
  );
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
  const { t, i18n } = useTranslation();
  const language = i18n.language;
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
            <Table.Td>{temperatureOrMissing(entry.start_temperature, language)}</Table.Td>
            <Table.Td>
              {formatStoreTimeOfSeconds(entry.start_timestamp, timeZone) || <Missing />}
              <StepEmployee employee={'start_employee' in entry ? entry.start_employee : null} />
            </Table.Td>
            <Table.Td>
              <Text
                size="sm"
                c={failingColor}
                fw={isValid ? undefined : 700}
                data-testid="result-end-temperature"
              >
                {temperatureOrMissing(entry.end_temperature, language)}
              </Text>
            </Table.Td>
            <Table.Td>
              {formatStoreTimeOfSeconds(entry.end_timestamp, timeZone) || <Missing />}
              <StepEmployee employee={'end_employee' in entry ? entry.end_employee : null} />
            </Table.Td>
            <Table.Td>
              <Stack gap={4} align="flex-start">
                <Text size="sm" c={failingColor} data-testid="result-target">
                  {temperatureOrMissing(entry.target_temperature, language)}
                </Text>
                {isValid ? null : (
                  <Badge
                    color="red"
                    variant="filled"
                    size="sm"
                    // Never cut to "HORS P…": the badge grows with its words and may wrap.
                    maw="none"
                    h="auto"
                    styles={outOfRangeBadgeStyles}
                    data-testid="result-out-of-range"
                  >
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

import { Table, Text } from '@mantine/core';
import type { oilsResultSchema } from '@mise/shared/tasks/schemas';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatDecimal, formatTemperature } from './result-format';
import { BooleanMark, Missing, ResultTable } from './result-parts';
import { PictureThumbnails } from './result-pictures';
import type { ResultElement } from './task-result';

type OilsResultProps = {
  result: z.infer<typeof oilsResultSchema>;
  elements: ReadonlyMap<string, ResultElement>;
  onOpenPicture: (path: string) => void;
};

/**
 * Oils (spec 002 §2): element, cleaned, oil changed, oil filtered, filter changed, polarity in
 * percent (absent: not taken; above the element's maximum: red), temperature, pictures.
 */
export function OilsResult({ result, elements, onOpenPicture }: OilsResultProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <ResultTable
      testId="result-oils"
      minWidth={820}
      headers={[
        t('history.columns.element'),
        t('history.columns.cleaned'),
        t('history.columns.oilChanged'),
        t('history.columns.oilFiltered'),
        t('history.columns.filterChanged'),
        t('history.columns.polarity'),
        t('history.columns.temperature'),
        t('history.columns.pictures'),
      ]}
    >
      {result.entries.map((entry) => {
        const element = elements.get(entry.element);
        const maximum = element?.maximum_polarity ?? null;
        const isTooHigh = entry.polarity !== null && maximum !== null && entry.polarity > maximum;
        return (
          <Table.Tr key={entry.element} data-testid="result-row">
            <Table.Td data-testid="result-element">{element?.name ?? <Missing />}</Table.Td>
            <Table.Td>
              <BooleanMark value={entry.cleaned} testId="result-oil-cleaned" />
            </Table.Td>
            <Table.Td>
              <BooleanMark value={entry.oil_changed} testId="result-oil-changed" />
            </Table.Td>
            <Table.Td>
              <BooleanMark value={entry.oil_filtered} testId="result-oil-filtered" />
            </Table.Td>
            <Table.Td>
              <BooleanMark value={entry.filter_changed} testId="result-filter-changed" />
            </Table.Td>
            <Table.Td>
              <Text
                size="sm"
                c={entry.polarity === null ? 'orange' : isTooHigh ? 'red' : undefined}
                fw={isTooHigh ? 700 : undefined}
                data-testid="result-polarity"
                data-out-of-range={String(isTooHigh)}
              >
                {entry.polarity === null
                  ? t('history.notTaken')
                  : `${formatDecimal(entry.polarity, language)} %`}
              </Text>
            </Table.Td>
            <Table.Td>
              {entry.temperature === null ? (
                <Missing />
              ) : (
                formatTemperature(entry.temperature, language)
              )}
            </Table.Td>
            <Table.Td>
              <PictureThumbnails pictures={entry.pictures} onOpen={onOpenPicture} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ResultTable>
  );
}

import { Table } from '@mantine/core';
import type { traceabilityResultSchema } from '@mise/shared/tasks/schemas';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Missing, ResultTable } from './result-parts';
import { PictureThumbnails } from './result-pictures';
import type { ResultElement } from './task-result';

type TraceabilityResultProps = {
  result: z.infer<typeof traceabilityResultSchema>;
  elements: ReadonlyMap<string, ResultElement>;
  onOpenPicture: (path: string) => void;
};

/** Traceability (spec 002 §2): the pictures taken for each element. */
export function TraceabilityResult({ result, elements, onOpenPicture }: TraceabilityResultProps) {
  const { t } = useTranslation();
  return (
    <ResultTable
      testId="result-traceability"
      minWidth={360}
      headers={[t('history.columns.element'), t('history.columns.pictures')]}
    >
      {result.entries.map((entry) => (
        <Table.Tr key={entry.element} data-testid="result-row">
          <Table.Td data-testid="result-element">
            {elements.get(entry.element)?.name ?? <Missing />}
          </Table.Td>
          <Table.Td>
            {entry.pictures.length > 0 ? (
              <PictureThumbnails pictures={entry.pictures} onOpen={onOpenPicture} />
            ) : (
              <Missing />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </ResultTable>
  );
}

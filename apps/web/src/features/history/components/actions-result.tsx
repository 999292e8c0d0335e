import { Badge, Table } from '@mantine/core';
import type { actionsResultSchema } from '@mise/shared/tasks/schemas';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Missing, ResultTable } from './result-parts';
import { PictureThumbnails } from './result-pictures';

type ActionsResultProps = {
  result: z.infer<typeof actionsResultSchema>;
  onOpenPicture: (path: string) => void;
};

/** Actions (spec 002 §2): each action with its photo and a done / not done indicator. */
export function ActionsResult({ result, onOpenPicture }: ActionsResultProps) {
  const { t } = useTranslation();
  return (
    <ResultTable
      testId="result-actions"
      minWidth={420}
      headers={[
        t('history.columns.action'),
        t('history.columns.picture'),
        t('history.columns.done'),
      ]}
    >
      {result.entries.map((entry) => (
        <Table.Tr key={`${entry.index}-${entry.action}`} data-testid="result-row">
          <Table.Td data-testid="result-element">{entry.action}</Table.Td>
          <Table.Td>
            {entry.picture ? (
              <PictureThumbnails pictures={[entry.picture]} onOpen={onOpenPicture} />
            ) : (
              <Missing />
            )}
          </Table.Td>
          <Table.Td>
            <Badge
              variant="light"
              color={entry.done ? 'teal' : 'red'}
              data-testid="result-action-done"
              data-done={String(entry.done)}
            >
              {entry.done ? t('history.done') : t('history.notDone')}
            </Badge>
          </Table.Td>
        </Table.Tr>
      ))}
    </ResultTable>
  );
}

import { Table, Text, Title } from '@mantine/core';
import type { TaskRevision } from '@mise/shared/history/schemas';
import { useTranslation } from 'react-i18next';
import { formatStoreDateTime } from '../../../shared/format/store-clock';

type TaskRevisionsProps = { revisions: readonly TaskRevision[]; timeZone: string };

/**
 * A task's revisions (completion, corrections, postponement): number, kind, author, time and
 * reason. A HACCP record is corrected by a new revision, never overwritten.
 */
export function TaskRevisions({ revisions, timeZone }: TaskRevisionsProps) {
  const { t } = useTranslation();
  const sorted = [...revisions].sort((left, right) => left.revision - right.revision);
  return (
    <section data-testid="task-revisions">
      <Title order={4} mb="xs">
        {t('taskDetail.revisions.title')}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('taskDetail.revisions.revision')}</Table.Th>
              <Table.Th>{t('taskDetail.revisions.kind')}</Table.Th>
              <Table.Th>{t('taskDetail.revisions.author')}</Table.Th>
              <Table.Th>{t('taskDetail.revisions.time')}</Table.Th>
              <Table.Th>{t('taskDetail.revisions.reason')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((revision) => (
              <Table.Tr key={revision.revision} data-testid="task-revision">
                <Table.Td data-testid="task-revision-number">{revision.revision}</Table.Td>
                <Table.Td>{t(`taskDetail.revisions.kinds.${revision.kind}`)}</Table.Td>
                <Table.Td data-testid="task-revision-author">
                  {revision.author ? `${revision.author.name} ${revision.author.surname}` : '—'}
                </Table.Td>
                <Table.Td>{formatStoreDateTime(revision.created_at, timeZone)}</Table.Td>
                <Table.Td data-testid="task-revision-reason">
                  {revision.reason ? (
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {revision.reason}
                    </Text>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}

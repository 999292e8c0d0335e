import { Card, Table, Text, Title } from '@mantine/core';
import type { RetentionRemoval } from '@mise/shared/records/retention';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../shared/format/date';
import { EmptyState } from '../../../shared/ui/empty-state';

type RetentionRemovalsProps = { removals: readonly RetentionRemoval[] };

/** The retention job's latest removals in the database's stores, newest first (as sent). */
export function RetentionRemovals({ removals }: RetentionRemovalsProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const numberFormat = new Intl.NumberFormat(i18n.language);
  return (
    <Card withBorder radius="md" data-testid="retention-removals">
      <Title order={4} mb={4} id={titleId}>
        {t('retention.removals.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('retention.removals.description')}
      </Text>
      {removals.length === 0 ? (
        <EmptyState
          title={t('retention.removals.empty')}
          description={t('retention.removals.emptyDescription')}
          testId="retention-removals-empty"
        />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-labelledby={titleId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('retention.removals.date')}</Table.Th>
                <Table.Th scope="col">{t('retention.removals.store')}</Table.Th>
                <Table.Th scope="col">{t('retention.removals.type')}</Table.Th>
                <Table.Th scope="col">{t('retention.removals.before')}</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'end' }}>
                  {t('retention.removals.count')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {removals.map((removal) => (
                <Table.Tr
                  key={`${removal.store_id}-${removal.type}-${removal.before}-${removal.at}`}
                  data-testid="retention-removal"
                >
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(removal.at)}</Table.Td>
                  <Table.Td>{removal.store_name}</Table.Td>
                  <Table.Td>{t(`retention.types.${removal.type}`)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(removal.before)}</Table.Td>
                  <Table.Td style={{ textAlign: 'end' }}>
                    {numberFormat.format(removal.count)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

import { Badge, type MantineColor, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithSeconds } from '../../../shared/format/date';
import type { GenerationEvent } from '../api/search-generation-events';

/** Task-generation event types (spec 002 §3): 0 program starting ... 4 task generated. */
const typeColors: Record<number, MantineColor> = {
  0: 'gray',
  1: 'red',
  2: 'orange',
  3: 'blue',
  4: 'teal',
};

type GenerationEventsTableProps = {
  events: GenerationEvent[];
  /** The name of the store searched (events carry its id, or none for program-wide ones). */
  storeName: string;
};

export function GenerationEventsTable({ events, storeName }: GenerationEventsTableProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid="technical-generation-events">
        <caption style={{ captionSide: 'top', textAlign: 'start' }}>
          {t('technical.generation.events')}
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('technical.generation.time')}</Table.Th>
            <Table.Th scope="col">{t('technical.generation.store')}</Table.Th>
            <Table.Th scope="col">{t('technical.generation.type')}</Table.Th>
            <Table.Th scope="col">{t('technical.generation.message')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id} data-testid="technical-generation-event">
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDateTimeWithSeconds(event.timestamp)}
              </Table.Td>
              <Table.Td>
                {event.store_id ? storeName : t('technical.generation.allStores')}
              </Table.Td>
              <Table.Td>
                <Badge
                  variant="light"
                  color={typeColors[event.type] ?? 'gray'}
                  data-type={event.type}
                >
                  {t(`technical.generation.types.${event.type}`)}
                </Badge>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{event.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

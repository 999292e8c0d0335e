import { Group, Stack, Text } from '@mantine/core';
import type { HistoryTask } from '@mise/shared/history/schemas';
import { useTranslation } from 'react-i18next';
import { formatStoreDate, formatStoreTime } from '../../../shared/format/store-clock';

type PostponedInfoProps = {
  task: Pick<HistoryTask, 'postponed_to' | 'employee'>;
  timeZone: string;
};

/** A postponed task (spec 002 §2): the postpone date, the period and the employee. */
export function PostponedInfo({ task, timeZone }: PostponedInfoProps) {
  const { t } = useTranslation();
  const target = task.postponed_to;
  return (
    <Stack gap={4} data-testid="history-postponed">
      {target ? (
        <>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('history.postponedTo')}
            </Text>
            <Text size="sm" fw={500} data-testid="history-postponed-date">
              {formatStoreDate(target.start, timeZone)}
            </Text>
          </Group>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('history.postponedPeriod')}
            </Text>
            <Text size="sm" fw={500} data-testid="history-postponed-period">
              {`${formatStoreTime(target.start, timeZone)}–${formatStoreTime(target.end, timeZone)}`}
            </Text>
          </Group>
        </>
      ) : null}
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('history.employee')}
        </Text>
        <Text size="sm" fw={500} data-testid="history-postponed-employee">
          {task.employee ? `${task.employee.name} ${task.employee.surname}` : '—'}
        </Text>
      </Group>
    </Stack>
  );
}

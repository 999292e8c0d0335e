import { Badge, Group, Loader, Table, Text } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { taskModuleColors, taskStatusColors } from '@mise/shared/tasks/constants';
import type { Task } from '@mise/shared/tasks/schemas';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n/i18n';
import { QueryContent } from '../../../shared/ui/query-content';
import { useStoreTasks } from '../api/get-store-tasks';

type StoreDayTasksProps = {
  storeId: string;
  /** The store's time zone: task times are shown on the store's clock. */
  timeZone?: string;
};

function timeFormatter(language: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone });
  } catch {
    // An unknown zone name: the browser's clock.
    return new Intl.DateTimeFormat(language, options);
  }
}

/**
 * Today on the store's calendar (the day the server answers by default), so that a browser in
 * another zone, or the hour after midnight in Paris seen from UTC, opens on the store's today.
 * An unknown zone: the browser's today.
 */
export function todayInZone(timeZone: string | undefined, now: Date = new Date()): string {
  if (timeZone) {
    try {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).formatToParts(now);
      const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
      return `${part('year')}-${part('month')}-${part('day')}`;
    } catch {
      // An unknown zone name: the browser's calendar.
    }
  }
  return dayjs(now).format('YYYY-MM-DD');
}

/** "08:00–09:30": the task's start and end (start plus duration) on the store's clock. */
export function taskWindow(task: Task, format: Intl.DateTimeFormat): string {
  const start = new Date(task.start);
  const end = new Date(start.getTime() + task.duration * 60_000);
  return `${format.format(start)}–${format.format(end)}`;
}

/**
 * The store's tasks of a day (GET /api/stores/:storeId/tasks?day=): time window, name, module,
 * status and, once completed, the employee. The store's today by default.
 */
export function StoreDayTasks({ storeId, timeZone }: StoreDayTasksProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const [day, setDay] = useState<string>(() => todayInZone(timeZone));
  const tasks = useStoreTasks(storeId, day);
  const format = timeFormatter(language, timeZone);

  return (
    <div data-testid="store-day-tasks">
      <Group mb="md" align="flex-end">
        <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
          <DatePickerInput
            label={t('storeTasks.day')}
            value={day}
            onChange={(value) => {
              if (value) setDay(dayjs(value).format('YYYY-MM-DD'));
            }}
            valueFormat="DD/MM/YYYY"
            leftSection={<IconCalendar size={16} />}
            miw={200}
            data-testid="store-tasks-day"
          />
        </DatesProvider>
        {tasks.isFetching && !tasks.isPending ? <Loader size="xs" mb={8} /> : null}
      </Group>
      <QueryContent
        query={tasks}
        isEmpty={(items) => items.length === 0}
        emptyTitle={t('storeTasks.empty')}
      >
        {(items) => (
          <Table.ScrollContainer minWidth={600}>
            <Table striped highlightOnHover data-testid="store-tasks-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('storeTasks.columns.time')}</Table.Th>
                  <Table.Th>{t('storeTasks.columns.name')}</Table.Th>
                  <Table.Th>{t('storeTasks.columns.module')}</Table.Th>
                  <Table.Th>{t('storeTasks.columns.status')}</Table.Th>
                  <Table.Th>{t('storeTasks.columns.employee')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((task) => (
                  <Table.Tr key={task.id} data-testid="store-task-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="store-task-time">
                      {taskWindow(task, format)}
                    </Table.Td>
                    <Table.Td data-testid="store-task-name">
                      <Text size="sm" fw={500}>
                        {task.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={taskModuleColors[task.module]}
                        data-testid="store-task-module"
                      >
                        {t(`storeTasks.modules.${task.module}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={taskStatusColors[task.status]}
                        data-testid="store-task-status"
                        data-status={task.status}
                      >
                        {t(`storeTasks.statuses.${task.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td data-testid="store-task-employee">
                      {task.completed_timestamp && task.employee
                        ? `${task.employee.name} ${task.employee.surname}`
                        : ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryContent>
    </div>
  );
}

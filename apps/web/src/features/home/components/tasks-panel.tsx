import { Anchor, Badge, Card, Group, Table, Tabs, Text, Title } from '@mantine/core';
import type { HomeTask, StoreHome } from '@mise/shared/history/schemas';
import { IconHistory, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatStoreTime } from '../../../shared/format/store-clock';
import { EmptyState } from '../../../shared/ui/empty-state';
import { ModuleBadge } from '../../../shared/ui/module-badge';

const taskTabs = ['completed', 'late', 'pending'] as const;
type TaskTab = (typeof taskTabs)[number];

type TasksPanelProps = {
  storeId: string;
  timeZone: string;
  tasks: NonNullable<StoreHome['tasks']>;
};

/** When a row's time column reads: completion time once done, else the task's window. */
function taskTime(task: HomeTask, tab: TaskTab, timeZone: string): string {
  if (tab === 'completed' && task.completed_timestamp) {
    return formatStoreTime(task.completed_timestamp, timeZone);
  }
  const start = new Date(task.start);
  const end = new Date(start.getTime() + task.duration * 60_000);
  return `${formatStoreTime(start, timeZone)}–${formatStoreTime(end, timeZone)}`;
}

const taskLink = (task: HomeTask) => `/task?id=${encodeURIComponent(task.id)}`;

/**
 * Today's tasks of the store (spec 000 §2): tabs completed, late and pending; name, employee
 * (completed only), time on the store's clock and module badge. A row opens the task.
 */
export function TasksPanel({ storeId, timeZone, tasks }: TasksPanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<TaskTab>('completed');

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-tasks">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Group gap="xs" wrap="nowrap">
          <IconListCheck size={20} stroke={1.6} />
          <Title order={2} size="h4">
            {t('homeDashboard.tasks.title')}
          </Title>
        </Group>
        <Anchor
          component={Link}
          to={`/history?store=${encodeURIComponent(storeId)}`}
          size="sm"
          data-testid="home-tasks-history"
        >
          <Group gap={4} wrap="nowrap">
            <IconHistory size={16} />
            {t('homeDashboard.seeHistory')}
          </Group>
        </Anchor>
      </Group>
      <Tabs value={tab} onChange={(value) => value && setTab(value as TaskTab)} keepMounted={false}>
        <Tabs.List>
          {taskTabs.map((key) => (
            <Tabs.Tab
              key={key}
              value={key}
              data-testid={`home-tasks-tab-${key}`}
              rightSection={
                <Badge size="sm" variant="light" color={key === 'late' ? 'pink' : 'gray'}>
                  {tasks[key].length}
                </Badge>
              }
            >
              {t(`homeDashboard.tasks.tabs.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {taskTabs.map((key) => (
          <Tabs.Panel key={key} value={key} pt="sm">
            {tasks[key].length === 0 ? (
              <EmptyState title={t(`homeDashboard.tasks.empty.${key}`)} testId="home-tasks-empty" />
            ) : (
              <Table.ScrollContainer minWidth={key === 'completed' ? 460 : 360}>
                <Table highlightOnHover verticalSpacing="xs" data-testid={`home-tasks-${key}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('homeDashboard.tasks.columns.name')}</Table.Th>
                      {key === 'completed' ? (
                        <Table.Th>{t('homeDashboard.tasks.columns.employee')}</Table.Th>
                      ) : null}
                      <Table.Th>{t('homeDashboard.tasks.columns.time')}</Table.Th>
                      <Table.Th>{t('homeDashboard.tasks.columns.module')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {tasks[key].map((task) => (
                      <Table.Tr
                        key={task.id}
                        data-testid="home-task-row"
                        data-task-id={task.id}
                        style={{ cursor: 'pointer' }}
                        onClick={(event) => {
                          // The name is a link of its own: let it navigate once.
                          if ((event.target as HTMLElement).closest('a')) return;
                          void navigate(taskLink(task));
                        }}
                      >
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={taskLink(task)}
                            size="sm"
                            fw={500}
                            data-testid="home-task-name"
                          >
                            {task.name}
                          </Anchor>
                        </Table.Td>
                        {key === 'completed' ? (
                          <Table.Td data-testid="home-task-employee">
                            <Text size="sm">
                              {task.employee
                                ? `${task.employee.name} ${task.employee.surname}`
                                : ''}
                            </Text>
                          </Table.Td>
                        ) : null}
                        <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="home-task-time">
                          <Text size="sm">{taskTime(task, key, timeZone)}</Text>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          <ModuleBadge module={task.module} testId="home-task-module" />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}

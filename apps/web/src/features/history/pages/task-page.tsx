import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { taskModuleColors } from '@mise/shared/tasks/constants';
import { IconArrowLeft, IconClockExclamation } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatStoreDateTime } from '../../../shared/format/store-clock';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { useTaskDetail } from '../api/get-task-detail';
import { PostponedInfo } from '../components/postponed-info';
import { PictureModal } from '../components/result-pictures';
import { TaskResult } from '../components/task-result';
import { TaskRevisions } from '../components/task-revisions';

function Fact({
  label,
  children,
  testId,
}: {
  label: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap="xs" data-testid={testId}>
        {children}
      </Group>
    </Stack>
  );
}

/**
 * /task?id= (spec 002 §2), titled Task: the expected date (start plus duration), the
 * submission date with a late indicator, the completing employee, the module, the result as in
 * history and, when the result was corrected or postponed, its revisions.
 */
export function TaskPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const taskId = searchParams.get('id');
  const task = useTaskDetail(taskId);
  const [picture, setPicture] = useState<string | null>(null);

  const back = (
    <Button
      component={Link}
      to="/history"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      data-testid="task-back"
    >
      {t('taskDetail.backToHistory')}
    </Button>
  );

  if (!taskId) {
    return (
      <>
        <PageHeader title={t('taskDetail.title')} actions={back} />
        <EmptyState title={t('taskDetail.missingId')} />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t('taskDetail.title')}
        subtitle={task.data ? `${task.data.name} · ${task.data.store_name}` : undefined}
        actions={back}
      />
      <QueryContent query={task} isEmpty={() => false} emptyTitle="">
        {(detail) => {
          const zone = detail.timezone_name;
          const isLate = detail.status === 'done-late';
          return (
            <Stack gap="lg" data-testid="task-detail" data-task-id={detail.id}>
              <Card withBorder>
                <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
                  <Fact label={t('taskDetail.store')} testId="task-store">
                    <Text size="sm">{detail.store_name}</Text>
                  </Fact>
                  <Fact label={t('taskDetail.expectedAt')} testId="task-expected">
                    <Text size="sm">{formatStoreDateTime(detail.expected_at, zone)}</Text>
                  </Fact>
                  <Fact label={t('taskDetail.submittedAt')} testId="task-submitted">
                    {detail.completed_timestamp ? (
                      <Text size="sm" c={isLate ? 'red' : undefined} fw={isLate ? 600 : undefined}>
                        {formatStoreDateTime(detail.completed_timestamp, zone)}
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('taskDetail.notSubmitted')}
                      </Text>
                    )}
                    {isLate ? (
                      <Badge
                        color="red"
                        variant="filled"
                        leftSection={<IconClockExclamation size={12} />}
                        data-testid="task-late"
                      >
                        {t('taskDetail.late')}
                      </Badge>
                    ) : null}
                  </Fact>
                  <Fact label={t('taskDetail.employee')} testId="task-employee">
                    <Text size="sm">
                      {detail.employee ? `${detail.employee.name} ${detail.employee.surname}` : '—'}
                    </Text>
                  </Fact>
                  <Fact label={t('taskDetail.module')} testId="task-module">
                    <Badge variant="light" color={taskModuleColors[detail.module]}>
                      {t(`history.tabs.${detail.module}`)}
                    </Badge>
                  </Fact>
                  <Fact label={t('taskDetail.status')} testId="task-status-fact">
                    <TaskStatusBadge status={detail.status} />
                  </Fact>
                </SimpleGrid>
              </Card>
              <section>
                <Title order={4} mb="xs">
                  {t('taskDetail.result')}
                </Title>
                {detail.status === 'postponed' ? (
                  <PostponedInfo task={detail} timeZone={zone} />
                ) : (
                  <TaskResult
                    module={detail.module}
                    elements={detail.elements}
                    result={detail.result}
                    timeZone={zone}
                    onOpenPicture={setPicture}
                  />
                )}
              </section>
              {detail.revisions.length > 1 ? (
                <TaskRevisions revisions={detail.revisions} timeZone={zone} />
              ) : null}
            </Stack>
          );
        }}
      </QueryContent>
      <PictureModal path={picture} onClose={() => setPicture(null)} />
    </>
  );
}

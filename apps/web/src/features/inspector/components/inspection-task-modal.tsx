import { Center, Loader, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TaskDetail } from '@mise/shared/history/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatStoreDateTime } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ModuleBadge } from '../../../shared/ui/module-badge';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { useInspectionTask } from '../api/get-inspection-task';
import { InspectionResultTable } from './inspection-result-table';

/** A table wider than a phone scrolls sideways, by keyboard too (focusable viewport). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

type InspectionTaskModalProps = {
  token: string;
  /** The task shown; null keeps the modal closed. */
  taskId: string | null;
  onClose: () => void;
};

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

function TaskFacts({ task }: { task: TaskDetail }) {
  const { t } = useTranslation();
  const zone = task.timezone_name;
  const revisions = [...task.revisions].sort((left, right) => left.revision - right.revision);
  return (
    <Stack gap="md" data-testid="inspection-task" data-task-id={task.id}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Fact label={t('inspector.task.module')}>
          <ModuleBadge module={task.module} />
        </Fact>
        <Fact label={t('inspector.task.status')}>
          <TaskStatusBadge status={task.status} />
        </Fact>
        <Fact label={t('inspector.task.expectedAt')}>
          <Text size="sm">{formatStoreDateTime(task.expected_at, zone)}</Text>
        </Fact>
        <Fact label={t('inspector.task.submittedAt')}>
          <Text size="sm" data-testid="inspection-task-submitted">
            {task.completed_timestamp
              ? formatStoreDateTime(task.completed_timestamp, zone)
              : t('inspector.task.notSubmitted')}
          </Text>
        </Fact>
        <Fact label={t('inspector.task.employee')}>
          <Text size="sm">
            {task.employee ? `${task.employee.name} ${task.employee.surname}` : '—'}
          </Text>
        </Fact>
        {task.postponed_to ? (
          <Fact label={t('inspector.task.postponedTo')}>
            <Text size="sm">
              {formatStoreDateTime(task.postponed_to.start, zone)} –{' '}
              {formatStoreDateTime(task.postponed_to.end, zone)}
            </Text>
          </Fact>
        ) : null}
      </SimpleGrid>
      <section>
        <Title order={3} size="h5" mb="xs">
          {t('inspector.task.result')}
        </Title>
        <InspectionResultTable task={task} timeZone={zone} />
      </section>
      {revisions.length > 0 ? (
        <section data-testid="inspection-task-revisions">
          <Title order={3} size="h5" mb="xs">
            {t('inspector.task.revisions')}
          </Title>
          <Table.ScrollContainer minWidth={480} scrollAreaProps={keyboardScroll}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('inspector.task.revision')}</Table.Th>
                  <Table.Th>{t('inspector.task.author')}</Table.Th>
                  <Table.Th>{t('inspector.task.time')}</Table.Th>
                  <Table.Th>{t('inspector.task.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {revisions.map((revision) => (
                  <Table.Tr key={revision.revision}>
                    <Table.Td>
                      {revision.revision} · {t(`inspector.task.kinds.${revision.kind}`)}
                    </Table.Td>
                    <Table.Td>
                      {revision.author ? `${revision.author.name} ${revision.author.surname}` : '—'}
                    </Table.Td>
                    <Table.Td>{formatStoreDateTime(revision.created_at, zone)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{revision.reason ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </section>
      ) : null}
    </Stack>
  );
}

/** A task's detail for the inspector: facts, result table and revisions, in a modal. */
export function InspectionTaskModal({ token, taskId, onClose }: InspectionTaskModalProps) {
  const { t } = useTranslation();
  const task = useInspectionTask(token, taskId);
  return (
    <Modal
      opened={taskId !== null}
      onClose={onClose}
      title={task.data?.name ?? t('inspector.task.title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="inspection-task-modal"
    >
      {task.isPending ? (
        <Center py="lg">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : task.isError ? (
        <Text c="red.9" size="sm" role="alert">
          {errorMessage(t, task.error)}
        </Text>
      ) : (
        <TaskFacts task={task.data} />
      )}
    </Modal>
  );
}

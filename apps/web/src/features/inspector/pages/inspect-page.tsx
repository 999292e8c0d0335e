import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { historyTabs } from '@mise/shared/history/constants';
import { type Inspection, periodDays, tokenOfFragment } from '@mise/shared/records/links';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { IconChevronLeft, IconChevronRight, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { formatCalendarDay, formatStoreDateTime } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LanguagePicker } from '../../../shared/i18n/language-picker';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useInspection } from '../api/get-inspection';
import { useInspectionHistory } from '../api/get-inspection-history';
import { InspectionPackPanel } from '../components/inspection-pack-panel';
import { InspectionTaskList } from '../components/inspection-task-list';
import { InspectionTaskModal } from '../components/inspection-task-modal';

/** The frame of the inspector's page: no navigation, no account, the language picker. */
function InspectorFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)">
      <Box component="header" bg="white" py="xs" style={{ borderBottom: '1px solid #e9ecef' }}>
        <Container size="md">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <IconShieldCheck size={22} aria-hidden />
              <Text fw={700}>{t('inspector.page.brand')}</Text>
            </Group>
            <LanguagePicker />
          </Group>
        </Container>
      </Box>
      <Container size="md" py="md" component="main">
        {children}
      </Container>
    </Box>
  );
}

/** The link opens nothing (unknown, expired, revoked, or no token in the address). */
function InvalidLink({ title, description }: { title: string; description: string }) {
  return (
    <InspectorFrame>
      <Stack align="center" gap="sm" py="xl" ta="center" data-testid="inspection-invalid">
        <IconLock size={32} aria-hidden />
        <Title order={1} size="h3">
          {title}
        </Title>
        <Text c="dimmed" maw={480}>
          {description}
        </Text>
      </Stack>
    </InspectorFrame>
  );
}

/** A weekday and a date in the interface language: "Wed 18/11/2026". */
function dayLabel(day: string, language: string): string {
  const weekday = new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
  return `${weekday} ${formatCalendarDay(day)}`;
}

function DayTasks({
  token,
  day,
  module,
  timeZone,
  onOpen,
}: {
  token: string;
  day: string;
  module: TaskModule;
  timeZone: string;
  onOpen: (taskId: string) => void;
}) {
  const { t } = useTranslation();
  const history = useInspectionHistory({ token, day, module });
  if (history.isPending) {
    return (
      <Center py="lg">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (history.isError) {
    return (
      <Text c="red.9" size="sm" role="alert" data-testid="inspection-history-error">
        {errorMessage(t, history.error)}
      </Text>
    );
  }
  const tasks = history.data.pages.flatMap((page) => page.items);
  if (tasks.length === 0) {
    return <EmptyState title={t('inspector.page.empty')} testId="inspection-empty" />;
  }
  return (
    <Stack gap="sm">
      <InspectionTaskList tasks={tasks} timeZone={timeZone} onOpen={onOpen} />
      {history.hasNextPage ? (
        <Button
          variant="default"
          onClick={() => history.fetchNextPage()}
          loading={history.isFetchingNextPage}
          data-testid="inspection-more"
        >
          {t('common.showMore')}
        </Button>
      ) : null}
    </Stack>
  );
}

function Inspecting({ token, inspection }: { token: string; inspection: Inspection }) {
  const { t, i18n } = useTranslation();
  const days = useMemo(
    () => periodDays(inspection.period_start, inspection.period_end),
    [inspection.period_start, inspection.period_end],
  );
  const [day, setDay] = useState(days[0]!);
  const modules = historyTabs.filter(
    (module) => !(inspection.store.hidden_modules as string[]).includes(module),
  );
  const [module, setModule] = useState<TaskModule>(modules[0] ?? 'temperatures');
  const [openTaskId, setOpenTaskId] = useState<string | null>(null);
  const dayIndex = days.indexOf(day);
  const zone = inspection.store.timezone_name;

  return (
    <InspectorFrame>
      <Stack gap="md">
        <Paper withBorder p="md" radius="md" data-testid="inspection-header">
          <Stack gap={6}>
            <Group gap="xs" wrap="wrap">
              <Title order={1} size="h2" data-testid="inspection-store">
                {inspection.store.name}
              </Title>
              <Badge variant="light" color="gray" leftSection={<IconLock size={12} />}>
                {t('inspector.page.readOnly')}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {[inspection.store.address, inspection.store.city].filter(Boolean).join(', ')}
            </Text>
            {inspection.label ? <Text size="sm">{inspection.label}</Text> : null}
            <Text size="sm" data-testid="inspection-period">
              {t('inspector.page.period', {
                start: formatCalendarDay(inspection.period_start),
                end: formatCalendarDay(inspection.period_end),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('inspector.page.expires', {
                time: formatStoreDateTime(inspection.expires_at, zone),
              })}
            </Text>
          </Stack>
        </Paper>

        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('inspector.page.history')}
            </Title>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setDay(days[dayIndex - 1]!)}
                disabled={dayIndex <= 0}
                aria-label={t('inspector.page.previousDay')}
                data-testid="inspection-previous-day"
              >
                <IconChevronLeft size={18} />
              </ActionIcon>
              <Select
                label={t('inspector.page.day')}
                data={days.map((value) => ({ value, label: dayLabel(value, i18n.language) }))}
                value={day}
                onChange={(value) => value && setDay(value)}
                allowDeselect={false}
                style={{ flex: 1 }}
                maw={260}
                data-testid="inspection-day"
                comboboxProps={{ withinPortal: true }}
              />
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setDay(days[dayIndex + 1]!)}
                disabled={dayIndex >= days.length - 1}
                aria-label={t('inspector.page.nextDay')}
                data-testid="inspection-next-day"
              >
                <IconChevronRight size={18} />
              </ActionIcon>
            </Group>
            <Tabs
              value={module}
              onChange={(value) => value && setModule(value as TaskModule)}
              keepMounted={false}
            >
              <Tabs.List style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
                {modules.map((item) => (
                  <Tabs.Tab key={item} value={item} data-testid={`inspection-tab-${item}`}>
                    {t(`inspector.modules.${item}`)}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {modules.map((item) => (
                <Tabs.Panel key={item} value={item} pt="sm">
                  <DayTasks
                    token={token}
                    day={day}
                    module={item}
                    timeZone={zone}
                    onOpen={setOpenTaskId}
                  />
                </Tabs.Panel>
              ))}
            </Tabs>
          </Stack>
        </Paper>

        {inspection.is_pack_available ? <InspectionPackPanel token={token} /> : null}
      </Stack>
      <InspectionTaskModal token={token} taskId={openTaskId} onClose={() => setOpenTaskId(null)} />
    </InspectorFrame>
  );
}

/**
 * /inspect#<token> (issue 21): what an inspector opens without an account — the link's store,
 * its period, a day's history with each task's detail, and the inspector pack. The token stays
 * in the fragment (never sent in a URL) and goes to the API in a header.
 */
export function InspectPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const token = tokenOfFragment(location.hash);
  const inspection = useInspection(token);

  if (!token) {
    return (
      <InvalidLink
        title={t('inspector.page.invalidTitle')}
        description={t('inspector.page.missingToken')}
      />
    );
  }
  if (inspection.isPending) {
    return (
      <InspectorFrame>
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      </InspectorFrame>
    );
  }
  if (inspection.isError) {
    const isClosed =
      isApiError(inspection.error, 'inspector/link-invalid') ||
      isApiError(inspection.error, 'not-found');
    return (
      <InvalidLink
        title={isClosed ? t('inspector.page.invalidTitle') : t('common.loadFailed')}
        description={
          isClosed ? t('inspector.page.invalidDescription') : errorMessage(t, inspection.error)
        }
      />
    );
  }
  return <Inspecting key={token} token={token} inspection={inspection.data} />;
}

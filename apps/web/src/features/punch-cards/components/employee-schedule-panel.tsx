import {
  Anchor,
  Badge,
  Card,
  Group,
  Image,
  Modal,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { Schedule } from '@mise/shared/people/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatStoreTime } from '../../../shared/format/store-clock';
import { QueryContent } from '../../../shared/ui/query-content';
import { useSchedule } from '../api/get-schedule';

type ScheduleEntry = Schedule['items'][number]['entries'][number];

/** The zone of new stores (spec 000 §9), when the store's is not given. */
const defaultZone = 'Europe/Paris';

/** HH:MM of an entry: an instant on the store's clock, or a time of day as sent. */
function entryTime(time: string, zone: string): string {
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(time)) return time.slice(0, 5).padStart(5, '0');
  return formatStoreTime(time, zone);
}

type EmployeeSchedulePanelProps = {
  storeId: string;
  /** The store's zone (IANA name); times are shown on its clock. */
  timeZone?: string;
};

/**
 * Home: today's employee schedule (spec 000 §2). Active employees with their role and their
 * clock-in (green) and clock-out (purple) badges; a badge with a selfie opens it; "See all"
 * leads to the store's punch cards.
 */
export function EmployeeSchedulePanel({ storeId, timeZone }: EmployeeSchedulePanelProps) {
  const { t } = useTranslation();
  const schedule = useSchedule(storeId);
  const zone = timeZone || defaultZone;
  const [selfie, setSelfie] = useState<string | null>(null);

  function renderBadge(entry: ScheduleEntry) {
    const time = entryTime(entry.time, zone);
    const selfieUrl = entry.selfie_url;
    const badge = (
      <Badge
        color={entry.is_in ? 'green' : 'grape'}
        variant="light"
        size="lg"
        radius="sm"
        style={{ cursor: selfieUrl ? 'pointer' : undefined }}
        data-testid="home-schedule-badge"
        data-entry-in={String(entry.is_in)}
        data-has-selfie={String(selfieUrl !== null)}
      >
        {time}
      </Badge>
    );
    if (!selfieUrl) return <span key={entry.id}>{badge}</span>;
    return (
      <UnstyledButton
        key={entry.id}
        onClick={() => setSelfie(selfieUrl)}
        aria-label={`${t('punchCards.schedule.openSelfie')} ${time}`}
      >
        {badge}
      </UnstyledButton>
    );
  }

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-schedule">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('punchCards.schedule.title')}
        </Title>
        <Anchor
          component={Link}
          to={`/punchCards?store=${encodeURIComponent(storeId)}`}
          size="sm"
          data-testid="home-schedule-see-all"
        >
          {t('punchCards.schedule.seeAll')}
        </Anchor>
      </Group>
      <QueryContent
        query={schedule}
        isEmpty={(data) => data.items.length === 0}
        emptyTitle={t('punchCards.schedule.empty')}
      >
        {(data) => (
          <Stack gap="sm">
            {data.items.map((employee) => (
              <Group
                key={employee.id}
                justify="space-between"
                wrap="wrap"
                gap="xs"
                data-testid="home-schedule-row"
                data-employee-id={employee.id}
              >
                <Group gap="xs">
                  <Text size="sm" fw={500}>
                    {`${employee.name.trim()} ${employee.surname.trim()}`.trim()}
                  </Text>
                  {employee.role_name ? (
                    <Badge
                      variant="outline"
                      color="gray"
                      size="sm"
                      data-testid="home-schedule-role"
                    >
                      {employee.role_name}
                    </Badge>
                  ) : null}
                </Group>
                <Group gap={4}>{employee.entries.map(renderBadge)}</Group>
              </Group>
            ))}
          </Stack>
        )}
      </QueryContent>
      <Modal
        opened={selfie !== null}
        onClose={() => setSelfie(null)}
        title={t('punchCards.schedule.selfie')}
        centered
        data-testid="home-schedule-selfie-modal"
      >
        {selfie ? (
          <Image
            src={selfie}
            alt={t('punchCards.schedule.selfie')}
            fit="contain"
            mah="75vh"
            data-testid="home-schedule-selfie"
          />
        ) : null}
      </Modal>
    </Card>
  );
}

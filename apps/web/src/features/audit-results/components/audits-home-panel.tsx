import { Anchor, Card, Group, RingProgress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { formatPercent } from '@mise/shared/audits/scoring';
import { IconClipboardCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { formatDate } from '../../../shared/format/date';
import { QueryContent } from '../../../shared/ui/query-content';
import { type AuditHomeItem, useAuditsHome } from '../api/get-audits-home';
import { resultReaderRoles } from './submitted-result';

type AuditsHomePanelProps = {
  /** The database chosen in the home's selector. */
  databaseId: string;
};

function doneColor(percent: number): string {
  if (percent >= 80) return 'teal';
  if (percent >= 40) return 'yellow';
  return 'orange';
}

function AuditRow({ item, canReadResults }: { item: AuditHomeItem; canReadResults: boolean }) {
  const { t } = useTranslation();
  const percent = Math.max(0, Math.min(100, item.done_percentage));
  const done = t('auditResults.home.done', { value: formatPercent(item.done_percentage) });
  return (
    <Group gap="sm" wrap="nowrap" component="li" data-testid="home-audit" data-audit-id={item.id}>
      <RingProgress
        size={64}
        thickness={7}
        roundCaps
        sections={[{ value: percent, color: doneColor(percent) }]}
        label={
          <Text ta="center" size="xs" fw={700}>
            {t('auditResults.percent', { value: formatPercent(item.done_percentage) })}
          </Text>
        }
        aria-hidden
      />
      <Stack gap={0} miw={0}>
        {canReadResults ? (
          <Anchor
            component={Link}
            to={`/auditingResults?audit=${encodeURIComponent(item.id)}`}
            fw={600}
            size="sm"
            truncate
          >
            {item.name}
          </Anchor>
        ) : (
          <Text fw={600} size="sm" truncate>
            {item.name}
          </Text>
        )}
        <Text size="sm" fw={600} c={doneColor(percent)} data-testid="home-audit-done">
          {done}
        </Text>
        <Text size="xs" c="dimmed" data-testid="home-audit-stores">
          {t('auditResults.home.stores', { done: item.stores_done, count: item.store_count })}
        </Text>
        {item.publishing_date ? (
          <Text size="xs" c="dimmed" data-testid="home-audit-published">
            {t('auditResults.home.published', { date: formatDate(item.publishing_date) })}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}

/**
 * Home audits panel (spec 000 §2): the selected database's published audits, each with its
 * percentage "effectué" (share of the database's stores with a submitted result), the stores
 * done over the store count and the publish date. Hidden when the API refuses auditing to the
 * caller (403: customers, a database whose auditing extension is hidden).
 */
export function AuditsHomePanel({ databaseId }: AuditsHomePanelProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const audits = useAuditsHome(databaseId);
  if (audits.isError && isApiError(audits.error) && audits.error.status === 403) return null;
  const canReadResults = (resultReaderRoles as readonly string[]).includes(user.role);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-audits">
      <Group gap="xs" wrap="nowrap" mb="md">
        <ThemeIcon variant="light" size="md" radius="xl">
          <IconClipboardCheck size={18} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} size="h4">
          {t('auditResults.home.title')}
        </Title>
      </Group>
      <QueryContent
        query={audits}
        isEmpty={(data) => data.items.length === 0}
        emptyTitle={t('auditResults.home.empty')}
      >
        {(data) => (
          <Stack gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {data.items.map((item) => (
              <AuditRow key={item.id} item={item} canReadResults={canReadResults} />
            ))}
          </Stack>
        )}
      </QueryContent>
    </Card>
  );
}

import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { AuditSummary } from '@mise/shared/audits/schemas';
import { IconChartBar, IconClipboardCheck, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../shared/format/date';
import { auditConfigurationPath } from './audit-builder';

type AuditCardProps = { audit: AuditSummary; canReadResults: boolean };

/**
 * An audit of the list (spec 002 §2): name, state, counts of sections and questions; edit,
 * results (admin and manager), and perform when published and active.
 */
export function AuditCard({ audit, canReadResults }: AuditCardProps) {
  const { t } = useTranslation();
  const query = `audit=${encodeURIComponent(audit.id)}`;
  return (
    <Card
      component="article"
      withBorder
      radius="md"
      padding="md"
      data-testid="audit-card"
      aria-label={audit.name}
    >
      <Stack gap="xs" h="100%">
        <Text fw={600} lineClamp={2} data-testid="audit-card-name">
          {audit.name}
        </Text>
        <Group gap={6} wrap="wrap">
          {audit.published ? (
            <Badge color="teal" variant="light">
              {t('audits.published')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              {t('audits.draft')}
            </Badge>
          )}
          {audit.active ? null : (
            <Badge color="orange" variant="light">
              {t('common.inactive')}
            </Badge>
          )}
          {audit.self_evaluation ? (
            <Badge color="blue" variant="light">
              {t('audits.selfEvaluation')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" data-testid="audit-card-counts">
          {t('audits.sectionCount', { count: audit.section_count })} ·{' '}
          {t('audits.questionCount', { count: audit.question_count })}
        </Text>
        <Text size="xs" c="dimmed">
          {audit.publishing_date
            ? t('audits.publishedOn', { date: formatDate(audit.publishing_date) })
            : t('audits.createdOn', { date: formatDate(audit.creation_date) })}
        </Text>
        <Group gap="xs" mt="auto" wrap="wrap">
          <Button
            component={Link}
            to={auditConfigurationPath(audit.id)}
            variant="light"
            size="compact-sm"
            leftSection={<IconPencil size={14} aria-hidden />}
            aria-label={t('audits.editNamed', { name: audit.name })}
            data-testid="audit-edit"
          >
            {t('audits.edit')}
          </Button>
          {canReadResults ? (
            <Button
              component={Link}
              to={`/auditingResults?${query}`}
              variant="light"
              size="compact-sm"
              leftSection={<IconChartBar size={14} aria-hidden />}
              aria-label={t('audits.resultsNamed', { name: audit.name })}
              data-testid="audit-results"
            >
              {t('audits.results')}
            </Button>
          ) : null}
          {audit.published && audit.active ? (
            <Button
              component={Link}
              to={`/auditingPerform?${query}`}
              variant="light"
              size="compact-sm"
              leftSection={<IconClipboardCheck size={14} aria-hidden />}
              aria-label={t('audits.performNamed', { name: audit.name })}
              data-testid="audit-perform"
            >
              {t('audits.perform')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

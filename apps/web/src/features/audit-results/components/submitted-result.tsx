import { Anchor, Button, Card, Group, RingProgress, Stack, Text, Title } from '@mantine/core';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { formatPercent } from '@mise/shared/audits/scoring';
import { IconCircleCheck, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { formatDateTime } from '../../../shared/format/date';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError } from '../../../shared/ui/notify';
import { createAuditPdf } from '../api/perform-audit';
import { resultPercent } from '../model/result-scores';

/** Roles that read results, and so their PDF (spec 002 §6). */
export const resultReaderRoles = ['admin', 'manager'] as const;

/**
 * After submission: the result's score as a percentage (2 decimals when not whole) and, for
 * admins and managers, its PDF.
 */
export function SubmittedResult({ result }: { result: AuditResult }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const percent = resultPercent(result);
  const canReadPdf = (resultReaderRoles as readonly string[]).includes(user.role);

  async function handlePdf() {
    try {
      setPdfUrl(await createAuditPdf(result.path));
    } catch (error) {
      notifyApiError(error);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg" data-testid="perform-submitted">
      <Stack align="center" gap="md">
        <IconCircleCheck size={40} color="var(--mantine-color-teal-6)" />
        <Title order={2} size="h3" ta="center">
          {t('auditResults.perform.submittedTitle')}
        </Title>
        <Text size="sm" c="dimmed" ta="center">
          {t('auditResults.perform.submittedAt', {
            store: result.store.name,
            date: formatDateTime(result.end_date),
          })}
        </Text>
        {percent === null ? (
          <Text c="dimmed" data-testid="perform-score">
            {t('auditResults.noScore')}
          </Text>
        ) : (
          <RingProgress
            size={140}
            thickness={12}
            roundCaps
            sections={[{ value: percent, color: 'teal' }]}
            label={
              <Text ta="center" fw={700} size="xl" data-testid="perform-score">
                {t('auditResults.percent', { value: formatPercent(percent) })}
              </Text>
            }
          />
        )}
        {canReadPdf ? (
          pdfUrl ? (
            <Anchor
              href={pdfUrl}
              target="_blank"
              rel="noopener"
              fw={600}
              data-testid="perform-pdf-link"
            >
              <Group gap={6}>
                <IconFileTypePdf size={18} />
                {t('auditResults.openPdfLink')}
              </Group>
            </Anchor>
          ) : (
            <LoadingButton
              variant="light"
              leftSection={<IconFileTypePdf size={18} />}
              onClick={handlePdf}
              data-testid="perform-pdf"
            >
              {t('auditResults.makePdf')}
            </LoadingButton>
          )
        ) : null}
        <Group justify="center">
          <Button
            component={Link}
            to={`/auditingPerform?audit=${encodeURIComponent(result.audit_id)}`}
            variant="default"
          >
            {t('auditResults.perform.another')}
          </Button>
          <Button component={Link} to="/auditing" variant="subtle">
            {t('auditResults.backToAudits')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

import { Button, Container, Stack } from '@mantine/core';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { auditResultsQueryKeys } from '../api/audit-results-query-keys';
import { useAudit } from '../api/get-audit';
import { useAuditResult } from '../api/get-audit-result';
import { AuditForm } from '../components/audit-form';
import { StartAudit } from '../components/start-audit';
import { SubmittedResult } from '../components/submitted-result';

function PerformResult({ resultId }: { resultId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const result = useAuditResult(resultId);
  return (
    <QueryContent query={result} isEmpty={() => false} emptyTitle={t('common.nothingFound')}>
      {(data) =>
        data.status === 'submitted' ? (
          <SubmittedResult result={data} />
        ) : (
          <AuditForm
            key={data.id}
            result={data}
            onSubmitted={(submitted: AuditResult) =>
              queryClient.setQueryData(auditResultsQueryKeys.result(submitted.id), submitted)
            }
          />
        )
      }
    </QueryContent>
  );
}

/**
 * /auditingPerform?audit=<id>[&result=<id>] (issue 16): an admin, manager or distributor
 * performs a published, active audit in a store, from a phone or a tablet: choose the store
 * (or resume a result in progress), answer section by section, submit, read the score.
 */
export function AuditPerformPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const auditId = searchParams.get('audit');
  const resultId = searchParams.get('result');
  const audit = useAudit(auditId);
  const result = useAuditResult(resultId);

  const back = (
    <Button
      component={Link}
      to="/auditing"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      data-testid="perform-back"
    >
      {t('auditResults.backToAudits')}
    </Button>
  );
  const title = result.data?.audit_name ?? audit.data?.name ?? t('areas.auditingPerform');
  const subtitle = result.data?.store.name;

  return (
    <Container size="sm" px={0}>
      <PageHeader title={title} subtitle={subtitle} actions={back} />
      {!auditId && !resultId ? (
        <EmptyState title={t('auditResults.missingAudit')} />
      ) : resultId ? (
        <PerformResult key={resultId} resultId={resultId} />
      ) : (
        <QueryContent query={audit} isEmpty={() => false} emptyTitle={t('common.nothingFound')}>
          {(data) => (
            <Stack gap="md">
              <StartAudit
                audit={data}
                onOpen={(id) => setSearchParams({ audit: data.id, result: id })}
              />
            </Stack>
          )}
        </QueryContent>
      )}
    </Container>
  );
}

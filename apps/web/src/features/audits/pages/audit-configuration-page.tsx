import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useAudit } from '../api/get-audit';
import { AuditBuilder } from '../components/audit-builder';

/**
 * /auditingConfiguration?id=<auditId> (edit) and /auditingConfiguration?database=<databaseId>
 * (a new audit, created on its first save).
 */
export function AuditConfigurationPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const databaseId = id ? null : searchParams.get('database');
  const audit = useAudit(id);

  if (id) {
    if (audit.isPending) {
      return (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      );
    }
    if (audit.isError) {
      return (
        <>
          <PageHeader title={t('areas.auditingConfiguration')} />
          <EmptyState title={t('common.loadFailed')} description={errorMessage(t, audit.error)} />
        </>
      );
    }
    return <AuditBuilder key={id} audit={audit.data} databaseId={audit.data.database_id} />;
  }
  if (databaseId) {
    return <AuditBuilder key={`new:${databaseId}`} audit={null} databaseId={databaseId} />;
  }
  return (
    <>
      <PageHeader title={t('areas.auditingConfiguration')} />
      <EmptyState title={t('audits.noneSelected')} />
    </>
  );
}

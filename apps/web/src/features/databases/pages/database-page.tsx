import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useDatabase } from '../api/get-database';
import { DatabaseDetail } from '../components/database-detail';

/** /database?id=... */
export function DatabasePage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const database = useDatabase(id);

  if (!id) {
    return (
      <>
        <PageHeader title={t('areas.database')} />
        <EmptyState title={t('database.noneSelected')} />
      </>
    );
  }
  if (database.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (database.isError) {
    return (
      <>
        <PageHeader title={t('areas.database')} />
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, database.error)} />
      </>
    );
  }
  return (
    // Keyed by id only: a new version (a save, an upload) must not rebuild the form and drop
    // the edits of its tabs.
    <DatabaseDetail key={database.data.id} database={database.data} viewer={viewer} />
  );
}

import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useDistributor } from '../api/get-distributor';
import { DistributorDetail } from '../components/distributor-detail';

/** /distributor?id=... */
export function DistributorPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const distributor = useDistributor(id);

  if (!id) {
    return (
      <>
        <PageHeader title={t('areas.distributor')} />
        <EmptyState title={t('distributor.noneSelected')} />
      </>
    );
  }
  if (distributor.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (distributor.isError) {
    return (
      <>
        <PageHeader title={t('areas.distributor')} />
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, distributor.error)}
        />
      </>
    );
  }
  return (
    <DistributorDetail key={distributor.data.id} distributor={distributor.data} viewer={viewer} />
  );
}

import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useStore } from '../api/get-store';
import { StoreDetail } from '../components/store-detail';

/** /store?id= (no database yet: a database picker) and /storeDatabase?id= (the tabs). */
export function StorePage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const store = useStore(id);

  if (!id) {
    return (
      <>
        <PageHeader title={t('areas.store')} />
        <EmptyState title={t('store.noneSelected')} />
      </>
    );
  }
  if (store.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (store.isError) {
    return (
      <>
        <PageHeader title={t('areas.store')} />
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, store.error)} />
      </>
    );
  }
  return <StoreDetail key={store.data.id} store={store.data} viewer={viewer} />;
}

import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useUser } from '../api/get-user';
import { AccountDetail } from '../components/account-detail';

/** /account?id=...: the record travels in the query so a reload keeps it. */
export function AccountPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const account = useUser(id);

  if (!id) {
    return (
      <>
        <PageHeader title={t('areas.account')} />
        <EmptyState title={t('account.noneSelected')} />
      </>
    );
  }
  if (account.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (account.isError) {
    return (
      <>
        <PageHeader title={t('areas.account')} />
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, account.error)} />
      </>
    );
  }
  return <AccountDetail key={account.data.id} account={account.data} viewer={viewer} />;
}

import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useProbeStores } from '../api/get-probe-stores';
import { useProbes } from '../api/get-probes';
import { ProbeDetail } from '../components/probe-detail';
import { isProbeWorking } from '../components/probe-filter';

/** /probe?id= (admin): the probe chosen in the list, read from the probes list's answer. */
export function ProbePage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const probes = useProbes();
  const stores = useProbeStores();

  if (!id) {
    return (
      <>
        <PageHeader title={t('areas.probe')} />
        <EmptyState title={t('probes.noneSelected')} />
      </>
    );
  }
  if (probes.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (probes.isError) {
    return (
      <>
        <PageHeader title={t('areas.probe')} />
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, probes.error)} />
      </>
    );
  }
  const probe = probes.data.find((item) => item.id === id);
  if (!probe) {
    return (
      <>
        <PageHeader title={t('areas.probe')} />
        <EmptyState title={t('probes.notFound')} testId="probe-not-found" />
      </>
    );
  }
  const storeName =
    probe.storeId === null
      ? null
      : (stores.data?.find((store) => store.id === probe.storeId)?.name ?? null);
  return (
    <ProbeDetail
      key={probe.id}
      probe={probe}
      storeName={storeName}
      isWorking={isProbeWorking(probe, new Date())}
    />
  );
}

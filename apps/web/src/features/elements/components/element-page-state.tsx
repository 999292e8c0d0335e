import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';

type ElementPageStateProps = {
  /** Nothing to show: the URL names no element, database or store. */
  isMissing?: boolean;
  isPending?: boolean;
  error?: unknown;
};

/** The element pages' loading, missing and failed states. */
export function ElementPageState({
  isMissing = false,
  isPending = false,
  error,
}: ElementPageStateProps) {
  const { t } = useTranslation();
  if (isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <>
      <PageHeader title={t('element.title')} />
      {isMissing ? (
        <EmptyState title={t('element.noneSelected')} />
      ) : (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, error)} />
      )}
    </>
  );
}

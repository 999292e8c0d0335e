import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';

type TaskConfigurationPageStateProps = {
  /** Nothing to show: the URL names no configuration, database or store. */
  isMissing?: boolean;
  isPending?: boolean;
  error?: unknown;
};

/** The configuration pages' loading, missing and failed states. */
export function TaskConfigurationPageState({
  isMissing = false,
  isPending = false,
  error,
}: TaskConfigurationPageStateProps) {
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
      <PageHeader title={t('taskConfiguration.title')} />
      {isMissing ? (
        <EmptyState title={t('taskConfiguration.noneSelected')} />
      ) : (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, error)} />
      )}
    </>
  );
}

import { Button, Center } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { errorMessage } from '../../shared/i18n/error-message';
import { EmptyState } from '../../shared/ui/empty-state';

type RouteErrorPageProps = {
  error?: unknown;
};

/** Unexpected failure of a screen (API unreachable, chunk failed to load...). */
export function RouteErrorPage({ error }: RouteErrorPageProps) {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="md">
      <EmptyState
        title={t('errors.pageFailed')}
        description={errorMessage(t, error)}
        icon={<IconAlertCircle size={28} />}
        testId="route-error"
        actions={<Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>}
      />
    </Center>
  );
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  return <RouteErrorPage error={error} />;
}

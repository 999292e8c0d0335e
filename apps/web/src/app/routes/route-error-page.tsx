import { Button, Center } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { errorMessage } from '../../shared/i18n/error-message';
import { EmptyState } from '../../shared/ui/empty-state';
import { isChunkLoadError } from './load-chunk';

type RouteErrorPageProps = {
  error?: unknown;
};

/** Unexpected failure of a screen (API unreachable, chunk failed to load...). */
export function RouteErrorPage({ error }: RouteErrorPageProps) {
  const { t } = useTranslation();
  // The screen's code could not be downloaded (spec 002 §8): only a reload helps.
  const isChunkFailure = isChunkLoadError(error);
  return (
    <Center mih="60vh" p="md">
      <EmptyState
        title={t(isChunkFailure ? 'errors.chunkLoadTitle' : 'errors.pageFailed')}
        description={isChunkFailure ? t('errors.chunkLoadDescription') : errorMessage(t, error)}
        icon={<IconAlertCircle size={28} />}
        testId={isChunkFailure ? 'chunk-load-error' : 'route-error'}
        actions={<Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>}
      />
    </Center>
  );
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  return <RouteErrorPage error={error} />;
}

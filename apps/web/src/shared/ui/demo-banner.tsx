import { Alert } from '@mantine/core';
import type { DemoStatus } from '@mise/shared/auth/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../api/api-client';
import { demoStatusQueryKey } from '../auth/bootstrap';

/** GET /api/demo: whether the published demo accounts (demo1234) exist on this server. */
export function getDemoStatus(): Promise<DemoStatus> {
  return apiRequest<DemoStatus>('/demo');
}

export function demoStatusQueryOptions() {
  return queryOptions({
    queryKey: demoStatusQueryKey,
    queryFn: getDemoStatus,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useDemoStatus() {
  return useQuery(demoStatusQueryOptions());
}

/**
 * "Demo data" banner, shown while the demo accounts exist: their password is published, so
 * this server is for trying Mise, not for real records. Nothing while unknown or absent.
 */
export function DemoBanner() {
  const { t } = useTranslation();
  const { data } = useDemoStatus();
  if (!data?.hasDemoAccounts) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title={t('demoBanner.title')}
      mb="md"
      role="status"
      data-testid="demo-banner"
    >
      {t('demoBanner.text')}
    </Alert>
  );
}

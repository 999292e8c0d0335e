import { Button } from '@mantine/core';
import { IconMapQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../shared/ui/empty-state';
import { PageHeader } from '../../shared/ui/page-header';

/** An address that is no screen of the product (route `*`); the navigation stays. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title={t('navigation.notFoundTitle')} />
      <EmptyState
        title={t('navigation.notFoundDescription', { path: pathname })}
        icon={<IconMapQuestion size={28} />}
        testId="not-found"
        actions={
          <Button component={Link} to="/home">
            {t('navigation.goHome')}
          </Button>
        }
      />
    </>
  );
}

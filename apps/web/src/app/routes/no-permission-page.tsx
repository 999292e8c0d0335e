import { Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../shared/ui/empty-state';
import { PageHeader } from '../../shared/ui/page-header';

/** A screen the signed-in role may not open (opened by URL: the navigation does not offer it). */
export function NoPermissionPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('navigation.noPermissionTitle')} />
      <EmptyState
        title={t('navigation.noPermissionDescription')}
        icon={<IconLock size={28} />}
        testId="no-permission"
        actions={
          <Button component={Link} to="/home">
            {t('navigation.goHome')}
          </Button>
        }
      />
    </>
  );
}

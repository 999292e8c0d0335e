import { IconHourglass } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

type ComingSoonPageProps = {
  /** Route key of the area ('shop', 'punchCards', ...): its title is `areas.<key>`. */
  areaKey: string;
};

/** The page of an area whose issue has not been built yet: its title and a notice. */
export function ComingSoonPage({ areaKey }: ComingSoonPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(`areas.${areaKey}`)} />
      <EmptyState
        title={t('comingSoon.title')}
        description={t('comingSoon.description')}
        icon={<IconHourglass size={28} />}
        testId="coming-soon"
      />
    </>
  );
}

import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui/page-header';

/** Support: an empty page with its title (spec 000 §2). */
export function SupportPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('areas.support')} />;
}

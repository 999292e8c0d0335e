import { ComingSoonPage } from '../../../shared/ui/coming-soon-page';

/** Placeholder until the screen lands. */
export function StoreTaskConfigurationPage() {
  return <ComingSoonPage areaKey="storeTaskConf" />;
}

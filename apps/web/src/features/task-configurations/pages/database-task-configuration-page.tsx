import { ComingSoonPage } from '../../../shared/ui/coming-soon-page';

/** Placeholder until the screen lands. */
export function DatabaseTaskConfigurationPage() {
  return <ComingSoonPage areaKey="taskConf" />;
}

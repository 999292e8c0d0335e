import { ComingSoonPage } from '../../../shared/ui/coming-soon-page';

/** Placeholder until the screen lands. */
export function DatabaseElementPage() {
  return <ComingSoonPage areaKey="databaseElement" />;
}

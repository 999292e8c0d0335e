import { ComingSoonPage } from '../../../shared/ui/coming-soon-page';

/** Placeholder until the screen lands. */
export function AllergensPage() {
  return <ComingSoonPage areaKey="allergens" />;
}

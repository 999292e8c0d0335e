import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { useBulkElements } from '../api/get-bulk-elements';
import { BulkElementsScreen } from '../components/bulk-elements-screen';
import { BulkPage } from './bulk-page';

function BulkElementsPage({ level }: { level: BulkLevel }) {
  return (
    <BulkPage
      kind="elements"
      level={level}
      useRows={useBulkElements}
      renderScreen={(start) => <BulkElementsScreen level={level} {...start} />}
    />
  );
}

/** /bulkDatabaseElement?database=<id> */
export function BulkDatabaseElementPage() {
  return <BulkElementsPage level="database" />;
}

/** /bulkStoreElement?store=<id> */
export function BulkStoreElementPage() {
  return <BulkElementsPage level="store" />;
}

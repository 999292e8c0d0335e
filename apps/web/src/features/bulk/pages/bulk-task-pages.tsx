import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { useBulkTaskConfigurations } from '../api/get-bulk-task-configurations';
import { BulkTasksScreen } from '../components/bulk-tasks-screen';
import { BulkPage } from './bulk-page';

function BulkTasksPage({ level }: { level: BulkLevel }) {
  return (
    <BulkPage
      kind="tasks"
      level={level}
      useRows={useBulkTaskConfigurations}
      renderScreen={(start) => <BulkTasksScreen level={level} {...start} />}
    />
  );
}

/** /bulkDatabaseTask?database=<id> */
export function BulkDatabaseTaskPage() {
  return <BulkTasksPage level="database" />;
}

/** /bulkStoreTask?store=<id> */
export function BulkStoreTaskPage() {
  return <BulkTasksPage level="store" />;
}

import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import type { BulkKind } from '../api/bulk-query-keys';
import { useBulkElements } from '../api/get-bulk-elements';
import { useBulkOwner } from '../api/get-bulk-owner';
import { useBulkTaskConfigurations } from '../api/get-bulk-task-configurations';
import { BulkElementsScreen } from '../components/bulk-elements-screen';
import { BulkTasksScreen } from '../components/bulk-tasks-screen';

type BulkPageProps = { kind: BulkKind; level: BulkLevel };

/**
 * A bulk screen: `?database=<id>` at database level, `?store=<id>` at store level (the ids
 * travel in the query, as everywhere in the app). The grid starts from the rows read now.
 */
function BulkPage({ kind, level }: BulkPageProps) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const viewer = useCurrentUser();
  // Customers read only (spec 001 §6), whatever the rows say.
  const isViewerReadOnly = viewer.role === 'customer';
  const startedForRef = useRef<string | null>(null);
  const ownerId = searchParams.get(level === 'database' ? 'database' : 'store') ?? '';
  const owner = useBulkOwner(level, ownerId);
  const elements = useBulkElements(level, kind === 'elements' ? ownerId : '');
  const tasks = useBulkTaskConfigurations(level, kind === 'tasks' ? ownerId : '');
  const rows = kind === 'elements' ? elements : tasks;
  const title =
    kind === 'elements'
      ? t('bulk.titleElements', { name: '' })
      : t('bulk.titleTasks', { name: '' });

  // Once the grid has started it stays whatever happens to the queries afterwards (rows turning
  // stale, a reload of conflicted rows failing): unmounting it would drop the user's edits.
  const isStarted = startedForRef.current === ownerId && Boolean(rows.data && owner.data);
  if (!isStarted) {
    if (!ownerId)
      return <PageQueryState title={title} query={null} noneTitle={t('bulk.noneSelected')} />;
    if (owner.isError) return <PageQueryState title={title} query={owner} noneTitle="" />;
    if (rows.isError) return <PageQueryState title={title} query={rows} noneTitle="" />;
    // Rows cached from an earlier visit are read again first; rows prefetched just now are used.
    if (owner.isPending || rows.isPending || (rows.isStale && !rows.isFetchedAfterMount))
      return <PageQueryState title={title} query={{ isPending: true, error: null }} noneTitle="" />;
    startedForRef.current = ownerId;
  }
  if (!owner.data) return null;

  if (kind === 'elements' && elements.data)
    return (
      <BulkElementsScreen
        key={`${level}:${ownerId}`}
        level={level}
        ownerId={ownerId}
        ownerName={owner.data.name}
        data={elements.data}
        isEditable={elements.data.editable && !isViewerReadOnly}
      />
    );
  if (tasks.data)
    return (
      <BulkTasksScreen
        key={`${level}:${ownerId}`}
        level={level}
        ownerId={ownerId}
        ownerName={owner.data.name}
        data={tasks.data}
        isEditable={tasks.data.editable && !isViewerReadOnly}
      />
    );
  return null;
}

/** /bulkDatabaseElement?database=<id> */
export function BulkDatabaseElementPage() {
  return <BulkPage kind="elements" level="database" />;
}

/** /bulkStoreElement?store=<id> */
export function BulkStoreElementPage() {
  return <BulkPage kind="elements" level="store" />;
}

/** /bulkDatabaseTask?database=<id> */
export function BulkDatabaseTaskPage() {
  return <BulkPage kind="tasks" level="database" />;
}

/** /bulkStoreTask?store=<id> */
export function BulkStoreTaskPage() {
  return <BulkPage kind="tasks" level="store" />;
}

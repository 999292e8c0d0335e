import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import type { BulkKind } from '../api/bulk-query-keys';
import { useBulkOwner } from '../api/get-bulk-owner';

/** What the screen is given once its rows and owner are read. */
export type BulkScreenStart<D> = {
  ownerId: string;
  ownerName: string;
  data: D;
  /** The caller may save here (the rows' `editable`, never for a customer). */
  isEditable: boolean;
};

type BulkPageProps<D extends { editable: boolean }> = {
  kind: BulkKind;
  level: BulkLevel;
  /** The query hook of the screen's rows (api/get-bulk-*.ts). */
  useRows: (level: BulkLevel, ownerId: string) => UseQueryResult<D>;
  renderScreen: (start: BulkScreenStart<D>) => ReactNode;
};

/**
 * A bulk screen: `?database=<id>` at database level, `?store=<id>` at store level (the ids
 * travel in the query, as everywhere in the app). The grid starts from the rows read now.
 * The element and task screens are separate chunks (bulk-element-pages.tsx,
 * bulk-task-pages.tsx): the element grid does not load the task editors.
 */
export function BulkPage<D extends { editable: boolean }>({
  kind,
  level,
  useRows,
  renderScreen,
}: BulkPageProps<D>) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const viewer = useCurrentUser();
  // Customers read only (spec 001 §6), whatever the rows say.
  const isViewerReadOnly = viewer.role === 'customer';
  const startedForRef = useRef<string | null>(null);
  const ownerId = searchParams.get(level === 'database' ? 'database' : 'store') ?? '';
  const owner = useBulkOwner(level, ownerId);
  const rows = useRows(level, ownerId);
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
  if (!owner.data || !rows.data) return null;
  return (
    <Fragment key={`${level}:${ownerId}`}>
      {renderScreen({
        ownerId,
        ownerName: owner.data.name,
        data: rows.data,
        isEditable: rows.data.editable && !isViewerReadOnly,
      })}
    </Fragment>
  );
}

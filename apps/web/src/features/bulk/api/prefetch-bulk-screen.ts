import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import type { QueryClient } from '@tanstack/react-query';
import type { BulkKind } from './bulk-query-keys';
import { bulkElementsQueryOptions } from './get-bulk-elements';
import { bulkOwnerQueryOptions } from './get-bulk-owner';
import { bulkTaskConfigurationsQueryOptions } from './get-bulk-task-configurations';

/**
 * Starts reading a bulk screen's rows and owner as soon as its address is known, alongside
 * the screen's chunk (a 2,000-row grid is on screen sooner). Not awaited.
 */
export function prefetchBulkScreen(
  queryClient: QueryClient,
  kind: BulkKind,
  level: BulkLevel,
  ownerId: string,
): void {
  void queryClient.prefetchQuery(bulkOwnerQueryOptions(level, ownerId));
  if (kind === 'elements') void queryClient.prefetchQuery(bulkElementsQueryOptions(level, ownerId));
  else void queryClient.prefetchQuery(bulkTaskConfigurationsQueryOptions(level, ownerId));
}

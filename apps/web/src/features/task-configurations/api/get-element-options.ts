import type { ElementListItem } from '@mise/shared/catalogue/schemas';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  elementOptionsQueryKey,
  ownerPath,
  type TaskConfigurationLevel,
} from './task-configuration-query-keys';

/** An element a configuration can reference: its id at that level, name and delivery flag. */
export type ElementOption = { id: string; name: string; isDeliveryItem: boolean };

/**
 * GET /api/databases/:id/elements or GET /api/stores/:id/elements (every tab): the active
 * elements. At store level an element the store has not overridden is referenced by its
 * database id (the store's view of it), an own or overriding one by its store id.
 */
export async function getElementOptions(
  level: TaskConfigurationLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<ElementOption[]> {
  const { items } = await apiRequest<{ items: ElementListItem[] }>(
    `${ownerPath(level, ownerId)}/elements`,
    { query: { includeInactive: 'false' }, signal },
  );
  return items.flatMap((item) => {
    const id = item.id ?? item.origin_id;
    if (!id || !item.active) return [];
    return [{ id, name: item.name, isDeliveryItem: item.temperature_delivery_item }];
  });
}

export function useElementOptions(level: TaskConfigurationLevel, ownerId: string) {
  return useQuery({
    queryKey: elementOptionsQueryKey(level, ownerId),
    queryFn: ({ signal }) => getElementOptions(level, ownerId, signal),
    enabled: ownerId !== '',
  });
}

import type { TaskElementChoice } from '@mise/shared/tasks/schemas';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  elementOptionsQueryKey,
  ownerPath,
  type TaskConfigurationLevel,
} from './task-configuration-query-keys';

/** An element a configuration can reference: the id to send, name and delivery flag. */
export type ElementOption = { id: string; name: string; isDeliveryItem: boolean };

/** The modules whose configurations reference elements. */
export type ElementModule = 'temperatures' | 'oils';

/**
 * GET /api/databases/:id/taskConfigurations/elements?module= or
 * /api/stores/:id/taskConfigurations/elements?module=: the active elements with the module
 * active, one per element; at store level an overridden element is offered under its
 * database id (the id the server saves), never twice.
 */
export async function getElementOptions(
  level: TaskConfigurationLevel,
  ownerId: string,
  module: ElementModule,
  signal?: AbortSignal,
): Promise<ElementOption[]> {
  const { items } = await apiRequest<{ items: TaskElementChoice[] }>(
    `${ownerPath(level, ownerId)}/taskConfigurations/elements`,
    { query: { module }, signal },
  );
  return items.map((item) => ({
    id: item.id,
    name: item.name,
    isDeliveryItem: item.is_delivery_item,
  }));
}

export function useElementOptions(
  level: TaskConfigurationLevel,
  ownerId: string,
  module: ElementModule | null,
) {
  return useQuery({
    queryKey: elementOptionsQueryKey(level, ownerId, module ?? ''),
    queryFn: ({ signal }) => getElementOptions(level, ownerId, module!, signal),
    enabled: ownerId !== '' && module !== null,
  });
}

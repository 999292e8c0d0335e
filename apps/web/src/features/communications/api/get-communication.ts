import type { communicationResponseSchema } from '@mise/shared/communications/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { communicationsQueryKeys } from './communication-query-keys';

export type CommunicationResponse = z.infer<typeof communicationResponseSchema>;

/** GET /api/communications/:id — the communication with its quiz and target, and can_edit. */
export function getCommunication(
  communicationId: string,
  signal?: AbortSignal,
): Promise<CommunicationResponse> {
  return apiRequest<CommunicationResponse>(
    `/communications/${encodeURIComponent(communicationId)}`,
    { signal },
  );
}

export function communicationQueryOptions(communicationId: string) {
  return queryOptions({
    queryKey: communicationsQueryKeys.detail(communicationId),
    queryFn: ({ signal }) => getCommunication(communicationId, signal),
  });
}

export function useCommunication(communicationId: string | null) {
  return useQuery({
    ...communicationQueryOptions(communicationId ?? ''),
    enabled: Boolean(communicationId),
  });
}

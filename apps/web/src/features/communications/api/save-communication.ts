import type {
  CommunicationBody,
  saveCommunicationBodySchema,
} from '@mise/shared/communications/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import {
  communicationListsQueryKey,
  communicationsQueryKey,
  communicationsQueryKeys,
} from './communication-query-keys';
import type { CommunicationResponse } from './get-communication';

export type SaveCommunicationBody = z.input<typeof saveCommunicationBodySchema>;

export type SaveCommunicationRequest =
  | { kind: 'create'; databaseId: string; body: CommunicationBody }
  | { kind: 'update'; communicationId: string; body: SaveCommunicationBody };

/**
 * POST /api/databases/:databaseId/communications, or PUT /api/communications/:id with the
 * version read (409 'conflict/stale-version' when someone saved in between).
 */
export function saveCommunication(
  request: SaveCommunicationRequest,
): Promise<CommunicationResponse> {
  return apiRequest<CommunicationResponse>(
    request.kind === 'create'
      ? `/databases/${encodeURIComponent(request.databaseId)}/communications`
      : `/communications/${encodeURIComponent(request.communicationId)}`,
    { method: request.kind === 'create' ? 'POST' : 'PUT', body: request.body },
  );
}

/** The saved communication becomes the cached detail; lists, statistics and home refresh. */
export function useSaveCommunication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCommunication,
    onSuccess: (response) => {
      queryClient.setQueryData(communicationsQueryKeys.detail(response.communication.id), response);
      void queryClient.invalidateQueries({ queryKey: communicationListsQueryKey });
      void queryClient.invalidateQueries({
        queryKey: [...communicationsQueryKey, 'stats', response.communication.id],
      });
      void queryClient.invalidateQueries({ queryKey: [...communicationsQueryKey, 'home'] });
    },
  });
}

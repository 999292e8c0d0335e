import type { Inspection } from '@mise/shared/records/links';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { inspectorQueryKeys } from './inspector-query-keys';
import { inspectorRequest } from './inspector-request';

/** GET /api/inspect: the link's store, period and expiry (401 'inspector/link-invalid' once closed). */
export async function getInspection(token: string, signal?: AbortSignal): Promise<Inspection> {
  const { inspection } = await inspectorRequest<{ inspection: Inspection }>(token, '/inspect', {
    signal,
  });
  return inspection;
}

export function inspectionQueryOptions(token: string) {
  return queryOptions({
    queryKey: inspectorQueryKeys.inspection(token),
    queryFn: ({ signal }) => getInspection(token, signal),
  });
}

export function useInspection(token: string) {
  return useQuery({ ...inspectionQueryOptions(token), enabled: token !== '' });
}

import { type InspectorPack, inspectorPackPollMs } from '@mise/shared/records/pack';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { buildApiUrl } from '../../../shared/api/api-client';
import { apiErrorFromBody } from '../../../shared/api/api-error';
import { fileNameFromDisposition, saveBlob } from '../../../shared/ui/download-file';
import { inspectorQueryKeys } from './inspector-query-keys';
import { inspectorHeaders, inspectorRequest } from './inspector-request';

/** GET /api/inspect/pack: the pack of the link's period (built, building or failed), or null. */
export async function getInspectionPack(
  token: string,
  signal?: AbortSignal,
): Promise<InspectorPack | null> {
  const { pack } = await inspectorRequest<{ pack: InspectorPack | null }>(token, '/inspect/pack', {
    signal,
  });
  return pack;
}

const isBuilding = (pack: InspectorPack | null | undefined) =>
  pack?.status === 'queued' || pack?.status === 'running';

export function inspectionPackQueryOptions(token: string) {
  return queryOptions({
    queryKey: inspectorQueryKeys.pack(token),
    queryFn: ({ signal }) => getInspectionPack(token, signal),
  });
}

/** The pack, read again every few seconds while it builds. */
export function useInspectionPack(token: string, isEnabled: boolean) {
  return useQuery({
    ...inspectionPackQueryOptions(token),
    enabled: isEnabled,
    refetchInterval: (query) => (isBuilding(query.state.data) ? inspectorPackPollMs : false),
  });
}

/** POST /api/inspect/pack: asks for the pack of the link's period (a built one is reused). */
export function useRequestInspectionPack(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await inspectorRequest<{ pack: InspectorPack | null }>(token, '/inspect/pack', {
          method: 'POST',
        })
      ).pack,
    onSuccess: (pack) => queryClient.setQueryData(inspectorQueryKeys.pack(token), pack),
  });
}

/** Downloads a built pack's ZIP through the link (the token in the header, never the URL). */
export async function downloadInspectionPack(token: string, pack: InspectorPack): Promise<void> {
  if (!pack.download_url?.startsWith('/api/')) throw new Error('the pack is not built');
  const response = await fetch(buildApiUrl(pack.download_url.slice('/api'.length)), {
    headers: { ...inspectorHeaders(token), accept: 'application/zip, application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw apiErrorFromBody(response.status, body);
  }
  const fileName =
    fileNameFromDisposition(response.headers.get('content-disposition')) ??
    `inspector-pack-${pack.period_start}-${pack.period_end}.zip`;
  saveBlob(await response.blob(), fileName);
}

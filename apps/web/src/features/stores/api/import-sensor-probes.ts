import type { SensorImportResponse } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type { SensorImportResponse };

/** POST /api/koovea/import: the provider's probes (tags) become probes of the store. */
export function importSensorProbes(storeId: string): Promise<SensorImportResponse> {
  return apiRequest('/koovea/import', { method: 'POST', body: { storeId } });
}

export function useImportSensorProbes(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => importSensorProbes(storeId),
    // Every probe list (the probes feature keeps them under ['probes']) may have new rows.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['probes'] }),
  });
}

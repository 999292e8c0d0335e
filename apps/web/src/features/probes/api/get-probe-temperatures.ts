import type { probeTemperaturesResponseSchema } from '@mise/shared/probes/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { probeTemperaturesQueryKey } from './probes-query-keys';

export type ProbeTemperatures = z.infer<typeof probeTemperaturesResponseSchema>;
/** Both ends included, ISO 8601 with an offset. */
export type ChartRange = { start: string; end: string };

/**
 * POST /api/probes/temperatures/:probeUID {start, end}: the readings one by one, or
 * downsampled to buckets (bucketSeconds) with each bucket's min and max.
 */
export async function getProbeTemperatures(
  probeUID: string,
  range: ChartRange,
  signal?: AbortSignal,
): Promise<ProbeTemperatures> {
  return apiRequest<ProbeTemperatures>(`/probes/temperatures/${encodeURIComponent(probeUID)}`, {
    method: 'POST',
    body: range,
    signal,
  });
}

export function probeTemperaturesQueryOptions(probeUID: string, range: ChartRange) {
  return queryOptions({
    queryKey: probeTemperaturesQueryKey(probeUID, range.start, range.end),
    queryFn: ({ signal }) => getProbeTemperatures(probeUID, range, signal),
    placeholderData: keepPreviousData,
  });
}

export function useProbeTemperatures(probeUID: string, range: ChartRange) {
  return useQuery(probeTemperaturesQueryOptions(probeUID, range));
}

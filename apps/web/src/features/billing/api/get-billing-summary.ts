import type { BillingSummary, BillingSummaryBody } from '@mise/shared/billing/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const billingSummaryQueryKey = ['billing', 'summary'] as const;

/** POST /api/billing/summary (admin): a read, sent as POST by the contract. */
export function getBillingSummary(
  body: BillingSummaryBody,
  signal?: AbortSignal,
): Promise<BillingSummary> {
  return apiRequest('/billing/summary', { method: 'POST', body, signal });
}

export function billingSummaryQueryOptions(body: BillingSummaryBody) {
  return queryOptions({
    queryKey: [...billingSummaryQueryKey, body],
    queryFn: ({ signal }) => getBillingSummary(body, signal),
  });
}

export function useBillingSummary(body: BillingSummaryBody | null) {
  return useQuery({
    ...billingSummaryQueryOptions(body ?? { period: { start: '', end: '' } }),
    enabled: body !== null,
  });
}

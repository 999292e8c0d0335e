import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { stockImagesQueryKey } from './element-query-keys';

export type StockImagesAnswer = {
  /** False when no stock image provider is configured: the search is disabled. */
  configured: boolean;
  items: { id: string; thumbnail_url: string; url: string }[];
};

/** GET /api/stockImages?query= */
export function getStockImages(query: string, signal?: AbortSignal): Promise<StockImagesAnswer> {
  return apiRequest<StockImagesAnswer>('/stockImages', { query: { query }, signal });
}

export function stockImagesQueryOptions(query: string) {
  return queryOptions({
    queryKey: stockImagesQueryKey(query),
    queryFn: ({ signal }) => getStockImages(query, signal),
    staleTime: 5 * 60_000,
  });
}

/** Searches once the (already debounced) text is not blank. */
export function useStockImages(query: string, isEnabled: boolean) {
  const trimmed = query.trim();
  return useQuery({
    ...stockImagesQueryOptions(trimmed),
    enabled: isEnabled && trimmed !== '',
  });
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { basketKey, readBasket, writeBasket } from './shop-api';
import { type Basket, emptyBasket } from './shop-basket';

/**
 * The identified employee's basket: read once from the tablet (it survives a reload), each
 * change shown at once and written back to IndexedDB.
 */
export function useShopBasket(employeeId: string | null) {
  const queryClient = useQueryClient();
  const key = basketKey(employeeId ?? '');
  const basket = useQuery({
    queryKey: key,
    queryFn: () => readBasket(employeeId!),
    enabled: employeeId !== null,
    staleTime: Number.POSITIVE_INFINITY,
    networkMode: 'always',
  });
  const change = useCallback(
    (update: (current: Basket) => Basket) => {
      if (!employeeId) return;
      const queryKey = basketKey(employeeId);
      const next = update(queryClient.getQueryData<Basket>(queryKey) ?? emptyBasket);
      queryClient.setQueryData(queryKey, next);
      void writeBasket(employeeId, next);
    },
    [employeeId, queryClient],
  );
  return { basket: basket.data, isLoaded: basket.isSuccess, change };
}

/** Query keys of the home dashboard: everything under ['home']. */
export const homeQueryKeys = {
  all: ['home'] as const,
  store: (storeId: string) => ['home', 'store', storeId] as const,
  bestStores: (databaseId: string | null) => ['home', 'best-stores', databaseId] as const,
};

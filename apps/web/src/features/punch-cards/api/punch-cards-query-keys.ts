/** Query keys of punch cards and the home schedule: everything under ['punch-cards']. */
export const punchCardsQueryKeys = {
  all: ['punch-cards'] as const,
  range: (storeId: string, start: string, end: string) =>
    ['punch-cards', 'range', storeId, start, end] as const,
  schedule: (storeId: string) => ['punch-cards', 'schedule', storeId] as const,
};

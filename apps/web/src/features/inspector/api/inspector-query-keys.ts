/** Query keys of the inspector feature: the owner's links of a store, and what a link opens. */
export const inspectorQueryKeys = {
  links: (storeId: string) => ['inspector-links', storeId] as const,
  /** Keyed by the link's token: it lives in this page's memory only, never in storage. */
  inspection: (token: string) => ['inspection', token] as const,
  history: (token: string, day: string, module: string) =>
    ['inspection', token, 'history', day, module] as const,
  task: (token: string, taskId: string) => ['inspection', token, 'task', taskId] as const,
  pack: (token: string) => ['inspection', token, 'pack'] as const,
};

import type { OutputLevel } from '@mise/shared/operations/schemas';

/** Task-generation search as sent (instants of the chosen days' bounds). */
export type GenerationSearch = { storeId: string; start: string; end: string };

export const technicalQueryKeys = {
  all: ['technical'] as const,
  instances: () => ['technical', 'instances'] as const,
  profiling: (instanceId: string) => ['technical', 'profiling', instanceId] as const,
  output: (instanceId: string, level: OutputLevel | null) =>
    ['technical', 'output', instanceId, level ?? 'all'] as const,
  generationEvents: () => ['technical', 'generation-events'] as const,
  generationSearch: (search: GenerationSearch) =>
    ['technical', 'generation-events', search] as const,
};

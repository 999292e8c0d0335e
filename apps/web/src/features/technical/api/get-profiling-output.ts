import {
  type OutputLevel,
  type OutputLine,
  outputPollMs,
  outputRingSize,
  type ProfilingOutputResponse,
} from '@mise/shared/operations/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { technicalQueryKeys } from './technical-query-keys';

/** Lines kept on screen: the server's ring size, the newest ones. */
export const outputLinesKept = outputRingSize;

/** What the Output tab holds: the lines read so far and where the next read starts. */
export type OutputState = { lines: OutputLine[]; lastSeq: number };

type OutputRequest = { instanceId: string; level: OutputLevel | null; after: number | null };

/** GET /api/profiling/output?instanceId=&after=&level= */
export function getProfilingOutput(
  { instanceId, level, after }: OutputRequest,
  signal?: AbortSignal,
): Promise<ProfilingOutputResponse> {
  return apiRequest<ProfilingOutputResponse>('/profiling/output', {
    query: { instanceId, after, level },
    signal,
  });
}

/**
 * Appends an answer to the lines held: only lines after the last one held (a line is never
 * shown twice), the newest `limit` kept. An instance whose sequence went back (restarted
 * under the same id) starts over.
 */
export function appendOutput(
  previous: OutputState | undefined,
  response: ProfilingOutputResponse,
  limit = outputLinesKept,
): OutputState {
  const isRestarted = previous !== undefined && response.last_seq < previous.lastSeq;
  const held = previous && !isRestarted ? previous.lines : [];
  const lastHeld = held.at(-1)?.seq ?? -1;
  const fresh = response.items.filter((line) => line.seq > lastHeld);
  const lines = fresh.length === 0 ? held : [...held, ...fresh].slice(-limit);
  return { lines, lastSeq: response.last_seq };
}

/**
 * The chosen instance's recent output: each read asks only for the lines after the previous
 * answer's `last_seq` and appends them. One cache entry per instance and level.
 */
export function profilingOutputQueryOptions(instanceId: string, level: OutputLevel | null) {
  const queryKey = technicalQueryKeys.output(instanceId, level);
  return queryOptions({
    queryKey,
    queryFn: async ({ signal, client }): Promise<OutputState> => {
      const previous = client.getQueryData<OutputState>(queryKey);
      const response = await getProfilingOutput(
        { instanceId, level, after: previous?.lastSeq ?? null },
        signal,
      );
      return appendOutput(previous, response);
    },
    staleTime: 0,
    retry: false,
  });
}

/**
 * Polled every second (spec 002 §9) unless paused; a failed read ends the polling silently
 * (§7, §8) until the user resumes.
 */
export function useProfilingOutput(
  instanceId: string,
  level: OutputLevel | null,
  isPaused: boolean,
) {
  return useQuery({
    ...profilingOutputQueryOptions(instanceId, level),
    refetchInterval: (query) => (isPaused || query.state.status === 'error' ? false : outputPollMs),
  });
}

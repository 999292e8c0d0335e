import type { TaskEvent } from '@mise/shared/history/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { buildApiUrl } from '../../../shared/api/api-client';
import { alertsQueryKey } from '../../alerts/panels';
import { homeQueryKeys } from './home-query-keys';

const taskEventKinds: readonly string[] = ['completed', 'corrected', 'postponed'];

/**
 * Reads a "task" event's data; null when it is not a task event of the contract. Read by hand
 * rather than with the zod schema: the dashboard does not need the schemas' weight for three
 * fields.
 */
export function parseTaskEvent(data: unknown): TaskEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as Partial<Record<keyof TaskEvent, unknown>> | null;
    if (
      value &&
      typeof value.store_id === 'string' &&
      typeof value.task_id === 'string' &&
      typeof value.kind === 'string' &&
      taskEventKinds.includes(value.kind)
    ) {
      return {
        store_id: value.store_id,
        task_id: value.task_id,
        kind: value.kind as TaskEvent['kind'],
      };
    }
  } catch {
    // Not JSON: read the store again all the same.
  }
  return null;
}

/** The store an "alert" event is about (`store_id`), or null when the data is unreadable. */
export function alertEventStoreId(data: unknown): string | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as { store_id?: unknown } | null;
    return value && typeof value.store_id === 'string' ? value.store_id : null;
  } catch {
    return null;
  }
}

/**
 * Live updates of a store (GET /api/stores/:storeId/events, server-sent events): a "task"
 * event means a tablet completed, corrected or postponed one of its tasks, so the store's
 * home is read again; an "alert" event (an episode opened, resolved, acknowledged or
 * escalated) reads the alert lists and the store's home again. The stream is closed when the
 * store changes or the screen goes; the browser reconnects by itself after a network cut.
 * Without EventSource (old browsers, tests) nothing happens.
 */
export function useStoreEvents(storeId: string | null) {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!storeId || typeof globalThis.EventSource !== 'function') return;
    const source = new EventSource(buildApiUrl(`/stores/${encodeURIComponent(storeId)}/events`));
    const handleTask = (event: MessageEvent) => {
      const taskEvent = parseTaskEvent(event.data);
      const changedStoreId = taskEvent?.store_id ?? storeId;
      void queryClient.invalidateQueries({ queryKey: homeQueryKeys.store(changedStoreId) });
    };
    const handleAlert = (event: MessageEvent) => {
      const changedStoreId = alertEventStoreId(event.data) ?? storeId;
      void queryClient.invalidateQueries({ queryKey: alertsQueryKey });
      void queryClient.invalidateQueries({ queryKey: homeQueryKeys.store(changedStoreId) });
    };
    source.addEventListener('task', handleTask as EventListener);
    source.addEventListener('alert', handleAlert as EventListener);
    return () => {
      source.removeEventListener('task', handleTask as EventListener);
      source.removeEventListener('alert', handleAlert as EventListener);
      source.close();
    };
  }, [storeId, queryClient]);
}

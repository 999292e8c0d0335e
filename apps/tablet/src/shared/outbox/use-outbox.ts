import { useSyncExternalStore } from 'react';
import { outboxSnapshot, subscribeOutbox } from './outbox';

export function useOutbox() {
  return useSyncExternalStore(subscribeOutbox, outboxSnapshot, outboxSnapshot);
}

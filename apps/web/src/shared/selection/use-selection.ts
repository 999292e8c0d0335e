import { useSyncExternalStore } from 'react';

/**
 * The store or database chosen in the selection popup (spec 000 §2). One of
 * the two at most: choosing one clears the other. Kept in localStorage so it
 * survives page changes and reloads.
 */
export type Selection =
  | { kind: 'store'; id: string; name: string }
  | { kind: 'database'; id: string; name: string }
  | null;

export const selectionStorageKey = 'mise.selection';

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: Selection = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(selectionStorageKey);
  } catch {
    return null;
  }
}

function parse(raw: string | null): Selection {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Selection;
    if (
      value &&
      (value.kind === 'store' || value.kind === 'database') &&
      typeof value.id === 'string' &&
      typeof value.name === 'string'
    ) {
      return value;
    }
  } catch {
    // A broken value means no selection.
  }
  return null;
}

export function getSelection(): Selection {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parse(raw);
  }
  return cached;
}

export function setSelection(selection: Selection): void {
  try {
    if (selection) window.localStorage.setItem(selectionStorageKey, JSON.stringify(selection));
    else window.localStorage.removeItem(selectionStorageKey);
  } catch {
    // Storage unavailable: nothing to keep.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const handleStorage = (event: StorageEvent) => {
    if (event.key === selectionStorageKey) listener();
  };
  window.addEventListener('storage', handleStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', handleStorage);
  };
}

export function useSelection() {
  const selection = useSyncExternalStore(subscribe, getSelection, getSelection);
  return {
    selection,
    storeId: selection?.kind === 'store' ? selection.id : null,
    databaseId: selection?.kind === 'database' ? selection.id : null,
    selectStore: (store: { id: string; name: string }) =>
      setSelection({ kind: 'store', id: store.id, name: store.name }),
    selectDatabase: (database: { id: string; name: string }) =>
      setSelection({ kind: 'database', id: database.id, name: database.name }),
    clearSelection: () => setSelection(null),
  };
}

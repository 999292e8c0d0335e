/*
 * What a list screen remembers: the record it was last opened on (a database, a store; across
 * visits and reloads, as the selection popup keeps its choice) and its search and inactive
 * toggle (for the session).
 */

export type ListFilter = { search: string; isInactiveIncluded: boolean };

export type ListMemory = {
  readChoice(): string | null;
  rememberChoice(id: string): void;
  readFilter(): ListFilter;
  rememberFilter(filter: ListFilter): void;
};

/** The memory of one list, under `mise.<name>.*` keys. */
export function listMemory(name: string, choiceKey = 'database'): ListMemory {
  const choiceStorageKey = `mise.${name}.${choiceKey}`;
  const filterStorageKey = `mise.${name}.filter`;
  return {
    readChoice() {
      try {
        return window.localStorage.getItem(choiceStorageKey);
      } catch {
        return null;
      }
    },
    rememberChoice(id) {
      try {
        window.localStorage.setItem(choiceStorageKey, id);
      } catch {
        // Storage refused (private mode): the list starts on its default next time.
      }
    },
    readFilter() {
      try {
        const parsed = JSON.parse(
          window.sessionStorage.getItem(filterStorageKey) ?? '{}',
        ) as Partial<ListFilter>;
        return {
          search: typeof parsed.search === 'string' ? parsed.search : '',
          isInactiveIncluded: parsed.isInactiveIncluded === true,
        };
      } catch {
        return { search: '', isInactiveIncluded: false };
      }
    },
    rememberFilter(filter) {
      try {
        window.sessionStorage.setItem(filterStorageKey, JSON.stringify(filter));
      } catch {
        // Storage refused: the list starts afresh next time.
      }
    },
  };
}

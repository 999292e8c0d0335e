/*
 * What the auditing list remembers: the database last chosen (across visits and reloads, as
 * the selection popup keeps its choice), the search and inactive toggle (for the session).
 */
const storageKey = 'mise.auditing.database';

export function readAuditDatabase(): string | null {
  try {
    return window.localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

export function rememberAuditDatabase(databaseId: string): void {
  try {
    window.localStorage.setItem(storageKey, databaseId);
  } catch {
    // Storage refused (private mode): the list starts on the first database next time.
  }
}

/** The list's search and inactive toggle, kept for the browser session like other lists'. */
type ListFilter = { search: string; isInactiveIncluded: boolean };
const filterKey = 'mise.auditing.filter';

export function readListFilter(): ListFilter {
  try {
    const parsed = JSON.parse(
      window.sessionStorage.getItem(filterKey) ?? '{}',
    ) as Partial<ListFilter>;
    return {
      search: typeof parsed.search === 'string' ? parsed.search : '',
      isInactiveIncluded: parsed.isInactiveIncluded === true,
    };
  } catch {
    return { search: '', isInactiveIncluded: false };
  }
}

export function rememberListFilter(filter: ListFilter): void {
  try {
    window.sessionStorage.setItem(filterKey, JSON.stringify(filter));
  } catch {
    // Storage refused: the list starts afresh next time.
  }
}

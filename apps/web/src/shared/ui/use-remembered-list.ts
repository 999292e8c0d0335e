import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/*
 * What a catalogue list (elements, task configurations) remembers per database or store, for
 * the session: its search, its inactive toggle and where it was scrolled to.
 */

type RememberedList = { search: string; isInactiveIncluded: boolean; scrollY: number };

const searchDebounceMs = 300;

function readRememberedList(key: string): RememberedList {
  const empty: RememberedList = { search: '', isInactiveIncluded: false, scrollY: 0 };
  try {
    const raw = window.sessionStorage.getItem(key);
    if (!raw) return empty;
    const parsed = JSON.parse(raw) as Partial<RememberedList>;
    return {
      search: typeof parsed.search === 'string' ? parsed.search : '',
      isInactiveIncluded: parsed.isInactiveIncluded === true,
      scrollY: typeof parsed.scrollY === 'number' && parsed.scrollY > 0 ? parsed.scrollY : 0,
    };
  } catch {
    return empty;
  }
}

function writeRememberedList(key: string, patch: Partial<RememberedList>): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify({ ...readRememberedList(key), ...patch }));
  } catch {
    // Storage full or refused (private mode): the list simply starts afresh next time.
  }
}

/**
 * The list's search and inactive toggle, started from what it remembers under `storageKey`.
 * `querySearch` is the search to ask for: debounced while typing, the remembered one at once.
 */
export function useRememberedFilter(storageKey: string) {
  const [initial] = useState(() => readRememberedList(storageKey));
  const [search, setSearch] = useState(initial.search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(initial.isInactiveIncluded);
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const querySearch = search === initial.search ? search : debouncedSearch;

  useEffect(() => {
    writeRememberedList(storageKey, { search, isInactiveIncluded });
  }, [storageKey, search, isInactiveIncluded]);

  return { search, setSearch, isInactiveIncluded, setIsInactiveIncluded, querySearch };
}

/** Scrolls back to where the user left once the rows are there, then follows the scrolling. */
export function useRememberedScroll(storageKey: string, isLoaded: boolean): void {
  const [initialScrollY] = useState(() => readRememberedList(storageKey).scrollY);
  const isRestoredRef = useRef(false);

  useEffect(() => {
    if (!isLoaded || isRestoredRef.current) return;
    isRestoredRef.current = true;
    if (initialScrollY > 0) window.scrollTo({ top: initialScrollY });
  }, [isLoaded, initialScrollY]);

  useEffect(() => {
    let frame = 0;
    function handleScroll() {
      if (!isRestoredRef.current || frame) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        writeRememberedList(storageKey, { scrollY: window.scrollY });
      });
    }
    window.addEventListener('scroll', handleScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', handleScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [storageKey]);
}

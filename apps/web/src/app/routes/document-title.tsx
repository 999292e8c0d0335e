import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type UIMatch, useMatches } from 'react-router';

/** Route handle: the key of the screen's name in the locale files (`areas.stores`). */
export type RouteHandle = { titleKey?: string };

/** "<page> · Mise", or "Mise" alone without a page name. */
export function documentTitle(appName: string, pageName?: string): string {
  return pageName ? `${pageName} · ${appName}` : appName;
}

/**
 * At the root of the router: the tab's title is the deepest matched route's name (from its
 * handle) and follows the language.
 */
export function RouteDocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const titleKey = matches.findLast((match) => match.handle?.titleKey)?.handle?.titleKey;
  const title = documentTitle(t('app.name'), titleKey ? t(titleKey) : undefined);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

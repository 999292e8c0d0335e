import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

type PageQueryStateProps = {
  /** The page's title while its record is not there. */
  title: string;
  /** The record's query; null when the address names no record. */
  query: { isPending: boolean; error: unknown } | null;
  /** Shown when the address names no record. */
  noneTitle: string;
};

/**
 * What a record's page shows before the record (an editor's, a statistics page's): nothing
 * named in the address, a loader, or the translated load error.
 */
export function PageQueryState({ title, query, noneTitle }: PageQueryStateProps) {
  const { t } = useTranslation();
  if (query?.isPending) {
    return (
      <Center py="xl">
        {/* A role of its own: a name on the bare span is prohibited (axe aria-prohibited-attr). */}
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  return (
    <>
      <PageHeader title={title} />
      {query ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, query.error)} />
      ) : (
        <EmptyState title={noneTitle} />
      )}
    </>
  );
}

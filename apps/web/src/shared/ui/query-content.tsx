import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';
import { EmptyState } from './empty-state';

type QueryContentProps<TData> = {
  query: { isPending: boolean; isError: boolean; error: unknown; data: TData | undefined };
  isEmpty: (data: TData) => boolean;
  emptyTitle: string;
  children: (data: TData) => ReactNode;
};

/** A query's screen states once: loader, translated load error, empty state, or the content. */
export function QueryContent<TData>({
  query,
  isEmpty,
  emptyTitle,
  children,
}: QueryContentProps<TData>) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (query.isError || query.data === undefined) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, query.error)} />;
  }
  if (isEmpty(query.data)) return <EmptyState title={emptyTitle} />;
  return <>{children(query.data)}</>;
}

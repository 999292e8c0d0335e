import { Button, Center, Paper, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type DocumentItem,
  type DocumentOwner,
  documentUploadOwner,
} from '@mise/shared/documents/schemas';
import { IconFolderPlus, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useCreateFolder } from '../api/create-folder';
import { useDeleteDocument } from '../api/delete-document';
import { useDocumentRoots } from '../api/get-document-roots';
import { useDocuments } from '../api/get-documents';
import { useUpdateDocument } from '../api/update-document';
import { type Crumb, DocumentBreadcrumb } from './document-breadcrumb';
import type { DocumentLocation } from './document-location';
import { DocumentRow } from './document-row';
import { NameDialog } from './name-dialog';
import { PreviewDialog } from './preview-dialog';
import { UploadArea } from './upload-area';
import type { UploadQueue } from './use-upload-queue';

/** Typing pauses this long before the search is asked. */
const searchDebounceMs = 300;

type FolderViewProps = {
  owner: DocumentOwner;
  folderId: string | null;
  goTo: (location: DocumentLocation) => void;
  queue: UploadQueue;
};

type NameDialogState = { kind: 'new' } | { kind: 'rename'; item: DocumentItem } | null;
type PreviewState = { item: DocumentItem; kind: 'image' | 'video' } | null;

/**
 * One folder of an owner (its root when `folderId` is null): back and the breadcrumb, search
 * in it and below, new folder, the upload area, then folders and files by pages of 100.
 */
export function FolderView({ owner, folderId, goTo, queue }: FolderViewProps) {
  const { t } = useTranslation();
  const roots = useDocumentRoots();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), searchDebounceMs);
  const documents = useDocuments({ owner, parentId: folderId, search: debouncedSearch });
  const { mutateAsync: createFolder } = useCreateFolder();
  const { mutate: updateItem, mutateAsync: updateItemAsync } = useUpdateDocument();
  const { mutate: deleteItem } = useDeleteDocument();
  const notifyApiError = useApiErrorNotification();
  const [nameDialog, setNameDialog] = useState<NameDialogState>(null);
  const [preview, setPreview] = useState<PreviewState>(null);

  const firstPage = documents.data?.pages[0];
  const items = useMemo(
    () => documents.data?.pages.flatMap((page) => page.items) ?? [],
    [documents.data],
  );
  const isWritable = firstPage?.writable ?? false;
  const ownerName =
    roots.data?.find((root) => root.owner.kind === owner.kind && root.owner.id === owner.id)
      ?.name ?? t(`documents.kinds.${owner.kind}`);

  const crumbs: Crumb[] = [
    { key: 'root', label: t('areas.documents'), onOpen: () => goTo(null) },
    { key: 'owner', label: ownerName, onOpen: () => goTo({ owner, folderId: null }) },
  ];
  if (folderId !== null && firstPage) {
    const trail = [...firstPage.breadcrumb];
    const folder = firstPage.folder;
    if (folder && trail.at(-1)?.id !== folder.id) trail.push({ id: folder.id, name: folder.name });
    for (const step of trail) {
      crumbs.push({
        key: step.id,
        label: step.name,
        onOpen: () => goTo({ owner, folderId: step.id }),
      });
    }
  }

  const handleBack = () => {
    if (folderId === null) goTo(null);
    else goTo({ owner, folderId: firstPage?.folder?.parent_id ?? null });
  };

  const handleOpenFolder = useCallback(
    (item: DocumentItem) => goTo({ owner, folderId: item.id }),
    [goTo, owner],
  );
  const handlePreview = useCallback(
    (item: DocumentItem, kind: 'image' | 'video') => setPreview({ item, kind }),
    [],
  );
  const handleRename = useCallback(
    (item: DocumentItem) => setNameDialog({ kind: 'rename', item }),
    [],
  );
  const handleToggleLock = useCallback(
    (item: DocumentItem) =>
      updateItem(
        { id: item.id, body: { version: item.version, locked: !item.locked } },
        { onError: notifyApiError },
      ),
    [updateItem, notifyApiError],
  );
  const handleDelete = useCallback(
    (item: DocumentItem) =>
      openConfirmDialog({
        title: t('documents.deleteTitle', { name: item.name }),
        message: t('documents.deleteConfirm'),
        confirmLabel: t('documents.delete'),
        isDanger: true,
        onConfirm: () =>
          deleteItem(item.id, {
            // Spec 002 §8: a failed deletion is only logged (the list reloads either way).
            onError: (error) => console.warn(`Deleting document ${item.id} failed`, error),
          }),
      }),
    [deleteItem, t],
  );

  return (
    <>
      <PageHeader
        title={t('areas.documents')}
        actions={
          <Button
            variant="default"
            leftSection={<IconFolderPlus size={16} aria-hidden />}
            disabled={!isWritable}
            onClick={() => setNameDialog({ kind: 'new' })}
            data-testid="documents-new-folder"
          >
            {t('documents.newFolder')}
          </Button>
        }
      />
      <DocumentBreadcrumb crumbs={crumbs} onBack={handleBack} />
      <TextInput
        mb="sm"
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('documents.searchPlaceholder')}
        aria-label={t('documents.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        data-testid="documents-search"
      />
      {firstPage ? (
        <UploadArea
          queue={queue}
          isWritable={isWritable}
          onFiles={(files) => queue.enqueue(files, documentUploadOwner(owner, folderId))}
        />
      ) : null}
      <QueryContent
        query={documents}
        isEmpty={() => items.length === 0}
        emptyTitle={t('documents.empty')}
      >
        {() => (
          <>
            <Paper withBorder radius="md">
              <ul className="documents-list" data-testid="document-list">
                {items.map((item) => (
                  <DocumentRow
                    key={item.id}
                    item={item}
                    isShowingPath={debouncedSearch !== ''}
                    onOpenFolder={handleOpenFolder}
                    onPreview={handlePreview}
                    onRename={handleRename}
                    onToggleLock={handleToggleLock}
                    onDelete={handleDelete}
                  />
                ))}
              </ul>
            </Paper>
            {documents.hasNextPage ? (
              <Center mt="md">
                <Button
                  variant="default"
                  loading={documents.isFetchingNextPage}
                  onClick={() => void documents.fetchNextPage()}
                  data-testid="documents-load-more"
                >
                  {t('documents.loadMore')}
                </Button>
              </Center>
            ) : null}
          </>
        )}
      </QueryContent>
      {nameDialog?.kind === 'new' ? (
        <NameDialog
          title={t('documents.newFolder')}
          primaryLabel={t('common.create')}
          initialName=""
          onSubmit={(name) => createFolder({ owner, parent_id: folderId, name })}
          onClose={() => setNameDialog(null)}
          testId="documents-folder-dialog"
        />
      ) : null}
      {nameDialog?.kind === 'rename' ? (
        <NameDialog
          title={t('documents.renameTitle', { name: nameDialog.item.name })}
          primaryLabel={t('documents.rename')}
          initialName={nameDialog.item.name}
          onSubmit={(name) =>
            updateItemAsync({
              id: nameDialog.item.id,
              body: { version: nameDialog.item.version, name },
            })
          }
          onClose={() => setNameDialog(null)}
          testId="documents-rename-dialog"
        />
      ) : null}
      {preview ? (
        <PreviewDialog item={preview.item} kind={preview.kind} onClose={() => setPreview(null)} />
      ) : null}
    </>
  );
}

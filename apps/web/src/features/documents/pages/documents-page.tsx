import type { DocumentOwner } from '@mise/shared/documents/schemas';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useDocumentRoots } from '../api/get-document-roots';
import {
  type DocumentLocation,
  documentLocationSearch,
  readDocumentLocation,
} from '../components/document-location';
import { FolderView } from '../components/folder-view';
import { RootsList } from '../components/roots-list';
import { useUploadQueue } from '../components/use-upload-queue';
import '../components/documents.css';

/**
 * The document explorer (spec 002 §2 Documents; issue 17): the root lists the caller's
 * databases, distributors and stores; inside one, its folders and files. Where the user stands
 * is in the address; the upload queue lives here, so it goes on while the user browses.
 */
export function DocumentsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = readDocumentLocation(params);
  const queue = useUploadQueue();
  const goTo = useCallback(
    (next: DocumentLocation) => navigate({ search: documentLocationSearch(next) }),
    [navigate],
  );

  if (!location) return <DocumentRoots onOpen={(owner) => goTo({ owner, folderId: null })} />;
  return (
    <FolderView
      // A new folder starts with an empty search and its own dialogs.
      key={documentLocationSearch(location)}
      owner={location.owner}
      folderId={location.folderId}
      goTo={goTo}
      queue={queue}
    />
  );
}

function DocumentRoots({ onOpen }: { onOpen: (owner: DocumentOwner) => void }) {
  const { t } = useTranslation();
  const roots = useDocumentRoots();
  return (
    <>
      <PageHeader title={t('areas.documents')} />
      <QueryContent
        query={roots}
        isEmpty={(items) => items.length === 0}
        emptyTitle={t('documents.empty')}
      >
        {(items) => <RootsList roots={items} onOpen={onOpen} />}
      </QueryContent>
    </>
  );
}

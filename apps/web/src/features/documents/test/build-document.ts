import type { DocumentItem, DocumentOwner, DocumentRoot } from '@mise/shared/documents/schemas';
import { buildId } from '../../../test/factories';
import type { DocumentsPage } from '../api/get-documents';

export function buildRoot(
  kind: DocumentOwner['kind'],
  name: string,
  overrides: Partial<DocumentRoot> = {},
): DocumentRoot {
  return { owner: { kind, id: buildId() }, name, writable: true, ...overrides };
}

export function buildDocument(
  owner: DocumentOwner,
  overrides: Partial<DocumentItem> & { name: string },
): DocumentItem {
  const id = overrides.id ?? buildId();
  const isFolder = overrides.type === 'folder';
  return {
    id,
    owner,
    parent_id: null,
    type: 'file',
    path: [],
    locked: false,
    forceReadonly: false,
    isVideo: false,
    videoId: null,
    length: isFolder ? null : 2048,
    content_type: isFolder ? null : 'application/octet-stream',
    url: isFolder ? null : `/api/documents/${id}/file`,
    uploaded_by: isFolder ? null : 'Camille Martin',
    updated_at: '2026-11-20T09:30:00.000Z',
    version: 1,
    ...overrides,
  };
}

export function buildPage(
  items: DocumentItem[],
  overrides: Partial<DocumentsPage> = {},
): DocumentsPage {
  return { items, next_cursor: null, folder: null, breadcrumb: [], writable: true, ...overrides };
}

import type { DocumentOwner } from '@mise/shared/documents/schemas';

/** What one folder listing asks: the owner, the folder (null: the owner's root), the search. */
export type FolderRequest = {
  owner: DocumentOwner;
  parentId: string | null;
  search: string;
};

/** Query keys of the documents feature: everything lives under `documentsQueryKey`. */
export const documentsQueryKey = ['documents'] as const;

export const documentRootsQueryKey = [...documentsQueryKey, 'roots'] as const;

export const documentFoldersQueryKey = [...documentsQueryKey, 'folder'] as const;

export const documentFolderQueryKey = ({ owner, parentId, search }: FolderRequest) =>
  [...documentFoldersQueryKey, owner.kind, owner.id, parentId, search] as const;

import {
  type DocumentOwner,
  type DocumentOwnerKind,
  documentOwnerKinds,
} from '@mise/shared/documents/schemas';

/**
 * Where the explorer stands, kept in the address (flat routes, spec 002 §2): `/documents` is the
 * root, `?owner_kind=store&owner_id=…` an owner's root, `&folder=…` a folder inside it. Back,
 * reload and shared links land in the same folder.
 */
export type DocumentLocation = { owner: DocumentOwner; folderId: string | null } | null;

function isOwnerKind(value: string | null): value is DocumentOwnerKind {
  return (documentOwnerKinds as readonly (string | null)[]).includes(value);
}

export function readDocumentLocation(params: URLSearchParams): DocumentLocation {
  const kind = params.get('owner_kind');
  const id = params.get('owner_id');
  if (!isOwnerKind(kind) || !id) return null;
  return { owner: { kind, id }, folderId: params.get('folder') || null };
}

export function documentLocationSearch(location: DocumentLocation): string {
  if (!location) return '';
  const params = new URLSearchParams({
    owner_kind: location.owner.kind,
    owner_id: location.owner.id,
  });
  if (location.folderId) params.set('folder', location.folderId);
  return `?${params.toString()}`;
}

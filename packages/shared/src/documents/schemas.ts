import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/*
 * The document explorer (spec 002 §2 Documents, §3 Document item, §5, §6; issue 17). The root
 * lists the caller's databases, distributors and stores as read-only folders; inside one, a tree
 * of folders and files kept in PostgreSQL beside the stored objects.
 */

const instant = z.iso.datetime({ offset: true });

export const documentOwnerKinds = ['database', 'distributor', 'store'] as const;
export type DocumentOwnerKind = (typeof documentOwnerKinds)[number];

/** Spec 002 §5, §9: the largest file (500 MB). */
export const maxDocumentBytes = 500 * 1024 * 1024;
export const documentNameMax = 200;
/** A folder page (the explorer pages by name). */
export const documentPageSize = 100;

/** Image previews (spec 002 §2: png, jpg, jpeg, gif open in a modal). */
export const previewExtensions = ['png', 'jpg', 'jpeg', 'gif'] as const;

export const documentOwnerSchema = z.strictObject({
  kind: z.enum(documentOwnerKinds),
  id: idSchema,
});
export type DocumentOwner = z.infer<typeof documentOwnerSchema>;

/** A root folder: one database, distributor or store the caller sees (read-only). */
export const documentRootSchema = z.strictObject({
  owner: documentOwnerSchema,
  name: z.string(),
  /** Whether the caller may create folders and upload inside (spec 002 §5, §6). */
  writable: z.boolean(),
});
export type DocumentRoot = z.infer<typeof documentRootSchema>;

export const documentRootsResponseSchema = z.strictObject({
  items: z.array(documentRootSchema),
});

/** Spec 002 §3 Document item. */
export const documentItemSchema = z.strictObject({
  id: idSchema,
  owner: documentOwnerSchema,
  /** The folder holding it; null at the owner's root. */
  parent_id: idSchema.nullable(),
  name: z.string(),
  type: z.enum(['file', 'folder', 'unknown']),
  /** Folder names from the owner's root down to the item's folder. */
  path: z.array(z.string()),
  locked: z.boolean(),
  /** The caller may not change it (a role without write rights here). */
  forceReadonly: z.boolean(),
  isVideo: z.boolean(),
  /** A video's id at the video host (spec 002 §3 placeholder metadata); null otherwise. */
  videoId: z.string().nullable(),
  /** Bytes (files); null for folders. */
  length: z.number().int().nullable(),
  content_type: z.string().nullable(),
  /**
   * GET address of the file (with Range support); a video's is its host's link (spec 002 §3
   * placeholder metadata url). Null for folders.
   */
  url: z.string().nullable(),
  uploaded_by: z.string().nullable(),
  updated_at: instant,
  version: z.number().int(),
});
export type DocumentItem = z.infer<typeof documentItemSchema>;

export const listDocumentsQuerySchema = z.strictObject({
  owner_kind: z.enum(documentOwnerKinds),
  owner_id: idSchema,
  /** The folder to list; absent = the owner's root. */
  parent_id: idSchema.optional(),
  /** Name search in this folder and below. */
  search: z.string().max(200).optional(),
  /** The last item's sort key of the previous page. */
  cursor: z.string().max(600).optional(),
});

export const documentsPageSchema = z.strictObject({
  items: z.array(documentItemSchema),
  next_cursor: z.string().nullable(),
  /** The folder listed (null at the owner's root) and its ancestors, for the breadcrumb. */
  folder: documentItemSchema.nullable(),
  breadcrumb: z.array(z.strictObject({ id: idSchema, name: z.string() })),
  /** Whether the caller may create folders and upload here. */
  writable: z.boolean(),
});

export const createFolderBodySchema = z.strictObject({
  owner: documentOwnerSchema,
  parent_id: idSchema.nullable(),
  name: z.string().min(1).max(documentNameMax),
});

export const updateDocumentBodySchema = z.strictObject({
  version: z.number().int(),
  name: z.string().min(1).max(documentNameMax).optional(),
  locked: z.boolean().optional(),
  /** Move into another folder of the same owner (null: its root). */
  parent_id: idSchema.nullable().optional(),
});

export const documentResponseSchema = z.strictObject({ item: documentItemSchema });

/**
 * POST /api/documents/videos (spec 002 §3, §7): a video sent to an outside video host. The
 * same checks as an upload ('documents.file-too-big' over 500 MB, 'documents.file-exists'),
 * the bytes then go from the browser to the host, never through us.
 */
export const createVideoBodySchema = z.strictObject({
  owner: documentOwnerSchema,
  parent_id: idSchema.nullable(),
  name: z.string().min(1).max(documentNameMax),
  /** Bytes of the file (over 500 MB: 'documents.file-too-big'). */
  size: z.number().int().min(1),
  /** The file's type: a video/* one ('file/unsupported-type' otherwise). */
  content_type: z.string().max(100),
});

/** What a tus client needs to send a video's bytes to the host (the spec's retry delays, ms). */
export const videoUploadTicketSchema = z.strictObject({
  endpoint: z.string(),
  metadata: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
  retryDelays: z.array(z.number().int().min(0)),
});
export type VideoUploadTicket = z.infer<typeof videoUploadTicketSchema>;

/**
 * `local`: the video host keeps videos in our storage, so the file goes through the resumable
 * upload like any other (nothing was recorded). `http`: the video's placeholder document
 * (isVideo, videoId, url) and the ticket to send its bytes to the host.
 */
export const createVideoResponseSchema = z.discriminatedUnion('host', [
  z.strictObject({ host: z.literal('local') }),
  z.strictObject({
    host: z.literal('http'),
    item: documentItemSchema,
    ticket: videoUploadTicketSchema,
  }),
]);
export type CreateVideoResponse = z.infer<typeof createVideoResponseSchema>;

/**
 * The tus upload's `owner` metadata for purpose 'document': `<kind>:<owner id>:<folder id or
 * 'root'>` (the server checks it; the file's name is the upload's `filename`).
 */
export function documentUploadOwner(owner: DocumentOwner, parentId: string | null): string {
  return `${owner.kind}:${owner.id}:${parentId ?? 'root'}`;
}

export function parseDocumentUploadOwner(
  value: string,
): { owner: DocumentOwner; parentId: string | null } | null {
  const [kind, id, parent] = value.split(':');
  const owner = documentOwnerSchema.safeParse({ kind, id });
  if (!owner.success || parent === undefined) return null;
  if (parent === 'root') return { owner: owner.data, parentId: null };
  return idSchema.safeParse(parent).success ? { owner: owner.data, parentId: parent } : null;
}

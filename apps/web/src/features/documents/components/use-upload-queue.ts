import { maxDocumentBytes, parseDocumentUploadOwner } from '@mise/shared/documents/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { isUploadCancelled } from '../../../shared/upload/upload-errors';
import { useResumableUpload } from '../../../shared/upload/use-resumable-upload';
import { createVideo } from '../api/create-video';
import { deleteDocument } from '../api/delete-document';
import { documentFoldersQueryKey } from '../api/documents-query-keys';
import { useVideoHostUpload } from './use-video-host-upload';

export type QueuedUploadStatus = 'waiting' | 'uploading' | 'done' | 'failed' | 'cancelled';

export type QueuedUpload = {
  key: number;
  file: File;
  /** The tus `owner` metadata: documentUploadOwner(owner, folder) when it was queued. */
  owner: string;
  status: QueuedUploadStatus;
  /** The server's error code when it failed. */
  errorCode: string | null;
};

/** A refusal the user reads in an information dialog (spec 002 §8). */
export type UploadRefusal = {
  key: number;
  fileName: string;
  code: 'documents.file-too-big' | 'documents.file-exists';
};

const refusalCodes = new Set<string>(['documents.file-too-big', 'documents.file-exists']);

/** The error code of a rejected start() or of a finished upload's `{ error: { code } }`. */
export function uploadErrorCode(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  if ('code' in value && typeof value.code === 'string') return value.code;
  if ('error' in value) return uploadErrorCode(value.error);
  return null;
}

let nextKey = 0;

/** A file the browser calls a video (video/mp4, video/quicktime…): the video host's if outside. */
export function isVideoFile(file: File): boolean {
  return file.type.toLowerCase().startsWith('video/');
}

/**
 * The files the user dropped, uploaded one after the other through the resumable upload (each
 * keeps the folder it was dropped in, wherever the user browses meanwhile). Files over 500 MB
 * never start; a file too big or a name taken becomes a refusal for the information dialog.
 * A video first asks the server (POST /api/documents/videos): with an outside video host it
 * gets its placeholder document and a ticket, and its bytes go to the host (spec 002 §7); the
 * placeholder is deleted again when that upload is cancelled or refused.
 */
export function useUploadQueue() {
  const queryClient = useQueryClient();
  const resumable = useResumableUpload();
  const uploadRef = useRef(resumable);
  uploadRef.current = resumable;
  const videoHost = useVideoHostUpload();
  const videoHostRef = useRef(videoHost);
  videoHostRef.current = videoHost;
  /** Which upload the progress shows: ours, or the video host's. */
  const [isSendingToVideoHost, setIsSendingToVideoHost] = useState(false);
  const [entries, setEntries] = useState<QueuedUpload[]>([]);
  const [refusals, setRefusals] = useState<UploadRefusal[]>([]);
  const pending = useRef<QueuedUpload[]>([]);
  const isDraining = useRef(false);

  const update = useCallback((key: number, change: Partial<QueuedUpload>) => {
    setEntries((current) =>
      current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)),
    );
  }, []);

  const refuse = useCallback((key: number, fileName: string, code: string) => {
    if (!refusalCodes.has(code)) return;
    setRefusals((current) => [...current, { key, fileName, code: code as UploadRefusal['code'] }]);
  }, []);

  const drain = useCallback(async () => {
    if (isDraining.current) return;
    isDraining.current = true;
    try {
      for (let entry = pending.current.shift(); entry; entry = pending.current.shift()) {
        update(entry.key, { status: 'uploading' });
        try {
          const isAtVideoHost = await sendToVideoHost(entry, videoHostRef, setIsSendingToVideoHost);
          const outcome = isAtVideoHost
            ? null
            : await uploadRef.current.start(entry.file, {
                purpose: 'document',
                owner: entry.owner,
              });
          const code = uploadErrorCode(outcome);
          if (code) {
            update(entry.key, { status: 'failed', errorCode: code });
            refuse(entry.key, entry.file.name, code);
          } else {
            update(entry.key, { status: 'done' });
          }
        } catch (error) {
          if (isUploadCancelled(error)) {
            update(entry.key, { status: 'cancelled' });
          } else {
            const code = uploadErrorCode(error) ?? 'unknown';
            update(entry.key, { status: 'failed', errorCode: code });
            refuse(entry.key, entry.file.name, code);
          }
        }
        void queryClient.invalidateQueries({ queryKey: documentFoldersQueryKey });
      }
    } finally {
      isDraining.current = false;
    }
  }, [queryClient, refuse, update]);

  const enqueue = useCallback(
    (files: readonly File[], owner: string) => {
      const accepted: QueuedUpload[] = [];
      for (const file of files) {
        nextKey += 1;
        if (file.size > maxDocumentBytes) {
          refuse(nextKey, file.name, 'documents.file-too-big');
          continue;
        }
        accepted.push({ key: nextKey, file, owner, status: 'waiting', errorCode: null });
      }
      if (accepted.length === 0) return;
      pending.current.push(...accepted);
      setEntries((current) => [...current, ...accepted]);
      void drain();
    },
    [drain, refuse],
  );

  /** A waiting file leaves the queue before it starts. */
  const remove = useCallback((key: number) => {
    pending.current = pending.current.filter((entry) => entry.key !== key);
    setEntries((current) => current.filter((entry) => entry.key !== key));
  }, []);

  const clearFinished = useCallback(() => {
    setEntries((current) =>
      current.filter((entry) => entry.status === 'waiting' || entry.status === 'uploading'),
    );
  }, []);

  const dismissRefusal = useCallback(() => {
    setRefusals((current) => current.slice(1));
  }, []);

  return {
    entries,
    upload: isSendingToVideoHost ? videoHost.controls : resumable,
    enqueue,
    remove,
    clearFinished,
    refusal: refusals[0] ?? null,
    dismissRefusal,
  };
}

export type UploadQueue = ReturnType<typeof useUploadQueue>;

/**
 * A video sent to the outside video host, when there is one: true once its bytes are there,
 * false for a file that goes through our resumable upload (not a video, or the local host).
 * Rejects as the upload would (a refusal's ApiError, an UploadCancelledError).
 */
async function sendToVideoHost(
  entry: QueuedUpload,
  videoHostRef: { current: ReturnType<typeof useVideoHostUpload> },
  setIsSendingToVideoHost: (value: boolean) => void,
): Promise<boolean> {
  const target = parseDocumentUploadOwner(entry.owner);
  if (!isVideoFile(entry.file) || !target) return false;
  const answer = await createVideo({
    owner: target.owner,
    parent_id: target.parentId,
    name: entry.file.name,
    size: entry.file.size,
    content_type: entry.file.type,
  });
  if (answer.host === 'local') return false;
  setIsSendingToVideoHost(true);
  try {
    await videoHostRef.current.send(entry.file, answer.ticket);
    return true;
  } catch (error) {
    // No video without its bytes: the placeholder goes, and the host's video with it.
    await deleteDocument(answer.item.id).catch((deletion: unknown) =>
      console.warn(`Deleting document ${answer.item.id} failed`, deletion),
    );
    throw error;
  } finally {
    setIsSendingToVideoHost(false);
  }
}

import { type AttachmentType, attachmentContentTypes } from '@mise/shared/catalogue/constants';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  fetchProtectedFile,
  useIsMediaStreamable,
  useObjectUrl,
} from '../../../shared/api/protected-file';
import { useIsOnline } from '../../../shared/outbox/network-indicator';
import './action-attachments.css';

/** A reference document of an action (spec 001 §3.6): its name and storage key. */
export type ActionAttachment = { name: string; path: string };

/** Names longer than this are cut (the full name stays in the button's label). */
export const attachmentNameMaxShown = 20;

/** How long a PDF opened in another window keeps its object URL (it reads it at once). */
const openedFileUrlMs = 5 * 60_000;

/** An action's attachments, read defensively (a task generated before they existed has none). */
export function actionAttachmentsOf(action: object): ActionAttachment[] {
  const value = (action as { attachments?: unknown }).attachments;
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is ActionAttachment =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.name === 'string' &&
      typeof item.path === 'string',
  );
}

export function shortName(name: string): string {
  return name.length > attachmentNameMaxShown
    ? `${name.slice(0, attachmentNameMaxShown - 1)}…`
    : name;
}

/** The file's kind by its key's extension (the server stores it with the type's extension). */
function typeOf(path: string): AttachmentType | 'file' {
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  const found = Object.values(attachmentContentTypes).find(
    (entry) => entry.extension === extension || (extension === 'jpeg' && entry.type === 'image'),
  );
  return found?.type ?? 'file';
}

/** The tablet reads the file with its device token (GET /api/files/<key>). */
function fileUrl(path: string, isThumbnail = false): string {
  const key = path.split('/').map(encodeURIComponent).join('/');
  return `/api/files/${key}${isThumbnail ? '?size=thumb' : ''}`;
}

const fileQueryOptions = (url: string) =>
  queryOptions({
    queryKey: ['action-attachment', url],
    queryFn: () => fetchProtectedFile(url),
    // Files need the network and can be large: kept a few minutes in memory, never stored.
    staleTime: 10 * 60_000,
    gcTime: 5 * 60_000,
    retry: 1,
    retryDelay: 300,
  });

const icons: Record<AttachmentType | 'file', string> = {
  image: '🖼',
  video: '🎬',
  pdf: '📄',
  file: '📎',
};

/** The 128-pixel preview of an image attachment, or its icon while it loads or cannot. */
function Thumbnail({ path, onFailed }: { path: string; onFailed: () => void }) {
  const file = useQuery(fileQueryOptions(fileUrl(path, true)));
  const source = useObjectUrl(file.data);
  const isError = file.isError;
  useEffect(() => {
    if (isError) onFailed();
  }, [isError, onFailed]);
  return source ? (
    <img className="action-attachment__thumbnail" src={source} alt="" />
  ) : (
    <span className="action-attachment__thumbnail action-attachment__thumbnail--icon" aria-hidden>
      {icons.image}
    </span>
  );
}

type ViewerProps = { attachment: ActionAttachment; type: 'image' | 'video'; onClose: () => void };

/**
 * A picture or a video over the whole screen, with a large close button (Escape closes too).
 * A video is streamed by its address (range requests) when the service worker controls the
 * page and adds the device token; otherwise, or if that fails, it is read whole first.
 */
function FullScreenViewer({ attachment, type, onClose }: ViewerProps) {
  const { t } = useTranslation();
  const close = useRef<HTMLButtonElement>(null);
  const [hasStreamFailed, setHasStreamFailed] = useState(false);
  const isStreamed = useIsMediaStreamable() && type === 'video' && !hasStreamFailed;
  const url = fileUrl(attachment.path);
  const file = useQuery({ ...fileQueryOptions(url), enabled: !isStreamed });
  const source = useObjectUrl(file.data);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', handleKey);
    return () => {
      window.removeEventListener('keydown', handleKey);
      opener?.focus?.();
    };
  }, [onClose]);

  let content: ReactNode;
  if (isStreamed)
    content = (
      // biome-ignore lint/a11y/useMediaCaption: the store's own reference videos carry no captions.
      <video
        src={url}
        controls
        preload="metadata"
        autoPlay
        playsInline
        aria-label={attachment.name}
        onError={() => setHasStreamFailed(true)}
      />
    );
  else if (source && type === 'image') content = <img src={source} alt={attachment.name} />;
  else if (source)
    // biome-ignore lint/a11y/useMediaCaption: the store's own reference videos carry no captions.
    content = <video src={source} controls autoPlay playsInline aria-label={attachment.name} />;
  else
    content = (
      <p className="action-viewer__status" role="status">
        {file.isError ? t('actionAttachments.availableOnline') : t('common.loading')}
      </p>
    );

  return createPortal(
    <div className="action-viewer" role="dialog" aria-modal="true" aria-label={attachment.name}>
      <div className="action-viewer__bar">
        <span className="action-viewer__name">{attachment.name}</span>
        <button
          ref={close}
          type="button"
          className="button button--large action-viewer__close"
          onClick={onClose}
        >
          ✕ {t('actionAttachments.close')}
        </button>
      </div>
      <div className="action-viewer__content">{content}</div>
    </div>,
    document.body,
  );
}

/** One attachment: a large button with its preview or icon and its (shortened) name. */
function AttachmentItem({ attachment }: { attachment: ActionAttachment }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isOnline = useIsOnline();
  const type = typeOf(attachment.path);
  const [isOpen, setIsOpen] = useState(false);
  const [isOpening, setIsOpening] = useState(false);
  const [hasFailed, setHasFailed] = useState(false);
  const markFailed = useCallback(() => setHasFailed(true), []);
  const closeViewer = useCallback(() => setIsOpen(false), []);

  /** A PDF (or another document) opens in a new window, the tablet's own reader. */
  const openInWindow = async () => {
    // Opened within the touch: a window opened after the download would be blocked.
    const target = window.open('', '_blank');
    setIsOpening(true);
    try {
      const blob = await queryClient.fetchQuery(fileQueryOptions(fileUrl(attachment.path)));
      const objectUrl = URL.createObjectURL(blob);
      if (target) target.location.href = objectUrl;
      else window.open(objectUrl, '_blank');
      setTimeout(() => URL.revokeObjectURL(objectUrl), openedFileUrlMs);
      setHasFailed(false);
    } catch {
      target?.close();
      setHasFailed(true);
    } finally {
      setIsOpening(false);
    }
  };

  const handleOpen = () => {
    if (type === 'image' || type === 'video') setIsOpen(true);
    else void openInWindow();
  };

  const label =
    type === 'image'
      ? 'actionAttachments.openImage'
      : type === 'video'
        ? 'actionAttachments.playVideo'
        : type === 'pdf'
          ? 'actionAttachments.openPdf'
          : 'actionAttachments.openFile';
  const isUnavailable = !isOnline || hasFailed;

  return (
    <li className="action-attachment">
      <button
        type="button"
        className="action-attachment__button"
        aria-label={t(label, { name: attachment.name })}
        title={attachment.name}
        disabled={!isOnline || isOpening}
        onClick={handleOpen}
      >
        {type === 'image' && isOnline ? (
          <Thumbnail path={attachment.path} onFailed={markFailed} />
        ) : (
          <span
            className="action-attachment__thumbnail action-attachment__thumbnail--icon"
            aria-hidden
          >
            {icons[type]}
          </span>
        )}
        <span className="action-attachment__text">
          <span className="action-attachment__name">{shortName(attachment.name)}</span>
          {isOpening ? <span className="muted">{t('common.loading')}</span> : null}
          {isUnavailable ? (
            <span className="action-attachment__offline">
              {t('actionAttachments.availableOnline')}
            </span>
          ) : null}
        </span>
      </button>
      {isOpen && (type === 'image' || type === 'video') ? (
        <FullScreenViewer attachment={attachment} type={type} onClose={closeViewer} />
      ) : null}
    </li>
  );
}

/**
 * The reference documents of an action (a cleaning procedure, a photo of how it should look):
 * images previewed small and opened full screen, videos played full screen, PDFs opened in
 * the tablet's reader. Offline (or when a file cannot be read) the name stays, marked
 * "available online".
 */
export function ActionAttachments({
  subject,
  attachments,
}: {
  subject: string;
  attachments: ActionAttachment[];
}) {
  const { t } = useTranslation();
  if (attachments.length === 0) return null;
  return (
    <ul className="action-attachments" aria-label={t('actionAttachments.title', { subject })}>
      {attachments.map((attachment) => (
        <AttachmentItem key={attachment.path} attachment={attachment} />
      ))}
    </ul>
  );
}

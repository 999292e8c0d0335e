import type { CommunicationAttachment } from '@mise/shared/communications/schemas';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { NetworkError } from '../../shared/api/client';
import {
  fetchProtectedFile,
  isProtectedFile,
  useIsMediaStreamable,
  useObjectUrl,
} from '../../shared/api/protected-file';
import { useIsOnline } from '../../shared/outbox/network-indicator';
import './communications.css';

/** How long a file opened in another window keeps its object URL (it reads it at once). */
const openedFileUrlMs = 5 * 60_000;

/**
 * An attachment's file. Files under /api need the device token, a header an <img>, <object>
 * or <video> cannot send: read as a blob and shown through an object URL (as the actions'
 * attachments do). A video is streamed by its address instead when the service worker controls
 * the page (it adds the token, useIsMediaStreamable); read whole first otherwise. Kept a few
 * minutes in memory, never in IndexedDB (files need the network).
 */
const fileQueryOptions = (url: string) =>
  queryOptions({
    queryKey: ['communication-attachment', url],
    queryFn: () => fetchProtectedFile(url),
    staleTime: 10 * 60_000,
    gcTime: 5 * 60_000,
    retry: 1,
    retryDelay: 300,
  });

/** The address to show `url` from: an object URL for a protected file, else `url` itself. */
function useFileSource(url: string, isWanted = true) {
  const isProtected = isProtectedFile(url);
  const file = useQuery({ ...fileQueryOptions(url), enabled: isProtected && isWanted });
  const objectUrl = useObjectUrl(file.data);
  return {
    source: isProtected ? objectUrl : isWanted ? url : null,
    isError: file.isError,
    isOffline: file.error instanceof NetworkError,
  };
}

function FileStatus({ isError, isOffline }: { isError: boolean; isOffline: boolean }) {
  const { t } = useTranslation();
  const isOnline = useIsOnline();
  if (!isOnline || isOffline)
    return <p className="muted communication-file-status">{t('communications.needsConnection')}</p>;
  return isError ? (
    <p className="error-text communication-file-status">{t('communications.loadFailed')}</p>
  ) : (
    <p className="muted communication-file-status">{t('common.loading')}</p>
  );
}

/** A PDF or another document opened in the tablet's own reader (a new window). */
function OpenInReader({ attachment }: { attachment: CommunicationAttachment }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isOnline = useIsOnline();
  const [isOpening, setIsOpening] = useState(false);
  const [hasFailed, setHasFailed] = useState(false);

  const handleOpen = async () => {
    setHasFailed(false);
    if (!isProtectedFile(attachment.url)) {
      window.open(attachment.url, '_blank', 'noopener');
      return;
    }
    // Opened within the touch: a window opened after the download would be blocked.
    const target = window.open('', '_blank');
    setIsOpening(true);
    try {
      const blob = await queryClient.fetchQuery(fileQueryOptions(attachment.url));
      const objectUrl = URL.createObjectURL(blob);
      if (target) target.location.href = objectUrl;
      else window.open(objectUrl, '_blank');
      setTimeout(() => URL.revokeObjectURL(objectUrl), openedFileUrlMs);
    } catch {
      target?.close();
      setHasFailed(true);
    } finally {
      setIsOpening(false);
    }
  };

  return (
    <div className="stack">
      <button
        type="button"
        className="button button--large"
        disabled={!isOnline || isOpening}
        onClick={() => void handleOpen()}
      >
        {isOpening
          ? t('common.loading')
          : attachment.type === 'pdf'
            ? t('communications.openPdf')
            : t('communications.openFile')}
      </button>
      {hasFailed ? <p className="error-text">{t('communications.loadFailed')}</p> : null}
    </div>
  );
}

/** A picture over the whole screen, with a large close button (Escape closes too). */
function FullScreenPicture({
  source,
  name,
  onClose,
}: {
  source: string;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const close = useRef<HTMLButtonElement>(null);
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
  return createPortal(
    <div className="communication-viewer" role="dialog" aria-modal="true" aria-label={name}>
      <div className="communication-viewer__bar">
        <span className="communication-viewer__name">{name}</span>
        <button ref={close} type="button" className="button button--large" onClick={onClose}>
          ✕ {t('common.close')}
        </button>
      </div>
      <div className="communication-viewer__content">
        <img src={source} alt={name} />
      </div>
    </div>,
    document.body,
  );
}

function PictureAttachment({ attachment }: { attachment: CommunicationAttachment }) {
  const { t } = useTranslation();
  const { source, isError, isOffline } = useFileSource(attachment.url);
  const [isFullScreen, setIsFullScreen] = useState(false);
  if (!source) return <FileStatus isError={isError} isOffline={isOffline} />;
  return (
    <>
      <button
        type="button"
        className="communication-picture"
        aria-label={t('communications.viewFullScreen', { name: attachment.name })}
        onClick={() => setIsFullScreen(true)}
      >
        <img src={source} alt="" />
      </button>
      {isFullScreen ? (
        <FullScreenPicture
          source={source}
          name={attachment.name}
          onClose={() => setIsFullScreen(false)}
        />
      ) : null}
    </>
  );
}

/**
 * A PDF shown in the screen when the browser can (the reading time counts while it shows),
 * and openable in the tablet's reader (the time spent there does not count: the app is hidden).
 */
function PdfAttachment({ attachment }: { attachment: CommunicationAttachment }) {
  const { t } = useTranslation();
  const { source, isError, isOffline } = useFileSource(attachment.url);
  return (
    <div className="stack">
      {source ? (
        <object
          className="communication-pdf"
          data={source}
          type="application/pdf"
          aria-label={attachment.name}
        >
          <p className="muted">{t('communications.pdfNotShown')}</p>
        </object>
      ) : (
        <FileStatus isError={isError} isOffline={isOffline} />
      )}
      <OpenInReader attachment={attachment} />
    </div>
  );
}

/**
 * A video, read when the employee asks (files can be large), then played with its controls:
 * streamed with range requests when the service worker adds the device token, else read whole.
 */
function VideoAttachment({ attachment }: { attachment: CommunicationAttachment }) {
  const { t } = useTranslation();
  const isOnline = useIsOnline();
  const [isAsked, setIsAsked] = useState(false);
  const [hasStreamFailed, setHasStreamFailed] = useState(false);
  const isStreamed = useIsMediaStreamable() && isProtectedFile(attachment.url) && !hasStreamFailed;
  const { source, isError, isOffline } = useFileSource(attachment.url, isAsked && !isStreamed);
  if (isAsked && isStreamed)
    return (
      // biome-ignore lint/a11y/useMediaCaption: the communications' own videos carry no captions.
      <video
        className="communication-video"
        src={attachment.url}
        controls
        preload="metadata"
        autoPlay
        playsInline
        aria-label={attachment.name}
        onError={() => setHasStreamFailed(true)}
      />
    );
  if (isAsked && source)
    return (
      // biome-ignore lint/a11y/useMediaCaption: the communications' own videos carry no captions.
      <video
        className="communication-video"
        src={source}
        controls
        autoPlay
        playsInline
        aria-label={attachment.name}
      />
    );
  if (isAsked) return <FileStatus isError={isError} isOffline={isOffline} />;
  return (
    <button
      type="button"
      className="button button--large"
      disabled={!isOnline}
      onClick={() => setIsAsked(true)}
    >
      {t('communications.playVideo')}
    </button>
  );
}

/** The communication's attachment, by its kind: picture, PDF, video or another file. */
export function CommunicationAttachmentView({
  attachment,
}: {
  attachment: CommunicationAttachment;
}) {
  const { t } = useTranslation();
  let content: ReactNode;
  if (attachment.type === 'image') content = <PictureAttachment attachment={attachment} />;
  else if (attachment.type === 'pdf') content = <PdfAttachment attachment={attachment} />;
  else if (attachment.type === 'video') content = <VideoAttachment attachment={attachment} />;
  else content = <OpenInReader attachment={attachment} />;
  return (
    <section
      className="card stack communication-attachment"
      aria-label={t('communications.attachment')}
    >
      <p className="communication-attachment__name">{attachment.name}</p>
      {content}
    </section>
  );
}

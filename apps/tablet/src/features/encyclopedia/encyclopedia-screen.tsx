import { allergens } from '@mise/shared/catalogue/constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome } from '../../app/navigation';
import {
  isProtectedFile,
  useIsMediaStreamable,
  useObjectUrl,
} from '../../shared/api/protected-file';
import type { DeviceElement } from '../../shared/api/types';
import { cachedQueryOptions } from '../../shared/offline/cached-query';
import { useIsOnline } from '../../shared/outbox/network-indicator';
import { attachmentQueryOptions } from './attachment-file';
import './encyclopedia.css';

type Attachment = DeviceElement['attachments'][number];

/** Accents and case ignored: "creme" finds "Crème brûlée". */
function searchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** How long a PDF opened in another window keeps its object URL (it reads it at once). */
const openedPdfUrlMs = 5 * 60_000;

/** A picture, shown large (fetched with the device token when it is one of ours). */
function ImageAttachment({ attachment, isOnline }: { attachment: Attachment; isOnline: boolean }) {
  const { t } = useTranslation();
  const isProtected = isProtectedFile(attachment.url);
  const file = useQuery({
    ...attachmentQueryOptions(attachment.url),
    enabled: isProtected && isOnline,
  });
  const objectUrl = useObjectUrl(file.data);
  const source = isProtected ? objectUrl : attachment.url;
  if (source) return <img className="encyclopedia__image" src={source} alt={attachment.name} />;
  if (file.isError) return <p className="error-text">{t('encyclopedia.loadFailed')}</p>;
  return <p className="muted">{isOnline ? t('common.loading') : t('encyclopedia.needsNetwork')}</p>;
}

/**
 * A video, loaded when the employee asks (files can be large), with the player's controls.
 * When the service worker controls the page, the player reads a protected file by its address
 * (the worker adds the device token) and streams it with range requests; otherwise, or if that
 * fails, the file is read whole as a blob first.
 */
function VideoAttachment({ attachment, isOnline }: { attachment: Attachment; isOnline: boolean }) {
  const { t } = useTranslation();
  const [isAsked, setIsAsked] = useState(false);
  const [hasStreamFailed, setHasStreamFailed] = useState(false);
  const isProtected = isProtectedFile(attachment.url);
  const isStreamed = useIsMediaStreamable() && isProtected && !hasStreamFailed;
  const file = useQuery({
    ...attachmentQueryOptions(attachment.url),
    enabled: isProtected && isAsked && !isStreamed,
  });
  const objectUrl = useObjectUrl(file.data);
  if (isAsked && isStreamed)
    return (
      // biome-ignore lint/a11y/useMediaCaption: the store's own training videos carry no captions.
      <video
        className="encyclopedia__video"
        src={attachment.url}
        controls
        preload="metadata"
        autoPlay
        playsInline
        onError={() => setHasStreamFailed(true)}
      />
    );
  const source = isProtected ? objectUrl : attachment.url;
  if (isAsked && source)
    // biome-ignore lint/a11y/useMediaCaption: the store's own training videos carry no captions.
    return <video className="encyclopedia__video" src={source} controls autoPlay playsInline />;
  if (isAsked && file.isError) return <p className="error-text">{t('encyclopedia.loadFailed')}</p>;
  if (isAsked) return <p className="muted">{t('common.loading')}</p>;
  return (
    <button
      type="button"
      className="button button--large"
      disabled={!isOnline}
      onClick={() => setIsAsked(true)}
    >
      {t('encyclopedia.play')}
    </button>
  );
}

/** A PDF opens in a new window, the tablet's own reader (pages, zoom). */
function PdfAttachment({ attachment, isOnline }: { attachment: Attachment; isOnline: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [isOpening, setIsOpening] = useState(false);

  const handleOpen = async () => {
    setProblem(null);
    if (!isProtectedFile(attachment.url)) {
      window.open(attachment.url, '_blank', 'noopener');
      return;
    }
    // Opened within the touch (a window opened after the download would be blocked).
    const target = window.open('', '_blank');
    setIsOpening(true);
    try {
      const blob = await queryClient.fetchQuery(attachmentQueryOptions(attachment.url));
      const objectUrl = URL.createObjectURL(blob);
      if (target) target.location.href = objectUrl;
      else window.open(objectUrl, '_blank');
      setTimeout(() => URL.revokeObjectURL(objectUrl), openedPdfUrlMs);
    } catch {
      target?.close();
      setProblem(t('encyclopedia.loadFailed'));
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
        {isOpening ? t('common.loading') : t('encyclopedia.openPdf')}
      </button>
      {problem ? <p className="error-text">{problem}</p> : null}
    </div>
  );
}

/** One element's page: allergens with their letters, then its pictures, PDFs and videos. */
function ElementPage({ element }: { element: DeviceElement }) {
  const { t } = useTranslation();
  const isOnline = useIsOnline();
  const present = allergens.filter((allergen) =>
    (element.allergens as readonly string[]).includes(allergen.key),
  );
  return (
    <div className="stack">
      {element.type_name ? <p className="muted">{element.type_name}</p> : null}
      <section className="card stack" aria-labelledby="encyclopedia-allergens">
        <h2 id="encyclopedia-allergens">{t('encyclopedia.allergens')}</h2>
        {present.length === 0 ? (
          <p className="muted">{t('encyclopedia.noAllergen')}</p>
        ) : (
          <ul className="encyclopedia__allergens">
            {present.map((allergen) => (
              <li key={allergen.key} className="badge">
                <strong>{allergen.letter}</strong> {t(`allergenNames.${allergen.key}`)}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="stack" aria-labelledby="encyclopedia-attachments">
        <h2 id="encyclopedia-attachments">{t('encyclopedia.attachments')}</h2>
        {!isOnline && element.attachments.length > 0 ? (
          <p className="encyclopedia__offline" role="status">
            {t('encyclopedia.needsNetwork')}
          </p>
        ) : null}
        {element.attachments.length === 0 ? (
          <p className="muted">{t('encyclopedia.noAttachment')}</p>
        ) : (
          <ul className="encyclopedia__attachments">
            {element.attachments.map((attachment) => (
              <li key={`${attachment.url}-${attachment.name}`} className="card stack">
                <div className="row">
                  <h3>{attachment.name}</h3>
                  <span className="badge">{t(`encyclopedia.types.${attachment.type}`)}</span>
                </div>
                {attachment.type === 'image' ? (
                  <ImageAttachment attachment={attachment} isOnline={isOnline} />
                ) : attachment.type === 'video' ? (
                  <VideoAttachment attachment={attachment} isOnline={isOnline} />
                ) : (
                  <PdfAttachment attachment={attachment} isOnline={isOnline} />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type ElementListProps = {
  elements: DeviceElement[];
  onOpen: (element: DeviceElement) => void;
};

function ElementList({ elements, onOpen }: ElementListProps) {
  const { t } = useTranslation();
  return (
    <ul className="encyclopedia__grid">
      {elements.map((element) => (
        <li key={element.id}>
          <button type="button" className="encyclopedia__tile" onClick={() => onOpen(element)}>
            <span className="encyclopedia__tile-name">{element.name}</span>
            <span className="muted">
              {element.type_name ? `${element.type_name} · ` : ''}
              {t('encyclopedia.attachmentCount', { count: element.attachments.length })}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Encyclopedia (spec 001 §3.2): the store's elements with the encyclopedia on, to read their
 * attachments on the tablet; and the elements flagged "display on a secondary screen". Works
 * from the kept element list offline; attachments themselves need the network.
 */
export function EncyclopediaScreen() {
  const { t } = useTranslation();
  const elements = useQuery(cachedQueryOptions<{ items: DeviceElement[] }>('elements'));
  const [openId, setOpenId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const all = useMemo(
    () => [...(elements.data?.items ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [elements.data],
  );
  const wanted = searchText(search);
  const matches = (element: DeviceElement) =>
    !wanted || searchText(`${element.name} ${element.type_name ?? ''}`).includes(wanted);
  const encyclopedia = all.filter((element) => element.modules.encyclopedia && matches(element));
  const displayed = all.filter((element) => element.modules.display_active && matches(element));
  const open = all.find((element) => element.id === openId) ?? null;

  return (
    <section className="stack encyclopedia" aria-labelledby="encyclopedia-title">
      <div className="screen-header">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => (open ? setOpenId(null) : goHome())}
        >
          {t('common.back')}
        </button>
        <h1 id="encyclopedia-title">{open ? open.name : t('encyclopedia.title')}</h1>
      </div>
      {!elements.data ? (
        <p className={elements.isError ? 'error-text' : 'muted'}>
          {t(elements.isError ? 'errors.network' : 'common.loading')}
        </p>
      ) : open ? (
        <ElementPage element={open} />
      ) : (
        <>
          <label className="field">
            <span className="field__label">{t('encyclopedia.search')}</span>
            <input
              className="input"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </label>
          <section className="stack" aria-labelledby="encyclopedia-elements">
            <h2 id="encyclopedia-elements">{t('encyclopedia.elements')}</h2>
            {encyclopedia.length === 0 ? (
              <p className="muted">{t('encyclopedia.empty')}</p>
            ) : (
              <ElementList elements={encyclopedia} onOpen={(element) => setOpenId(element.id)} />
            )}
          </section>
          <section className="stack" aria-labelledby="encyclopedia-display">
            <h2 id="encyclopedia-display">{t('encyclopedia.display')}</h2>
            <p className="muted">{t('encyclopedia.displayHint')}</p>
            {displayed.length === 0 ? (
              <p className="muted">{t('encyclopedia.displayEmpty')}</p>
            ) : (
              <ElementList elements={displayed} onOpen={(element) => setOpenId(element.id)} />
            )}
          </section>
        </>
      )}
    </section>
  );
}

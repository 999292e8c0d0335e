import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlowInternet } from '../device/device-state';
import { compressImage, pictureMaxSide, slowInternetPictureMaxSide } from './compress';

type CameraCaptureProps = {
  /** Rear camera for products and equipment, front camera for a selfie. */
  facing: 'environment' | 'user';
  onCapture: (picture: Blob) => void;
  onCancel: () => void;
  title?: string;
};

/**
 * The camera inside the app (getUserMedia): a live view, one large shutter button, then the
 * picture to keep or take again. The picture is compressed on the tablet before it is kept
 * (smaller in slow-internet mode). Without a camera (refused, none), a file picker stands in.
 */
export function CameraCapture({ facing, onCapture, onCancel, title }: CameraCaptureProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [taken, setTaken] = useState<{ blob: Blob; url: string } | null>(null);
  const isSlow = useSlowInternet();
  const maxSide = isSlow ? slowInternetPictureMaxSide : pictureMaxSide;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let isCancelled = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem(t('camera.unavailable'));
      return;
    }
    navigator.mediaDevices
      .getUserMedia({
        video: { facingMode: { ideal: facing }, width: { ideal: 1920 } },
        audio: false,
      })
      .then((opened) => {
        if (isCancelled) {
          for (const track of opened.getTracks()) track.stop();
          return;
        }
        stream = opened;
        if (video.current) {
          video.current.srcObject = opened;
          void video.current.play().catch(() => undefined);
        }
      })
      .catch(() => setProblem(t('camera.unavailable')));
    return () => {
      isCancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [facing, t]);

  useEffect(() => () => (taken ? URL.revokeObjectURL(taken.url) : undefined), [taken]);

  const handleShutter = async () => {
    const current = video.current;
    if (!current || current.readyState < 2) return;
    const blob = await compressImage(current, maxSide);
    setTaken({ blob, url: URL.createObjectURL(blob) });
  };

  const handleFile = async (file: File | undefined) => {
    if (!file) return;
    const bitmap = await createImageBitmap(file);
    const blob = await compressImage(bitmap, maxSide);
    bitmap.close();
    setTaken({ blob, url: URL.createObjectURL(blob) });
  };

  return (
    <div className="camera" role="dialog" aria-modal="true" aria-label={title ?? t('camera.title')}>
      <div className="camera__view">
        {taken ? (
          <img src={taken.url} alt={t('camera.preview')} />
        ) : problem ? (
          <p className="camera__problem">{problem}</p>
        ) : (
          <video ref={video} playsInline muted aria-label={t('camera.live')} />
        )}
      </div>
      <div className="camera__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        {taken ? (
          <>
            <button type="button" className="button" onClick={() => setTaken(null)}>
              {t('camera.retake')}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => onCapture(taken.blob)}
            >
              {t('camera.use')}
            </button>
          </>
        ) : problem ? (
          <label className="button button--primary">
            {t('camera.chooseFile')}
            <input
              type="file"
              accept="image/*"
              capture={facing}
              className="visually-hidden"
              onChange={(event) => void handleFile(event.target.files?.[0])}
            />
          </label>
        ) : (
          <button
            type="button"
            className="camera__shutter"
            aria-label={t('camera.shutter')}
            onClick={() => void handleShutter()}
          />
        )}
      </div>
    </div>
  );
}

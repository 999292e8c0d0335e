import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type QrScannerProps = { onResult: (text: string) => void; onCancel: () => void };

/**
 * Reads a QR code from the rear camera: frames are decoded a few times a second (jsQR, loaded
 * only when the scanner opens, so the first screen does not carry it).
 */
export function QrScanner({ onResult, onCancel }: QrScannerProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let isDone = false;
    const canvas = document.createElement('canvas');
    (async () => {
      try {
        const [{ default: jsQR }, opened] = await Promise.all([
          import('jsqr'),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } } }),
        ]);
        stream = opened;
        if (isDone || !video.current) return;
        video.current.srcObject = opened;
        await video.current.play().catch(() => undefined);
        timer = setInterval(() => {
          const current = video.current;
          if (!current || current.readyState < 2) return;
          canvas.width = current.videoWidth;
          canvas.height = current.videoHeight;
          const context = canvas.getContext('2d', { willReadFrequently: true });
          if (!context) return;
          context.drawImage(current, 0, 0);
          const frame = context.getImageData(0, 0, canvas.width, canvas.height);
          const code = jsQR(frame.data, frame.width, frame.height);
          if (code?.data && !isDone) {
            isDone = true;
            onResult(code.data);
          }
        }, 300);
      } catch {
        setProblem(t('camera.unavailable'));
      }
    })();
    return () => {
      isDone = true;
      if (timer) clearInterval(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [onResult, t]);

  return (
    <div className="camera" role="dialog" aria-modal="true" aria-label={t('pairing.scan')}>
      <div className="camera__view">
        {problem ? (
          <p className="camera__problem">{problem}</p>
        ) : (
          <video ref={video} playsInline muted aria-label={t('pairing.scanning')} />
        )}
      </div>
      <div className="camera__actions">
        <p style={{ color: '#fff' }}>{t('pairing.scanning')}</p>
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

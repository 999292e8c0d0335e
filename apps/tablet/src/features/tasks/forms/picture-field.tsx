import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraCapture } from '../../../shared/camera/camera-capture';
import { pictureBlob, readPicture, storePicture } from '../../../shared/outbox/outbox';
import { localPicturePrefix } from '../../../shared/outbox/outbox-types';
import { nowSeconds, type ResultPicture } from './form-types';
import './forms.css';

type PictureFieldProps = {
  /** What the pictures show, for the camera's title and the buttons' names. */
  subject: string;
  pictures: ResultPicture[];
  onChange: (pictures: ResultPicture[]) => void;
  isRequired: boolean;
  max: number;
  isReadOnly?: boolean;
};

/**
 * Pictures of a result: the in-app camera (rear), each picture kept on the tablet at once
 * (storePicture) and referenced as `local:<id>` until the outbox uploads it.
 */
export function PictureField({
  subject,
  pictures,
  onChange,
  isRequired,
  max,
  isReadOnly = false,
}: PictureFieldProps) {
  const { t } = useTranslation();
  const [isCameraOpen, setIsCameraOpen] = useState(false);

  const handleCapture = async (blob: Blob) => {
    setIsCameraOpen(false);
    const path = await storePicture(blob);
    onChange([...pictures, { path, timestamp: nowSeconds() }]);
  };

  return (
    <div className="picture-field">
      <span className="field__label">
        {t('forms.pictures')}
        {isRequired ? ` (${t('forms.required')})` : ''}
      </span>
      <div className="row">
        {pictures.map((picture, index) => (
          <div key={picture.path} className="picture-field__item">
            <PictureThumbnail
              reference={picture.path}
              alt={t('forms.pictureOf', { subject, index: index + 1 })}
            />
            {isReadOnly ? null : (
              <button
                type="button"
                className="button button--ghost"
                aria-label={t('forms.removePicture', { subject, index: index + 1 })}
                onClick={() => onChange(pictures.filter((item) => item !== picture))}
              >
                ✕
              </button>
            )}
          </div>
        ))}
        {isReadOnly || pictures.length >= max ? null : (
          <button
            type="button"
            className={`button${isRequired && pictures.length === 0 ? ' picture-field__needed' : ''}`}
            aria-label={t('forms.takePictureOf', { subject })}
            onClick={() => setIsCameraOpen(true)}
          >
            📷 {t('forms.takePicture')}
          </button>
        )}
        {isReadOnly && pictures.length === 0 ? <span className="muted">–</span> : null}
      </div>
      {isCameraOpen ? (
        <CameraCapture
          facing="environment"
          title={subject}
          onCapture={(blob) => void handleCapture(blob)}
          onCancel={() => setIsCameraOpen(false)}
        />
      ) : null}
    </div>
  );
}

/** A picture kept on the tablet, shown small; one already on the server shows as an icon. */
function PictureThumbnail({ reference, alt }: { reference: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!reference.startsWith(localPicturePrefix)) return;
    let objectUrl: string | null = null;
    let isCancelled = false;
    void readPicture(reference).then((picture) => {
      if (!picture || isCancelled || typeof URL.createObjectURL !== 'function') return;
      objectUrl = URL.createObjectURL(pictureBlob(picture));
      setUrl(objectUrl);
    });
    return () => {
      isCancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [reference]);
  return url ? (
    <img className="picture-field__thumbnail" src={url} alt={alt} />
  ) : (
    <span
      className="picture-field__thumbnail picture-field__thumbnail--placeholder"
      role="img"
      aria-label={alt}
    >
      📷
    </span>
  );
}

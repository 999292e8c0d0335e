import { Group, Image, Modal, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A picture's storage key as the files endpoint serves it: /api/files/<path>. */
export function pictureUrl(path: string): string {
  return `/api/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

type PictureThumbnailsProps = {
  pictures: readonly { path: string }[];
  onOpen: (path: string) => void;
};

/** Small previews of a result's pictures; a click opens the picture (spec 002 §2). */
export function PictureThumbnails({ pictures, onOpen }: PictureThumbnailsProps) {
  const { t } = useTranslation();
  if (pictures.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap">
      {pictures.map((picture) => (
        <UnstyledButton
          key={picture.path}
          onClick={() => onOpen(picture.path)}
          aria-label={t('history.openPicture')}
          data-testid="history-picture"
          data-path={picture.path}
        >
          <Image
            src={pictureUrl(picture.path)}
            alt={t('history.picture')}
            w={48}
            h={48}
            radius="sm"
            fit="cover"
          />
        </UnstyledButton>
      ))}
    </Group>
  );
}

type PictureModalProps = {
  /** The storage key shown; null keeps the modal closed. */
  path: string | null;
  onClose: () => void;
};

/** One picture, large, in a modal. */
export function PictureModal({ path, onClose }: PictureModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={path !== null}
      onClose={onClose}
      title={t('history.picture')}
      size="xl"
      centered
      data-testid="picture-modal"
    >
      {path ? (
        <Image
          src={pictureUrl(path)}
          alt={t('history.picture')}
          fit="contain"
          mah="75vh"
          data-testid="picture-modal-image"
        />
      ) : null}
    </Modal>
  );
}

import { Modal } from '@mantine/core';
import type { DocumentItem } from '@mise/shared/documents/schemas';
import { useTranslation } from 'react-i18next';

type PreviewDialogProps = {
  item: DocumentItem;
  kind: 'image' | 'video';
  onClose: () => void;
};

/** An image shown whole, or a video played from its address (Range requests: it seeks). */
export function PreviewDialog({ item, kind, onClose }: PreviewDialogProps) {
  const { t } = useTranslation();
  const url = item.url ?? undefined;
  return (
    <Modal
      opened
      onClose={onClose}
      title={item.name}
      size="xl"
      centered
      closeOnEscape
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="document-preview"
    >
      {kind === 'image' ? (
        <img
          src={url}
          alt={item.name}
          style={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', margin: '0 auto' }}
          data-testid="document-preview-image"
        />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: uploaded videos come without caption files
        <video
          src={url}
          controls
          preload="metadata"
          style={{ display: 'block', width: '100%', maxHeight: '75vh' }}
          data-testid="document-preview-video"
        />
      )}
    </Modal>
  );
}

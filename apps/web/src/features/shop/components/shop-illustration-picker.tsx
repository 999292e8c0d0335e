import { Center, FileButton, Image, Loader, Text, UnstyledButton } from '@mantine/core';
import type { ShopIllustration } from '@mise/shared/shop/schemas';
import { IconPhotoPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageMaxBytes, imageTypes } from '../../../shared/ui/image-upload';
import { notifyApiError, notifyErrorCode, saveErrorDurationMs } from '../../../shared/ui/notify';

type ShopIllustrationPickerProps = {
  imageUrl: string | null;
  /** The item's name, for the button's accessible label. */
  name: string;
  isDisabled: boolean;
  onUpload: (file: File) => Promise<ShopIllustration>;
  onPicked: (picture: ShopIllustration) => void;
};

/**
 * A shop card's illustration (spec 001 §2.3, §2.10): clicking it opens an image file picker. The
 * picture is stored at once under the shop's folder and set on the card; the save records it.
 */
export function ShopIllustrationPicker({
  imageUrl,
  name,
  isDisabled,
  onUpload,
  onPicked,
}: ShopIllustrationPickerProps) {
  const { t } = useTranslation();
  const [isUploading, setIsUploading] = useState(false);

  async function handleFile(file: File | null) {
    if (!file || isUploading) return;
    if (!(imageTypes as readonly string[]).includes(file.type)) {
      notifyErrorCode('file/unsupported-type', { autoClose: saveErrorDurationMs });
      return;
    }
    if (file.size > imageMaxBytes) {
      notifyErrorCode('file/too-large', { autoClose: saveErrorDurationMs });
      return;
    }
    setIsUploading(true);
    try {
      onPicked(await onUpload(file));
    } catch (error) {
      notifyApiError(error, { autoClose: saveErrorDurationMs });
    } finally {
      setIsUploading(false);
    }
  }

  const label = t('shop.item.pickIllustration', { name: name.trim() || t('shop.item.unnamed') });
  const picture = (
    <Center
      h={120}
      w="100%"
      bg="var(--mantine-color-gray-1)"
      style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
    >
      {isUploading ? (
        <Loader size="sm" aria-label={t('upload.uploading')} />
      ) : imageUrl ? (
        <Image src={imageUrl} alt="" h={120} w="100%" fit="cover" />
      ) : (
        <IconPhotoPlus size={36} aria-hidden color="var(--mantine-color-gray-6)" />
      )}
    </Center>
  );

  if (isDisabled) {
    return (
      <div data-testid="shop-item-illustration" style={{ width: '100%' }}>
        {picture}
      </div>
    );
  }
  return (
    <FileButton onChange={handleFile} accept={imageTypes.join(',')}>
      {(props) => (
        <UnstyledButton
          {...props}
          w="100%"
          aria-label={label}
          title={label}
          data-testid="shop-item-illustration"
        >
          {picture}
          <Text size="xs" c="dimmed" ta="center" mt={4}>
            {t('shop.item.changeIllustration')}
          </Text>
        </UnstyledButton>
      )}
    </FileButton>
  );
}

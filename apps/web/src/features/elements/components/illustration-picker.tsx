import {
  ActionIcon,
  Button,
  Group,
  Image,
  Popover,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { saveErrorToastMs, stockImageSearchDebounceMs } from '@mise/shared/catalogue/constants';
import { IconPhotoSearch, IconPhotoX, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../shared/ui/image-upload';
import { notifyApiError } from '../../../shared/ui/notify';
import { useStockImages } from '../api/get-stock-images';
import { pickStockImage, uploadElementImage } from '../api/upload-element-files';
import { canRemoveImage } from './element-form';
import { useElementForm } from './element-form-context';
import { FieldStateControl } from './field-state-control';

/** The stock image search (spec 001 §7): debounced 500 ms, a grid of thumbnails to pick from. */
function StockImageSearch({ onPicked }: { onPicked: () => void }) {
  const { t } = useTranslation();
  const { level, draft, elementId, version, runUpload, acceptServerElement } = useElementForm();
  const [search, setSearch] = useState(draft.values.name);
  const [debouncedSearch] = useDebouncedValue(search, stockImageSearchDebounceMs);
  const images = useStockImages(debouncedSearch, true);
  const [pickingUrl, setPickingUrl] = useState<string | null>(null);
  const isNotConfigured = images.data?.configured === false;

  async function handlePick(url: string) {
    if (!elementId || pickingUrl) return;
    setPickingUrl(url);
    try {
      acceptServerElement(await runUpload(() => pickStockImage(level, elementId, version, url)));
      onPicked();
    } catch (error) {
      notifyApiError(error, { autoClose: saveErrorToastMs });
    } finally {
      setPickingUrl(null);
    }
  }

  return (
    <Stack gap="xs" w={360} data-testid="stock-images">
      <TextInput
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        placeholder={t('stockImages.placeholder')}
        aria-label={t('stockImages.search')}
        leftSection={<IconSearch size={14} />}
        disabled={isNotConfigured}
        data-autofocus
        data-testid="stock-images-search"
      />
      {isNotConfigured ? (
        <Text size="sm" c="dimmed" data-testid="stock-images-not-configured">
          {t('stockImages.notConfigured')}
        </Text>
      ) : null}
      {images.isError ? (
        <Text size="sm" c="red">
          {t('stockImages.failed')}
        </Text>
      ) : null}
      {images.isFetching ? (
        <Text size="xs" c="dimmed">
          {t('common.loading')}
        </Text>
      ) : null}
      {images.data?.configured && images.data.items.length === 0 && !images.isFetching ? (
        <Text size="sm" c="dimmed">
          {t('common.nothingFound')}
        </Text>
      ) : null}
      {images.data?.configured && images.data.items.length > 0 ? (
        <SimpleGrid cols={3} spacing="xs" style={{ maxHeight: 320, overflowY: 'auto' }}>
          {images.data.items.map((item) => (
            <UnstyledButton
              key={item.id}
              onClick={() => handlePick(item.url)}
              disabled={pickingUrl !== null}
              aria-label={t('stockImages.pick')}
              data-testid="stock-image"
            >
              <Image
                src={item.thumbnail_url}
                h={96}
                radius="sm"
                fit="cover"
                style={{ opacity: pickingUrl && pickingUrl !== item.url ? 0.4 : 1 }}
              />
            </UnstyledButton>
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

/** The element's illustration: file upload or stock image, once the element exists. */
export function IllustrationPicker() {
  const { t } = useTranslation();
  const form = useElementForm();
  const { level, draft, elementId, version, isFieldReadOnly, runUpload, acceptServerElement } =
    form;
  const [isSearchOpen, setIsSearchOpen] = useState(false);
  const isDisabled = !elementId || isFieldReadOnly('illustration_url');

  return (
    <Stack gap={4} align="center">
      <ImageUpload
        imageUrl={draft.values.illustration_url}
        name={draft.values.name}
        label={t('element.upload')}
        isSquare
        isDisabled={isDisabled}
        onUpload={async (file, onProgress) => {
          if (!elementId) return;
          acceptServerElement(
            await runUpload(() =>
              uploadElementImage(level, elementId, version, 'illustration', file, onProgress),
            ),
          );
        }}
        testId="element-illustration"
      />
      <Popover
        opened={isSearchOpen}
        onChange={setIsSearchOpen}
        position="bottom-start"
        withArrow
        shadow="md"
        trapFocus
      >
        <Popover.Target>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPhotoSearch size={14} />}
            disabled={isDisabled}
            onClick={() => setIsSearchOpen((isOpen) => !isOpen)}
            data-testid="stock-images-open"
          >
            {t('stockImages.open')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          {isSearchOpen ? <StockImageSearch onPicked={() => setIsSearchOpen(false)} /> : null}
        </Popover.Dropdown>
      </Popover>
      <Group gap={4}>
        {!isFieldReadOnly('illustration_url') && canRemoveImage(draft, 'illustration_url') ? (
          <RemoveImageButton field="illustration_url" />
        ) : null}
        <FieldStateControl field="illustration_url" />
      </Group>
      {elementId ? null : (
        <Text size="xs" c="dimmed" maw={160} ta="center" data-testid="illustration-save-first">
          {t('element.saveFirst')}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Removes the element's own image (database level, or a store's own element): sent as null
 * by the next Save. An overridden image at store level is reset to the database's instead.
 */
export function RemoveImageButton({
  field,
}: {
  field: 'illustration_url' | 'allergen_illustration_url';
}) {
  const { t } = useTranslation();
  const { setValue } = useElementForm();
  return (
    <Tooltip label={t('element.removeImage')}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t('element.removeImage')}
        onClick={() => setValue(field, null)}
        data-testid={`remove-${field}`}
      >
        <IconPhotoX size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

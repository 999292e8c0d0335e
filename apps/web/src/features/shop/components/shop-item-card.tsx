import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { defaultShopItemPrice, shopPriceRange } from '@mise/shared/shop/constants';
import type { ShopIllustration } from '@mise/shared/shop/schemas';
import { IconArrowLeft, IconArrowRight, IconCurrencyEuro } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../shared/format/money';
import { NumericInput } from '../../../shared/ui/numeric-input';
import type { ShopCardValues, ShopItemDraft } from './shop-draft';
import { ShopIllustrationPicker } from './shop-illustration-picker';

type ShopItemCardProps = {
  draft: ShopItemDraft;
  isEditable: boolean;
  isFirst: boolean;
  isLast: boolean;
  onChange: (change: Partial<ShopCardValues>) => void;
  onMove: (direction: -1 | 1) => void;
  onUpload: (file: File) => Promise<ShopIllustration>;
  /** Distributor level: opens the per-database prices; absent at database level. */
  onPrices?: () => void;
};

/**
 * One shop item (spec 001 §2.3, §2.10): active toggle, illustration (click to pick), name,
 * description, price, move left and right, and at distributor level the Price button. At
 * database level a field left as the distributor's keeps following it.
 */
export function ShopItemCard({
  draft,
  isEditable,
  isFirst,
  isLast,
  onChange,
  onMove,
  onUpload,
  onPrices,
}: ShopItemCardProps) {
  const { t, i18n } = useTranslation();
  const { values, origin } = draft;
  const isActiveLocked = origin !== null && !origin.active;
  const defaultPrice = origin?.price ?? defaultShopItemPrice;
  const follows = (key: 'name' | 'description' | 'price') =>
    origin !== null && values[key] === origin[key];
  const followsHint = t('shop.item.followsDistributor');
  const title = values.name.trim() || t('shop.item.unnamed');

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      opacity={values.active ? 1 : 0.7}
      data-testid="shop-item-card"
      data-item-key={draft.key}
      aria-label={title}
      component="article"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Tooltip label={t('shop.item.lockedInactive')} disabled={!isActiveLocked}>
            <Switch
              label={t('common.active')}
              checked={values.active}
              onChange={(event) => onChange({ active: event.currentTarget.checked })}
              disabled={!isEditable || isActiveLocked}
              data-testid="shop-item-active"
            />
          </Tooltip>
          {draft.origin_id !== null && !draft.isSaved ? (
            <Badge variant="light" color="blue" data-testid="shop-item-unsaved">
              {t('shop.item.notSaved')}
            </Badge>
          ) : null}
          {draft.origin_id === null && origin === null && draft.id === null ? (
            <Badge variant="light" color="teal">
              {t('common.new')}
            </Badge>
          ) : null}
        </Group>
        <ShopIllustrationPicker
          imageUrl={values.illustration_url}
          name={values.name}
          isDisabled={!isEditable}
          onUpload={onUpload}
          onPicked={(picture) =>
            onChange({ illustration_path: picture.path, illustration_url: picture.url })
          }
        />
        <TextInput
          label={t('shop.item.name')}
          value={values.name}
          onChange={(event) => onChange({ name: event.currentTarget.value })}
          readOnly={!isEditable}
          description={follows('name') ? followsHint : undefined}
          maxLength={120}
          data-testid="shop-item-name"
        />
        <Textarea
          label={t('shop.item.description')}
          value={values.description}
          onChange={(event) => onChange({ description: event.currentTarget.value })}
          readOnly={!isEditable}
          description={follows('description') ? followsHint : undefined}
          rows={3}
          maxLength={2000}
          data-testid="shop-item-description"
        />
        <NumericInput
          label={t('shop.item.price')}
          value={values.price}
          onChange={(price) => onChange({ price })}
          min={shopPriceRange.min}
          max={shopPriceRange.max}
          clampBehavior="strict"
          allowNegative={false}
          decimalScale={2}
          suffix=" €"
          placeholder={formatEuros(defaultPrice, i18n.language)}
          description={
            values.price === null || follows('price')
              ? t('shop.item.defaultPrice', { price: formatEuros(defaultPrice, i18n.language) })
              : undefined
          }
          readOnly={!isEditable}
          data-testid="shop-item-price"
        />
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => onMove(-1)}
              disabled={!isEditable || isFirst}
              aria-label={t('shop.item.moveLeft', { name: title })}
              data-testid="shop-item-move-left"
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => onMove(1)}
              disabled={!isEditable || isLast}
              aria-label={t('shop.item.moveRight', { name: title })}
              data-testid="shop-item-move-right"
            >
              <IconArrowRight size={18} />
            </ActionIcon>
          </Group>
          {onPrices ? (
            <Tooltip label={t('shop.item.saveFirst')} disabled={draft.id !== null}>
              <Button
                variant="light"
                leftSection={<IconCurrencyEuro size={16} />}
                onClick={onPrices}
                disabled={draft.id === null}
                data-testid="shop-item-prices"
              >
                {t('shop.item.prices')}
              </Button>
            </Tooltip>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

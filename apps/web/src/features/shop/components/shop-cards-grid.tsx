import { Button, Card, Center, SimpleGrid } from '@mantine/core';
import type { ShopIllustration } from '@mise/shared/shop/schemas';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ShopCardValues, ShopItemDraft } from './shop-draft';
import { ShopItemCard } from './shop-item-card';

type ShopCardsGridProps = {
  drafts: readonly ShopItemDraft[];
  isEditable: boolean;
  onChange: (key: string, change: Partial<ShopCardValues>) => void;
  onMove: (key: string, direction: -1 | 1) => void;
  onUpload: (file: File) => Promise<ShopIllustration>;
  onAdd: () => void;
  onPrices?: (draft: ShopItemDraft) => void;
};

/** The grid of shop item cards and the New card (spec 001 §2.3, §2.10). */
export function ShopCardsGrid({
  drafts,
  isEditable,
  onChange,
  onMove,
  onUpload,
  onAdd,
  onPrices,
}: ShopCardsGridProps) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
      {drafts.map((draft, position) => (
        <ShopItemCard
          key={draft.key}
          draft={draft}
          isEditable={isEditable}
          isFirst={position === 0}
          isLast={position === drafts.length - 1}
          onChange={(change) => onChange(draft.key, change)}
          onMove={(direction) => onMove(draft.key, direction)}
          onUpload={onUpload}
          onPrices={onPrices ? () => onPrices(draft) : undefined}
        />
      ))}
      {isEditable ? (
        <Card withBorder radius="md" padding="md" style={{ borderStyle: 'dashed' }}>
          <Center h="100%" mih={200}>
            <Button
              variant="subtle"
              size="md"
              h="auto"
              py="xs"
              styles={{ label: { whiteSpace: 'normal', textAlign: 'center', overflow: 'visible' } }}
              leftSection={<IconPlus size={20} />}
              onClick={onAdd}
              data-testid="shop-item-add"
            >
              {t('shop.newItem')}
            </Button>
          </Center>
        </Card>
      ) : null}
    </SimpleGrid>
  );
}

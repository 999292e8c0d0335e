import {
  ActionIcon,
  Avatar,
  Badge,
  Center,
  Group,
  Loader,
  Modal,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { shopPriceRange } from '@mise/shared/shop/constants';
import type { ShopItemPriceRow, ShopItemPrices } from '@mise/shared/shop/schemas';
import { IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { formatEuros } from '../../../shared/format/money';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { useItemPrices } from '../api/get-item-prices';
import { useSaveItemPrices } from '../api/save-item-prices';

/** A table wider than the screen scrolls: its viewport takes the keyboard focus (axe). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

type ShopPriceModalProps = {
  distributorId: string;
  /** The distributor item whose prices are shown; null: closed. */
  item: { id: string; name: string } | null;
  onClose: () => void;
};

/**
 * The per-database prices of one distributor item (spec 001 §2.10): database, active, image,
 * name, description and price in euros, a reset per price (back to the distributor's price)
 * and Apply, which answers the price-updated toast (spec 001 §8).
 */
export function ShopPriceModal({ distributorId, item, onClose }: ShopPriceModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('shop.prices.title', { name: item?.name.trim() || t('shop.item.unnamed') })}
    >
      {item ? (
        <PriceTable distributorId={distributorId} itemId={item.id} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function PriceTable({
  distributorId,
  itemId,
  onClose,
}: {
  distributorId: string;
  itemId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const query = useItemPrices(distributorId, itemId);
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (query.isError || !query.data) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, query.error)} />;
  }
  return (
    <PriceForm
      distributorId={distributorId}
      itemId={itemId}
      prices={query.data}
      onClose={onClose}
    />
  );
}

function PriceForm({
  distributorId,
  itemId,
  prices,
  onClose,
}: {
  distributorId: string;
  itemId: string;
  prices: ShopItemPrices;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const saveMutation = useSaveItemPrices(distributorId, itemId);
  /** The database's own price per database (null: follows the distributor's). */
  const [ownPrices, setOwnPrices] = useState<Record<string, number | null>>(() =>
    Object.fromEntries(prices.rows.map((row) => [row.database_id, row.own_price])),
  );
  const changed = prices.rows.filter((row) => ownPrices[row.database_id] !== row.own_price);

  function handleApply() {
    if (changed.length === 0) {
      onClose();
      return;
    }
    saveMutation.mutate(
      {
        prices: changed.map((row) => ({
          database_id: row.database_id,
          price: ownPrices[row.database_id] ?? null,
          version: row.version,
        })),
      },
      {
        onSuccess: () => {
          notifySuccess(t('shop.priceUpdated'));
          onClose();
        },
        onError: (error) =>
          notifyError(
            isApiError(error, 'conflict/stale-version')
              ? t('errors.conflict/stale-version')
              : errorMessage(t, error),
            { autoClose: saveErrorDurationMs },
          ),
      },
    );
  }

  if (prices.rows.length === 0) {
    return <EmptyState title={t('shop.prices.noDatabase')} testId="shop-prices-empty" />;
  }
  const distributorPrice = formatEuros(prices.item.price, i18n.language);
  return (
    <>
      <Table.ScrollContainer minWidth={720} scrollAreaProps={keyboardScroll}>
        <Table striped verticalSpacing="xs" data-testid="shop-prices-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('shop.prices.database')}</Table.Th>
              <Table.Th>{t('common.active')}</Table.Th>
              <Table.Th>{t('shop.prices.image')}</Table.Th>
              <Table.Th>{t('shop.item.name')}</Table.Th>
              <Table.Th>{t('shop.item.description')}</Table.Th>
              <Table.Th>{t('shop.prices.price')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {prices.rows.map((row) => (
              <PriceRow
                key={row.database_id}
                row={row}
                ownPrice={ownPrices[row.database_id] ?? null}
                distributorPrice={distributorPrice}
                onChange={(price) =>
                  setOwnPrices((current) => ({ ...current, [row.database_id]: price }))
                }
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="flex-end" mt="md">
        <LoadingButton
          onClick={handleApply}
          loading={saveMutation.isPending}
          data-testid="shop-prices-apply"
        >
          {t('shop.prices.apply')}
        </LoadingButton>
      </Group>
    </>
  );
}

function PriceRow({
  row,
  ownPrice,
  distributorPrice,
  onChange,
}: {
  row: ShopItemPriceRow;
  ownPrice: number | null;
  distributorPrice: string;
  onChange: (price: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid="shop-price-row" data-database-id={row.database_id}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {row.database_name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={row.active ? 'teal' : 'gray'}>
          {row.active ? t('common.active') : t('common.inactive')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Avatar src={row.illustration_url} radius="sm" alt="" name={row.name} color="initials" />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{row.name}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {row.description}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <NumericInput
            value={ownPrice}
            onChange={onChange}
            min={shopPriceRange.min}
            max={shopPriceRange.max}
            clampBehavior="strict"
            allowNegative={false}
            decimalScale={2}
            suffix=" €"
            placeholder={distributorPrice}
            aria-label={t('shop.prices.priceOf', { database: row.database_name })}
            w={130}
            data-testid="shop-price-input"
          />
          <Tooltip label={t('shop.prices.reset', { price: distributorPrice })}>
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => onChange(null)}
              disabled={ownPrice === null}
              aria-label={t('shop.prices.reset', { price: distributorPrice })}
              data-testid="shop-price-reset"
            >
              <IconRestore size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

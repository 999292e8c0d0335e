import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Image,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  shopOrderMaxLines,
  shopOrderNoteMaxLength,
  shopOrderQuantityRange,
} from '@mise/shared/shop/constants';
import { orderTotal } from '@mise/shared/shop/rules';
import type { StoreShop, StoreShopItem } from '@mise/shared/shop/schemas';
import { IconBuildingStore, IconInfoCircle, IconMinus, IconPlus } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { formatEuros } from '../../../shared/format/money';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { useCreateStoreShopOrder } from '../api/create-store-shop-order';
import { useStoreShop } from '../api/get-store-shop';
import { ShopOrdersList } from './shop-orders-list';

export type StoreShopTabProps = {
  storeId: string;
  /** Whoever may edit the store orders for it; a read-only viewer sees its orders only. */
  canOrder: boolean;
};

type Quantities = Readonly<Record<string, number>>;
type BasketLine = { item: StoreShopItem; quantity: number };

function basketLines(items: readonly StoreShopItem[], quantities: Quantities): BasketLine[] {
  return items
    .map((item) => ({ item, quantity: quantities[item.id] ?? 0 }))
    .filter((line) => line.quantity > 0);
}

const clampQuantity = (value: number) =>
  Math.min(shopOrderQuantityRange.max, Math.max(0, Math.trunc(value)));

/**
 * The Shop tab of a store (issue 19): the store orders from its database's shop in the
 * back-office, as an employee does on the tablet (items, quantities, a total, a note, the
 * order confirmed then e-mailed to the distributor), and reads the store's past orders.
 */
export function StoreShopTab({ storeId, canOrder }: StoreShopTabProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      {canOrder ? (
        <StoreOrderForm storeId={storeId} />
      ) : (
        <Alert
          color="gray"
          icon={<IconInfoCircle size={18} />}
          title={t('shop.order.readOnlyTitle')}
          data-testid="store-shop-read-only"
        >
          {t('shop.order.readOnly')}
        </Alert>
      )}
      <Stack gap="sm" component="section" aria-labelledby="store-shop-history-title">
        <Title order={2} size="h4" id="store-shop-history-title">
          {t('shop.order.history')}
        </Title>
        <ShopOrdersList source={{ kind: 'store', id: storeId }} />
      </Stack>
    </Stack>
  );
}

function StoreOrderForm({ storeId }: { storeId: string }) {
  const { t } = useTranslation();
  const shop = useStoreShop(storeId);

  if (shop.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (shop.isError) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, shop.error)} />;
  }
  if (!shop.data.available) {
    return (
      <EmptyState
        icon={<IconBuildingStore size={28} />}
        title={t('shop.order.unavailable')}
        description={t('shop.order.unavailableHint')}
        testId="store-shop-unavailable"
      />
    );
  }
  if (shop.data.items.length === 0) {
    return (
      <EmptyState
        icon={<IconBuildingStore size={28} />}
        title={t('shop.order.noItems')}
        description={t('shop.order.noItemsHint', { distributor: shop.data.distributor_name })}
        testId="store-shop-no-items"
      />
    );
  }
  return <OrderForm storeId={storeId} shop={shop.data} onStale={() => shop.refetch()} />;
}

function OrderForm({
  storeId,
  shop,
  onStale,
}: {
  storeId: string;
  shop: StoreShop;
  onStale: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [quantities, setQuantities] = useState<Quantities>({});
  const [note, setNote] = useState('');
  /** The key of the order last tried, kept while the same order is sent again (a retry). */
  const attempt = useRef<{ key: string; signature: string } | null>(null);
  const mutation = useCreateStoreShopOrder(storeId);
  const money = (value: number) => formatEuros(value, i18n.language);
  const distributor = shop.distributor_name ?? '';

  const lines = basketLines(shop.items, quantities);
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  const total = orderTotal(
    lines.map((line) => ({ price: line.item.price, quantity: line.quantity })),
  );
  const hasTooManyLines = lines.length > shopOrderMaxLines;

  function handleQuantity(itemId: string, quantity: number) {
    setQuantities((current) => ({ ...current, [itemId]: clampQuantity(quantity) }));
  }

  function handleSend() {
    if (lines.length === 0 || hasTooManyLines) return;
    openConfirmDialog({
      title: t('shop.order.confirmTitle'),
      message: t('shop.order.confirmMessage', { count: units, total: money(total), distributor }),
      confirmLabel: t('shop.order.send'),
      onConfirm: place,
    });
  }

  function place() {
    const body = {
      lines: lines.map((line) => ({ item_id: line.item.id, quantity: line.quantity })),
      note: note.trim(),
    };
    const signature = JSON.stringify(body);
    if (attempt.current?.signature !== signature) {
      attempt.current = { key: crypto.randomUUID(), signature };
    }
    mutation.mutate(
      { ...body, idempotency_key: attempt.current.key },
      {
        onSuccess: (order) => {
          attempt.current = null;
          setQuantities({});
          setNote('');
          notifySuccess(
            order.status === 'no-email'
              ? t('shop.order.recordedNoEmail', { distributor })
              : t('shop.order.sent', { distributor }),
          );
        },
        onError: (error) => {
          // An item withdrawn meanwhile: read the shop again (the basket keeps the rest).
          if (isApiError(error, 'shop/unknown-item')) onStale();
          notifyError(errorMessage(t, error), { autoClose: saveErrorDurationMs });
        },
      },
    );
  }

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('shop.order.intro', { distributor })}
          </Text>
          <SimpleGrid
            cols={{ base: 1, xs: 2, lg: 3 }}
            spacing="md"
            component="ul"
            aria-label={t('shop.order.items')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            data-testid="store-shop-items"
          >
            {shop.items.map((item) => (
              <ItemCard
                key={item.id}
                item={item}
                quantity={quantities[item.id] ?? 0}
                onChange={(quantity) => handleQuantity(item.id, quantity)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper
          withBorder
          radius="md"
          p="md"
          component="section"
          aria-labelledby="store-shop-basket-title"
          style={{ position: 'sticky', top: 'var(--mantine-spacing-md)' }}
          data-testid="store-shop-basket"
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id="store-shop-basket-title">
              {t('shop.order.basket')}
            </Title>
            {lines.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('shop.order.basketEmpty')}
              </Text>
            ) : (
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {lines.map((line) => (
                  <Group
                    key={line.item.id}
                    component="li"
                    justify="space-between"
                    wrap="nowrap"
                    gap="xs"
                    data-testid="store-shop-basket-line"
                  >
                    <Text size="sm">
                      {line.quantity} × {line.item.name}
                    </Text>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {money(orderTotal([{ price: line.item.price, quantity: line.quantity }]))}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
            <Group justify="space-between">
              <Text fw={600}>{t('shop.order.total')}</Text>
              <Text fw={700} size="lg" data-testid="store-shop-total">
                {money(total)}
              </Text>
            </Group>
            <Textarea
              label={t('shop.order.note')}
              description={t('shop.order.noteHint')}
              rows={3}
              maxLength={shopOrderNoteMaxLength}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              data-testid="store-shop-note"
            />
            {hasTooManyLines ? (
              <Text size="sm" c="red" role="alert">
                {t('shop.order.tooManyLines', { count: shopOrderMaxLines })}
              </Text>
            ) : null}
            <LoadingButton
              fullWidth
              size="md"
              onClick={handleSend}
              loading={mutation.isPending}
              disabled={lines.length === 0 || hasTooManyLines}
              data-testid="store-shop-send"
            >
              {t('shop.order.send')}
            </LoadingButton>
            {lines.length > 0 ? (
              <Button
                variant="subtle"
                color="gray"
                onClick={() => setQuantities({})}
                disabled={mutation.isPending}
                data-testid="store-shop-clear"
              >
                {t('shop.order.clear')}
              </Button>
            ) : null}
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

function ItemCard({
  item,
  quantity,
  onChange,
}: {
  item: StoreShopItem;
  quantity: number;
  onChange: (quantity: number) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Card
      component="li"
      withBorder
      radius="md"
      padding="md"
      data-testid="store-shop-item"
      style={quantity > 0 ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      {item.illustration_url ? (
        <Card.Section mb="sm">
          <Image src={item.illustration_url} alt="" h={120} fit="cover" />
        </Card.Section>
      ) : null}
      <Stack gap={6} h="100%">
        <Text fw={600} data-testid="store-shop-item-name">
          {item.name}
        </Text>
        {item.description ? (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {item.description}
          </Text>
        ) : null}
        <Text size="sm" mt="auto">
          {t('shop.order.unitPrice', { price: formatEuros(item.price, i18n.language) })}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('shop.order.less', { name: item.name })}
            disabled={quantity === 0}
            onClick={() => onChange(quantity - 1)}
            data-testid="store-shop-less"
          >
            <IconMinus size={18} />
          </ActionIcon>
          <NumberInput
            aria-label={t('shop.order.quantity', { name: item.name })}
            placeholder="0"
            hideControls
            allowNegative={false}
            allowDecimal={false}
            min={0}
            max={shopOrderQuantityRange.max}
            clampBehavior="strict"
            value={quantity === 0 ? '' : quantity}
            onChange={(value) => onChange(typeof value === 'number' ? value : Number(value) || 0)}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { textAlign: 'center' } }}
            style={{ flex: 1, minWidth: 0 }}
            data-testid="store-shop-quantity"
          />
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('shop.order.more', { name: item.name })}
            disabled={quantity >= shopOrderQuantityRange.max}
            onClick={() => onChange(quantity + 1)}
            data-testid="store-shop-more"
          >
            <IconPlus size={18} />
          </ActionIcon>
        </Group>
      </Stack>
    </Card>
  );
}

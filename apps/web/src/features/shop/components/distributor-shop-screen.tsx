import { Group, Stack, Switch, Tabs, TextInput } from '@mantine/core';
import type { DistributorShop } from '@mise/shared/shop/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useSaveDistributorShop } from '../api/save-distributor-shop';
import { useUploadShopIllustration } from '../api/upload-shop-illustration';
import { ShopCardsGrid } from './shop-cards-grid';
import {
  distributorDrafts,
  distributorSaveBody,
  moveShownCard,
  newItemDraft,
  type ShopCardValues,
  type ShopItemDraft,
} from './shop-draft';
import { ShopOrdersList } from './shop-orders-list';
import { ShopPriceModal } from './shop-price-modal';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const tabKeys = ['items', 'orders'] as const;

/**
 * The distributor's shop screen (spec 001 §2.10): header with the distributor's name and the
 * modify (save) button, the show-inactive toggle, the shop e-mail, the item cards and the New
 * card; a second tab lists the stores' orders (issue 19).
 */
export function DistributorShopScreen({ shop }: { shop: DistributorShop }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'orders' ? 'orders' : 'items';
  const saveMutation = useSaveDistributorShop(shop.distributor.id);
  const uploadMutation = useUploadShopIllustration({
    kind: 'distributor',
    id: shop.distributor.id,
  });
  const [drafts, setDrafts] = useState<ShopItemDraft[]>(() => distributorDrafts(shop));
  const [shopEmail, setShopEmail] = useState(shop.distributor.shop_email ?? '');
  const [source, setSource] = useState<DistributorShop | null>(shop);
  const [isDirty, setIsDirty] = useState(false);
  const [isShowingInactive, setIsShowingInactive] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [pricesOf, setPricesOf] = useState<{ id: string; name: string } | null>(null);
  /** Items shown even when inactive: those active when read, so a deactivation stays visible. */
  const [activeAtRead, setActiveAtRead] = useState<Set<string>>(() => activeKeys(shop));
  useUnsavedChangesPrompt(isDirty, { keptAcrossParams: ['tab'] });

  // A fresh read replaces the drafts unless the user is editing them.
  if (shop !== source) {
    setSource(shop);
    if (!isDirty) {
      setDrafts(distributorDrafts(shop));
      setShopEmail(shop.distributor.shop_email ?? '');
      setActiveAtRead(activeKeys(shop));
    }
  }

  const isShown = (draft: ShopItemDraft) =>
    isShowingInactive || draft.values.active || draft.id === null || activeAtRead.has(draft.key);
  const shown = drafts.filter(isShown);

  function handleChange(key: string, change: Partial<ShopCardValues>) {
    setDrafts((current) =>
      current.map((draft) =>
        draft.key === key ? { ...draft, values: { ...draft.values, ...change } } : draft,
      ),
    );
    setIsDirty(true);
  }

  function handleMove(key: string, direction: -1 | 1) {
    setDrafts((current) => moveShownCard(current, key, direction, isShown));
    setIsDirty(true);
  }

  function handleAdd() {
    setDrafts((current) => [...current, newItemDraft()]);
    setIsDirty(true);
  }

  function handleTab(value: string | null) {
    const next = new URLSearchParams(searchParams);
    next.set('tab', value === 'orders' ? 'orders' : 'items');
    setSearchParams(next, { replace: true });
  }

  function handleSave() {
    const email = shopEmail.trim();
    if (email !== '' && !emailPattern.test(email)) {
      setEmailError(t('shop.invalidEmail'));
      notifyError(t('shop.invalidEmail'), { autoClose: saveErrorDurationMs });
      return;
    }
    setEmailError(null);
    saveMutation.mutate(distributorSaveBody(drafts, email), {
      onSuccess: (saved) => {
        setIsDirty(false);
        setSource(saved);
        setDrafts(distributorDrafts(saved));
        setShopEmail(saved.distributor.shop_email ?? '');
        setActiveAtRead(activeKeys(saved));
        notifySuccess(t('common.savedSuccessfully'));
      },
      onError: (error) =>
        notifyError(
          isApiError(error, 'conflict/stale-version')
            ? t('errors.conflict/stale-version')
            : errorMessage(t, error),
          { autoClose: saveErrorDurationMs },
        ),
    });
  }

  return (
    <>
      <PageHeader
        title={t('shop.title')}
        subtitle={shop.distributor.name}
        actions={
          tab === 'items' ? (
            <LoadingButton
              onClick={handleSave}
              loading={saveMutation.isPending}
              data-testid="shop-save"
            >
              {t('common.save')}
            </LoadingButton>
          ) : null
        }
      />
      <Tabs value={tab} onChange={handleTab} keepMounted={false}>
        <Tabs.List mb="md">
          {tabKeys.map((key) => (
            <Tabs.Tab key={key} value={key} data-testid={`shop-tab-${key}`}>
              {t(`shop.tabs.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="items">
          <Stack gap="md" data-testid="shop-items">
            <Group justify="space-between" align="flex-end" wrap="wrap">
              <TextInput
                type="email"
                label={t('shop.shopEmail')}
                description={t('shop.shopEmailHint')}
                value={shopEmail}
                onChange={(event) => {
                  setShopEmail(event.currentTarget.value);
                  setEmailError(null);
                  setIsDirty(true);
                }}
                error={emailError}
                maxLength={254}
                w={{ base: '100%', sm: 360 }}
                data-testid="shop-email"
              />
              <Switch
                label={t('shop.showInactive')}
                checked={isShowingInactive}
                onChange={(event) => setIsShowingInactive(event.currentTarget.checked)}
                data-testid="shop-show-inactive"
              />
            </Group>
            {drafts.length === 0 ? (
              <EmptyState title={t('shop.empty')} testId="shop-empty" />
            ) : null}
            <ShopCardsGrid
              drafts={shown}
              isEditable={shop.can_edit}
              onChange={handleChange}
              onMove={handleMove}
              onUpload={(file) => uploadMutation.mutateAsync({ file })}
              onAdd={handleAdd}
              onPrices={(draft) => {
                if (draft.id) setPricesOf({ id: draft.id, name: draft.values.name });
              }}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="orders">
          <ShopOrdersList source={{ kind: 'distributor', id: shop.distributor.id }} />
        </Tabs.Panel>
      </Tabs>
      <ShopPriceModal
        distributorId={shop.distributor.id}
        item={pricesOf}
        onClose={() => setPricesOf(null)}
      />
    </>
  );
}

function activeKeys(shop: DistributorShop): Set<string> {
  return new Set(shop.items.filter((item) => item.active).map((item) => item.id));
}

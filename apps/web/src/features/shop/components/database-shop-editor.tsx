import { Group, Stack, Text } from '@mantine/core';
import type { DatabaseShop } from '@mise/shared/shop/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useDatabaseShop } from '../api/get-database-shop';
import { useSaveDatabaseShop } from '../api/save-database-shop';
import { useUploadShopIllustration } from '../api/upload-shop-illustration';
import { ShopCardsGrid } from './shop-cards-grid';
import {
  databaseDrafts,
  databaseSaveBody,
  moveShownCard,
  newItemDraft,
  type ShopCardValues,
  type ShopItemDraft,
} from './shop-draft';

export type DatabaseShopEditorProps = { databaseId: string };

/**
 * The shop tab of the database screen (spec 001 §2.1, §2.3, §4): the distributor's items merged
 * with the database's copies (a distributor item without a copy shows as a copy not saved yet),
 * the database's own items and an add card. Editable by the distributor and admins only, with
 * its own Save (as the tags and roles tabs); read-only otherwise.
 */
export function DatabaseShopEditor({ databaseId }: DatabaseShopEditorProps) {
  const { t } = useTranslation();
  const query = useDatabaseShop(databaseId);
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('shop.empty')}>
      {(shop) =>
        shop.has_shop ? (
          <DatabaseShopForm shop={shop} />
        ) : (
          <EmptyState
            title={t('shop.database.noShop')}
            description={t('shop.database.noShopHint')}
            testId="database-shop-none"
          />
        )
      }
    </QueryContent>
  );
}

function DatabaseShopForm({ shop }: { shop: DatabaseShop }) {
  const { t } = useTranslation();
  const saveMutation = useSaveDatabaseShop(shop.database.id);
  const uploadMutation = useUploadShopIllustration({ kind: 'database', id: shop.database.id });
  const [drafts, setDrafts] = useState<ShopItemDraft[]>(() => databaseDrafts(shop));
  const [source, setSource] = useState<DatabaseShop | null>(shop);
  const [isDirty, setIsDirty] = useState(false);
  const isEditable = shop.can_edit;
  // The tab lives inside the database screen: switching tabs unmounts it, so it asks too.
  useUnsavedChangesPrompt(isDirty);

  if (shop !== source) {
    setSource(shop);
    if (!isDirty) setDrafts(databaseDrafts(shop));
  }

  function handleChange(key: string, change: Partial<ShopCardValues>) {
    setDrafts((current) =>
      current.map((draft) =>
        draft.key === key ? { ...draft, values: { ...draft.values, ...change } } : draft,
      ),
    );
    setIsDirty(true);
  }

  function handleSave() {
    saveMutation.mutate(databaseSaveBody(drafts), {
      onSuccess: (saved) => {
        setIsDirty(false);
        setSource(saved);
        setDrafts(databaseDrafts(saved));
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
    <Stack gap="md" data-testid="database-shop">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('shop.database.intro', { distributor: shop.distributor?.name ?? '' })}
        </Text>
        {isEditable ? (
          <LoadingButton
            onClick={handleSave}
            loading={saveMutation.isPending}
            data-testid="database-shop-save"
          >
            {t('common.save')}
          </LoadingButton>
        ) : (
          <Text size="sm" c="dimmed" data-testid="database-shop-read-only">
            {t('shop.database.readOnly')}
          </Text>
        )}
      </Group>
      {drafts.length === 0 && !isEditable ? (
        <EmptyState title={t('shop.empty')} testId="database-shop-empty" />
      ) : null}
      <ShopCardsGrid
        drafts={drafts}
        isEditable={isEditable}
        onChange={handleChange}
        onMove={(key, direction) => {
          setDrafts((current) => moveShownCard(current, key, direction, () => true));
          setIsDirty(true);
        }}
        onUpload={(file) => uploadMutation.mutateAsync({ file })}
        onAdd={() => {
          setDrafts((current) => [...current, newItemDraft()]);
          setIsDirty(true);
        }}
      />
    </Stack>
  );
}

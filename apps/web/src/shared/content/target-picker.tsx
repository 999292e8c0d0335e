import { Loader, MultiSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import type { TargetInput } from '@mise/shared/communications/schemas';
import { type TargetKind, withTargetKind } from '@mise/shared/communications/targeting';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';

/** How many options a list draws at once (a database may have thousands of stores). */
const optionsLimit = 100;

export type TargetOption = { value: string; label: string };

/** Options of the picked ids too, so an inactive tag or role already aimed at stays visible. */
export function withPicked<T extends { id: string; name: string; active?: boolean }>(
  items: readonly T[],
  picked: readonly string[],
  label: (item: T) => string = (item) => item.name,
): TargetOption[] {
  const chosen = new Set(picked);
  return items
    .filter((item) => item.active !== false || chosen.has(item.id))
    .map((item) => ({ value: item.id, label: label(item) }));
}

/** A store's option: its name, and its city when known. */
export const storeLabel = (store: { name: string; city?: string | null }) =>
  store.city ? `${store.name} — ${store.city}` : store.name;

type TargetPickerProps = {
  target: TargetInput;
  /** The kind shown (kept apart from the lists: "stores" with none picked yet is a choice). */
  kind: TargetKind;
  onChange: (target: TargetInput, kind: TargetKind) => void;
  storeOptions: readonly TargetOption[];
  /** The store groups (tags) that may be picked; null when groups are not offered. */
  tagOptions: readonly TargetOption[] | null;
  /** The options are loading, or failed to load. */
  isLoading: boolean;
  error: unknown;
  /** What "everyone" means here (shown when nothing narrows the target). */
  everyoneHint: string;
  /** Test ids: `<prefix>-kind`, `-stores`, `-groups`, `-union`, `-everyone`. */
  testIdPrefix: string;
};

/**
 * Who receives a communication or a training (spec 002 §3 Target, §4 targeting): everyone,
 * picked stores or store groups (tags, matching any or all of them); picking one kind clears
 * the other.
 */
export function TargetPicker({
  target,
  kind,
  onChange,
  storeOptions,
  tagOptions,
  isLoading,
  error,
  everyoneHint,
  testIdPrefix,
}: TargetPickerProps) {
  const { t } = useTranslation();
  const kindLabelId = useId();
  const kinds = tagOptions
    ? (['everyone', 'stores', 'groups'] as const)
    : (['everyone', 'stores'] as const);

  function handleKind(value: string) {
    const next = value as TargetKind;
    onChange(withTargetKind(target, next), next);
  }

  const isListEmpty =
    (kind === 'stores' && target.stores.length === 0) ||
    (kind === 'groups' && target.store_tags.length === 0);
  const loader = isLoading ? <Loader size="xs" /> : undefined;

  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Text size="sm" fw={500} id={kindLabelId}>
          {t('content.target.kind')}
        </Text>
        <SegmentedControl
          value={kind}
          onChange={handleKind}
          data={kinds.map((value) => ({ value, label: t(`content.target.kinds.${value}`) }))}
          aria-labelledby={kindLabelId}
          fullWidth
          data-testid={`${testIdPrefix}-kind`}
        />
      </Stack>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(t, error)}
        </Text>
      ) : null}
      {kind === 'stores' ? (
        <MultiSelect
          label={t('content.target.stores')}
          placeholder={t('content.target.storesPlaceholder')}
          data={storeOptions}
          value={[...target.stores]}
          onChange={(picked) => onChange(withTargetKind(target, 'stores', picked), 'stores')}
          searchable
          clearable
          limit={optionsLimit}
          hidePickedOptions
          nothingFoundMessage={t('common.nothingFound')}
          rightSection={loader}
          data-testid={`${testIdPrefix}-stores`}
        />
      ) : null}
      {kind === 'groups' && tagOptions ? (
        <>
          <MultiSelect
            label={t('content.target.groups')}
            placeholder={t('content.target.groupsPlaceholder')}
            data={tagOptions}
            value={[...target.store_tags]}
            onChange={(picked) => onChange(withTargetKind(target, 'groups', picked), 'groups')}
            searchable
            clearable
            limit={optionsLimit}
            hidePickedOptions
            nothingFoundMessage={t('common.nothingFound')}
            rightSection={loader}
            data-testid={`${testIdPrefix}-groups`}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`${kindLabelId}-union`}>
              {t('content.target.match')}
            </Text>
            <SegmentedControl
              value={target.store_tags_union ? 'union' : 'intersection'}
              onChange={(value) =>
                onChange({ ...target, store_tags_union: value === 'union' }, kind)
              }
              data={[
                { value: 'union', label: t('content.target.union') },
                { value: 'intersection', label: t('content.target.intersection') },
              ]}
              aria-labelledby={`${kindLabelId}-union`}
              fullWidth
              data-testid={`${testIdPrefix}-union`}
            />
          </Stack>
        </>
      ) : null}
      {isListEmpty || kind === 'everyone' ? (
        <Text size="xs" c="dimmed" data-testid={`${testIdPrefix}-everyone`}>
          {everyoneHint}
        </Text>
      ) : null}
    </Stack>
  );
}

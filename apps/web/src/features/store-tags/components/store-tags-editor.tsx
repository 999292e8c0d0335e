import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { duplicateTagToastMs, newTagName } from '@mise/shared/people/constants';
import {
  IconArrowLeft,
  IconArrowRight,
  IconPlus,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { type StoreTags, storeTagsQueryOptions, useStoreTags } from '../api/get-store-tags';
import { type SaveStoreTagsBody, useSaveStoreTags } from '../api/save-store-tags';
import {
  addStoresToTag,
  hasBlankTagName,
  hasDuplicateTagName,
  removeStoresFromTag,
} from './tag-rules';

export type StoreTagsEditorProps = { databaseId: string };

type TagDraft = {
  /** The id, or a local key for a tag not saved yet. */
  key: string;
  id?: string;
  name: string;
  active: boolean;
  store_ids: string[];
};

type TagStore = StoreTags['stores'][number];

function draftsFrom(data: StoreTags): TagDraft[] {
  return data.items.map((tag) => ({
    key: tag.id,
    id: tag.id,
    name: tag.name,
    active: tag.active,
    store_ids: [...tag.store_ids],
  }));
}

/**
 * The body of a save: every tag (spec 001 §4). A removed tag that was saved before is sent with
 * active false; one that was never saved is simply not sent.
 */
export function tagsSaveBody(tags: readonly TagDraft[]): SaveStoreTagsBody {
  return {
    tags: tags
      .filter((tag) => tag.id !== undefined || tag.active)
      .map((tag) => ({
        ...(tag.id ? { id: tag.id } : {}),
        name: tag.name.trim(),
        active: tag.active,
        store_ids: tag.store_ids,
      })),
  };
}

function showDuplicateNameToast(message: string) {
  notifyError(message, { autoClose: duplicateTagToastMs });
}

/** Tags editor of a database (spec 001 §2.2, §4, §5): tags and the stores that carry them. */
export function StoreTagsEditor({ databaseId }: StoreTagsEditorProps) {
  const { t } = useTranslation();
  const query = useStoreTags(databaseId);
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('storeTags.empty')}>
      {(data) => <TagsForm databaseId={databaseId} data={data} readAt={query.dataUpdatedAt} />}
    </QueryContent>
  );
}

let localKeySequence = 0;

function firstActiveKey(tags: readonly TagDraft[]): string | null {
  return tags.find((tag) => tag.active)?.key ?? null;
}

/**
 * The tag of a fresh read that stands for the one selected: the same id, else (a new tag
 * that got its id on save) the same name; names are unique among active tags.
 */
function keptSelection(next: readonly TagDraft[], previous: TagDraft | undefined): string | null {
  if (previous === undefined) return firstActiveKey(next);
  const name = previous.name.trim().toLocaleLowerCase();
  const kept =
    next.find((tag) => tag.active && tag.key === previous.key) ??
    next.find((tag) => tag.active && tag.name.trim().toLocaleLowerCase() === name);
  return kept?.key ?? firstActiveKey(next);
}

type TagsFormProps = {
  databaseId: string;
  data: StoreTags;
  /** When `data` was read: a read older than the one the form took is not taken again. */
  readAt: number;
};

function TagsForm({ databaseId, data, readAt }: TagsFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saveMutation = useSaveStoreTags(databaseId);
  const [tags, setTags] = useState<TagDraft[]>(() => draftsFrom(data));
  const [takenReadAt, setTakenReadAt] = useState(readAt);
  const [isDirty, setIsDirty] = useState(false);
  const [selectedKey, setSelectedKey] = useState<string | null>(() =>
    firstActiveKey(draftsFrom(data)),
  );
  const [search, setSearch] = useState('');
  const [checkedAvailable, setCheckedAvailable] = useState<string[]>([]);
  const [checkedSelected, setCheckedSelected] = useState<string[]>([]);
  const isEditable = data.editable;
  useUnsavedChangesPrompt(isDirty);

  // A fresh read replaces the draft unless the user is editing it; the selection follows the
  // tag by id, else by name (a new tag gets its id on save). A render that still carries the
  // read from before a save is not fresh: taking it selected another tag (issue 13).
  if (readAt > takenReadAt) {
    setTakenReadAt(readAt);
    if (!isDirty) {
      const next = draftsFrom(data);
      setTags(next);
      setSelectedKey(
        keptSelection(
          next,
          tags.find((tag) => tag.key === selectedKey),
        ),
      );
    }
  }

  const activeTags = tags.filter((tag) => tag.active);
  const selected = activeTags.find((tag) => tag.key === selectedKey) ?? null;
  const storesById = new Map(data.stores.map((store) => [store.id, store]));
  const selectedStores = (selected?.store_ids ?? [])
    .map((id) => storesById.get(id))
    .filter((store): store is TagStore => store !== undefined);
  const needle = search.trim().toLocaleLowerCase();
  const availableStores = data.stores
    .filter((store) => !selected?.store_ids.includes(store.id))
    .filter(
      (store) =>
        needle === '' ||
        store.name.toLocaleLowerCase().includes(needle) ||
        store.city.toLocaleLowerCase().includes(needle),
    );

  function selectTag(key: string | null) {
    setSelectedKey(key);
    setCheckedAvailable([]);
    setCheckedSelected([]);
  }

  function updateTag(key: string, change: (tag: TagDraft) => Partial<TagDraft>) {
    setTags((current) =>
      current.map((tag) => (tag.key === key ? { ...tag, ...change(tag) } : tag)),
    );
    setIsDirty(true);
  }

  function handleAdd() {
    localKeySequence += 1;
    const key = `new-${localKeySequence}`;
    setTags((current) => [...current, { key, name: newTagName, active: true, store_ids: [] }]);
    selectTag(key);
    setIsDirty(true);
  }

  function handleDelete() {
    if (!selected) return;
    const key = selected.key;
    openConfirmDialog({
      // The spec's question stays as written; the title names the tag it is about.
      title: t('storeTags.deleteTitle', { name: selected.name.trim() }),
      message: t('storeTags.deleteConfirm'),
      confirmLabel: t('dialog.yes'),
      cancelLabel: t('dialog.no'),
      isDanger: true,
      onConfirm: () => {
        // A tag is never deleted, only marked inactive (spec 001 §4).
        const next = tags.map((tag) => (tag.key === key ? { ...tag, active: false } : tag));
        setTags(next);
        setIsDirty(true);
        selectTag(firstActiveKey(next));
      },
    });
  }

  function handleAddStores() {
    if (!selected) return;
    const visible = new Set(availableStores.map((store) => store.id));
    const added = checkedAvailable.filter((id) => visible.has(id));
    if (added.length === 0) return;
    updateTag(selected.key, (tag) => ({ store_ids: addStoresToTag(tag.store_ids, added) }));
    setCheckedAvailable([]);
  }

  function handleRemoveStores() {
    if (!selected || checkedSelected.length === 0) return;
    const removed = checkedSelected;
    updateTag(selected.key, (tag) => ({ store_ids: removeStoresFromTag(tag.store_ids, removed) }));
    setCheckedSelected([]);
  }

  async function handleSave() {
    if (hasBlankTagName(tags)) {
      notifyError(t('errors.store-tag/invalid-name'), { autoClose: saveErrorDurationMs });
      return;
    }
    if (hasDuplicateTagName(tags)) {
      showDuplicateNameToast(t('errors.store-tag/duplicate-name'));
      return;
    }
    const previous = tags.find((tag) => tag.key === selectedKey);
    try {
      await saveMutation.mutateAsync(tagsSaveBody(tags));
      // Take the saved tags (with their ids) from the read that follows the save, and keep the
      // tag that was selected: a new one is found by its name, not by whatever read came first.
      const options = storeTagsQueryOptions(databaseId);
      const fresh = await queryClient.fetchQuery(options);
      const next = draftsFrom(fresh);
      setTags(next);
      setTakenReadAt(queryClient.getQueryState(options.queryKey)?.dataUpdatedAt ?? Date.now());
      setIsDirty(false);
      selectTag(keptSelection(next, previous));
      notifySuccess(t('storeTags.saved'));
    } catch (error) {
      if (isApiError(error, 'store-tag/duplicate-name')) {
        showDuplicateNameToast(t('errors.store-tag/duplicate-name'));
        return;
      }
      notifyError(errorMessage(t, error), { autoClose: saveErrorDurationMs });
    }
  }

  return (
    <Card withBorder radius="md" data-testid="tags-editor">
      <Group justify="space-between" mb="md">
        <Title order={4}>{t('storeTags.title')}</Title>
        {isEditable ? (
          <LoadingButton
            onClick={handleSave}
            loading={saveMutation.isPending}
            data-testid="tags-save"
          >
            {t('common.save')}
          </LoadingButton>
        ) : (
          <Text size="sm" c="dimmed" data-testid="tags-read-only">
            {t('storeTags.readOnly')}
          </Text>
        )}
      </Group>
      <Group align="flex-end" gap="sm" mb="lg" wrap="wrap">
        <Select
          label={t('storeTags.tag')}
          placeholder={t('storeTags.noTag')}
          data={activeTags.map((tag) => ({
            value: tag.key,
            label: tag.name.trim() === '' ? t('storeTags.unnamed') : tag.name,
          }))}
          value={selected?.key ?? null}
          onChange={selectTag}
          allowDeselect={false}
          nothingFoundMessage={t('common.nothingFound')}
          w={240}
          data-testid="tag-select"
        />
        <TextInput
          label={t('storeTags.name')}
          value={selected?.name ?? ''}
          onChange={(event) => {
            const name = event.currentTarget.value;
            if (selected) updateTag(selected.key, () => ({ name }));
          }}
          disabled={!selected}
          readOnly={!isEditable}
          w={240}
          data-testid="tag-name-input"
        />
        {isEditable ? (
          <>
            <Tooltip label={t('storeTags.delete')}>
              <ActionIcon
                variant="light"
                color="red"
                size="lg"
                onClick={handleDelete}
                disabled={!selected}
                aria-label={t('storeTags.delete')}
                data-testid="tag-delete"
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={handleAdd}
              data-testid="tag-add"
            >
              {t('storeTags.add')}
            </Button>
          </>
        ) : null}
      </Group>
      {selected ? (
        <Group align="stretch" gap="md" wrap="nowrap">
          <StoreListPanel
            title={t('storeTags.storesWithout')}
            stores={availableStores}
            checked={checkedAvailable}
            onCheckedChange={setCheckedAvailable}
            isDisabled={!isEditable}
            emptyText={t('storeTags.noStore')}
            testId="tags-available-list"
            header={
              <TextInput
                placeholder={t('common.search')}
                leftSection={<IconSearch size={14} />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                aria-label={t('common.search')}
                data-testid="tags-available-search"
              />
            }
          />
          <Stack justify="center" gap="sm">
            <ActionIcon
              variant="filled"
              size="lg"
              onClick={handleAddStores}
              disabled={!isEditable || checkedAvailable.length === 0}
              aria-label={t('storeTags.addStores')}
              data-testid="tags-add-stores"
            >
              <IconArrowRight size={18} />
            </ActionIcon>
            <ActionIcon
              variant="filled"
              size="lg"
              onClick={handleRemoveStores}
              disabled={!isEditable || checkedSelected.length === 0}
              aria-label={t('storeTags.removeStores')}
              data-testid="tags-remove-stores"
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Stack>
          <StoreListPanel
            title={t('storeTags.storesWith')}
            stores={selectedStores}
            checked={checkedSelected}
            onCheckedChange={setCheckedSelected}
            isDisabled={!isEditable}
            emptyText={t('storeTags.noStore')}
            testId="tags-selected-list"
          />
        </Group>
      ) : (
        <Text size="sm" c="dimmed" data-testid="tags-empty">
          {t('storeTags.empty')}
        </Text>
      )}
    </Card>
  );
}

type StoreListPanelProps = {
  title: string;
  stores: readonly TagStore[];
  checked: string[];
  onCheckedChange: (ids: string[]) => void;
  isDisabled: boolean;
  emptyText: string;
  testId: string;
  header?: ReactNode;
};

/** One of the two store lists: stores to select with checkboxes. */
function StoreListPanel({
  title,
  stores,
  checked,
  onCheckedChange,
  isDisabled,
  emptyText,
  testId,
  header,
}: StoreListPanelProps) {
  return (
    <Paper withBorder p="sm" radius="sm" style={{ flex: 1, minWidth: 0 }}>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {title}
        </Text>
        {header}
        <ScrollArea.Autosize mah={360}>
          <Checkbox.Group value={checked} onChange={onCheckedChange}>
            <Stack gap={6} data-testid={testId}>
              {stores.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {emptyText}
                </Text>
              ) : (
                stores.map((store) => (
                  <Checkbox
                    key={store.id}
                    value={store.id}
                    label={store.name}
                    description={store.city || undefined}
                    disabled={isDisabled}
                    data-testid="tag-store"
                    data-store-id={store.id}
                  />
                ))
              )}
            </Stack>
          </Checkbox.Group>
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}

import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { maxActionsPerConfiguration } from '@mise/shared/tasks/constants';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useElementOptions } from '../api/get-element-options';
import { type ContentDraft, nextActionKey } from './task-configuration-form';
import { useTaskConfigurationForm } from './task-configuration-form-context';

type ModuleContentEditorProps = {
  /** The database or store whose elements are offered. */
  ownerId: string;
  /** Names of the referenced elements as the configuration's level sees them. */
  elementNames: Readonly<Record<string, string>>;
};

/**
 * The module's content (spec 001 §2.6, §3.6): the element picker and the delivery / automatic
 * switches for Temperatures, the element picker for Oils, the sub-task list for Action.
 */
export function ModuleContentEditor({ ownerId, elementNames }: ModuleContentEditorProps) {
  const { t } = useTranslation();
  const { level, draft, setValue, isFieldReadOnly } = useTaskConfigurationForm();
  const module = draft.module;
  const content = draft.values.configuration;
  const isReadOnly = isFieldReadOnly('configuration');
  const options = useElementOptions(
    level,
    ownerId,
    module === 'temperatures' || module === 'oils' ? module : null,
  );
  const update = (patch: Partial<ContentDraft>) =>
    setValue('configuration', { ...content, ...patch });

  if (!module) {
    return (
      <Text size="sm" c="dimmed" data-testid="module-content-none">
        {t('taskConfiguration.selectModuleFirst')}
      </Text>
    );
  }

  if (module === 'actions') {
    const actions = content.actions;
    const setAction = (key: string, patch: Partial<ContentDraft['actions'][number]>) =>
      update({
        actions: actions.map((action) => (action.key === key ? { ...action, ...patch } : action)),
      });
    return (
      <Stack gap="xs" data-testid="actions-editor">
        {actions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('taskConfiguration.actions.empty')}
          </Text>
        ) : null}
        {actions.map((action, index) => (
          <Group key={action.key} gap="sm" wrap="nowrap" data-testid="action-row">
            <TextInput
              aria-label={t('taskConfiguration.actions.name', { index: index + 1 })}
              placeholder={t('taskConfiguration.actions.placeholder')}
              value={action.name}
              onChange={(event) => setAction(action.key, { name: event.currentTarget.value })}
              readOnly={isReadOnly}
              maxLength={200}
              style={{ flex: 1 }}
              data-testid="action-name"
            />
            <Switch
              label={t('taskConfiguration.actions.requiresPicture')}
              checked={action.requires_picture}
              disabled={isReadOnly}
              onChange={(event) =>
                setAction(action.key, { requires_picture: event.currentTarget.checked })
              }
              data-testid="action-requires-picture"
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('taskConfiguration.actions.remove')}
              disabled={isReadOnly}
              onClick={() => update({ actions: actions.filter((item) => item.key !== action.key) })}
              data-testid="action-remove"
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {isReadOnly ? null : (
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={actions.length >= maxActionsPerConfiguration}
              onClick={() =>
                update({
                  actions: [
                    ...actions,
                    { key: nextActionKey(), name: '', requires_picture: false, attachments: [] },
                  ],
                })
              }
              data-testid="action-add"
            >
              {t('taskConfiguration.actions.add')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  const data = (options.data ?? []).map((option) => ({ value: option.id, label: option.name }));
  const known = new Set(data.map((option) => option.value));
  // Elements referenced but not offered (inactive, or seen through another id) keep their name.
  for (const id of content.elementIds)
    if (!known.has(id)) data.push({ value: id, label: elementNames[id] ?? id });

  return (
    <Stack gap="sm">
      <MultiSelect
        label={t('taskConfiguration.fields.elements')}
        placeholder={t('taskConfiguration.elementsPlaceholder')}
        data={data}
        value={content.elementIds}
        onChange={(elementIds) => update({ elementIds })}
        readOnly={isReadOnly}
        searchable
        clearable={!isReadOnly}
        nothingFoundMessage={t('common.nothingFound')}
        data-testid="field-elements"
      />
      {module === 'temperatures' ? (
        <Group gap="xl">
          <Switch
            label={t('taskConfiguration.fields.is_delivery')}
            checked={content.isDelivery}
            disabled={isReadOnly}
            onChange={(event) => update({ isDelivery: event.currentTarget.checked })}
            data-testid="field-is_delivery"
          />
          <Switch
            label={t('taskConfiguration.fields.automatic')}
            checked={content.isAutomatic}
            disabled={isReadOnly}
            onChange={(event) => update({ isAutomatic: event.currentTarget.checked })}
            data-testid="field-automatic"
          />
        </Group>
      ) : null}
    </Stack>
  );
}

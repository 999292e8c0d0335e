import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { maxActionsPerConfiguration } from '@mise/shared/tasks/constants';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useElementOptions } from '../api/get-element-options';
import { type ActionAttachment, ActionAttachments } from './action-attachments';
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
  // An upload ends after later renders: its change applies to the content as it is then.
  const contentRef = useRef(content);
  contentRef.current = content;
  const update = (patch: Partial<ContentDraft>) =>
    setValue('configuration', { ...contentRef.current, ...patch });

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
        actions: contentRef.current.actions.map((action) =>
          action.key === key ? { ...action, ...patch } : action,
        ),
      });
    const changeAttachments = (
      key: string,
      change: (attachments: ActionAttachment[]) => ActionAttachment[],
    ) =>
      update({
        actions: contentRef.current.actions.map((action) =>
          action.key === key ? { ...action, attachments: change(action.attachments) } : action,
        ),
      });
    return (
      <Stack gap="xs" data-testid="actions-editor">
        {actions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('taskConfiguration.actions.empty')}
          </Text>
        ) : null}
        {actions.map((action, index) => (
          <Paper key={action.key} withBorder p="xs" radius="sm" data-testid="action-row">
            <Group gap="sm" wrap="wrap">
              <TextInput
                aria-label={t('taskConfiguration.actions.name', { index: index + 1 })}
                placeholder={t('taskConfiguration.actions.placeholder')}
                value={action.name}
                onChange={(event) => setAction(action.key, { name: event.currentTarget.value })}
                readOnly={isReadOnly}
                maxLength={200}
                style={{ flex: '1 1 12rem' }}
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
                onClick={() =>
                  update({
                    actions: contentRef.current.actions.filter((item) => item.key !== action.key),
                  })
                }
                data-testid="action-remove"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <ActionAttachments
              index={index + 1}
              attachments={action.attachments}
              level={level}
              ownerId={ownerId}
              isReadOnly={isReadOnly}
              onAdd={(attachment) =>
                changeAttachments(action.key, (current) => [...current, attachment])
              }
              onRename={(position, name) =>
                changeAttachments(action.key, (current) =>
                  current.map((item, at) => (at === position ? { ...item, name } : item)),
                )
              }
              onRemove={(position) =>
                changeAttachments(action.key, (current) =>
                  current.filter((_, at) => at !== position),
                )
              }
            />
          </Paper>
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
                    ...contentRef.current.actions,
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

import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  freeformPreview,
  fromLabelHours,
  type LabelValues,
  labelTypeFields,
  newLabelValues,
} from '@mise/shared/catalogue/rules';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LabelDraft, nextLabelKey } from './element-form';
import { useElementForm } from './element-form-context';
import { FieldStateControl } from './field-state-control';
import { LabelDialog } from './label-dialog';
import { LabelPreview } from './label-preview';
import { ModuleActiveSwitch } from './module-fields';

type DialogState = { key: string | null; initial: LabelValues } | null;

function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * Labels of the element (spec 001 §2.5, §3.4): list, create/edit dialog, up/down reorder,
 * active toggle, and a print preview. Saved with the element, in this order.
 */
export function LabelsTab() {
  const { t } = useTranslation();
  const { level, draft, isReadOnly, isFieldReadOnly, update } = useElementForm();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [previewKey, setPreviewKey] = useState<string | null>(null);
  const isLabelsReadOnly = isFieldReadOnly('labels');
  const labels = draft.labels;
  const previewLabel = labels.find((label) => label.key === previewKey) ?? labels[0] ?? null;

  function setLabels(change: (current: LabelDraft[]) => LabelDraft[]) {
    update((current) => ({ ...current, labels: change(current.labels) }));
  }

  function changeLabel(key: string, values: Partial<LabelValues>) {
    setLabels((current) =>
      current.map((label) =>
        label.key === key
          ? {
              ...label,
              ...values,
              state: label.state === 'inherited' ? 'overridden' : label.state,
            }
          : label,
      ),
    );
  }

  function handleSubmit(values: LabelValues) {
    if (dialog?.key) {
      changeLabel(dialog.key, values);
    } else {
      const key = nextLabelKey();
      setLabels((current) => [
        ...current,
        {
          ...values,
          key,
          id: null,
          origin_id: null,
          index: current.length,
          state: 'own',
        },
      ]);
      setPreviewKey(key);
    }
    setDialog(null);
  }

  function durationText(hours: number) {
    const { days, hours: remainder } = fromLabelHours(hours);
    return t('label.duration', { days, hours: remainder });
  }

  function summary(label: LabelDraft) {
    const fields = labelTypeFields(label.type);
    if (fields.freeform) {
      return level === 'database'
        ? freeformPreview(label.expiration_text)
        : (label.expiration_text ?? '');
    }
    const parts: string[] = [];
    if (fields.defrosting)
      parts.push(`${t('label.defrosting')}: ${durationText(label.defrosting_duration)}`);
    if (fields.expiration)
      parts.push(`${t('label.expiration')}: ${durationText(label.expiration_duration)}`);
    return parts.join(' · ');
  }

  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="labels_module_active" />
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={500}>{t('label.title')}</Text>
          <FieldStateControl field="labels" />
        </Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={isLabelsReadOnly}
          onClick={() => setDialog({ key: null, initial: newLabelValues() })}
          data-testid="label-add"
        >
          {t('label.add')}
        </Button>
      </Group>
      {labels.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="labels-empty">
          {t('label.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" data-testid="labels-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('label.name')}</Table.Th>
                <Table.Th>{t('label.type')}</Table.Th>
                <Table.Th>{t('label.durations')}</Table.Th>
                <Table.Th>{t('common.active')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {labels.map((label, position) => (
                <Table.Tr
                  key={label.key}
                  data-testid="label-row"
                  onClick={() => setPreviewKey(label.key)}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" data-testid="label-row-name">
                        {label.name}
                      </Text>
                      {level === 'store' && label.state !== 'own' ? (
                        <Badge size="xs" variant="light" data-testid="label-row-state">
                          {t(`element.states.${label.state}`)}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t(`label.types.${label.type}`)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="label-row-summary">
                      {summary(label)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={label.active}
                      disabled={isLabelsReadOnly}
                      aria-label={t('common.active')}
                      onClick={(event) => event.stopPropagation()}
                      onChange={(event) =>
                        changeLabel(label.key, { active: event.currentTarget.checked })
                      }
                      data-testid="label-row-active"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('element.moveUp')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('element.moveUp')}
                          disabled={isLabelsReadOnly || position === 0}
                          onClick={(event) => {
                            event.stopPropagation();
                            setLabels((current) => moved(current, position, position - 1));
                          }}
                          data-testid="label-up"
                        >
                          <IconArrowUp size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('element.moveDown')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('element.moveDown')}
                          disabled={isLabelsReadOnly || position === labels.length - 1}
                          onClick={(event) => {
                            event.stopPropagation();
                            setLabels((current) => moved(current, position, position + 1));
                          }}
                          data-testid="label-down"
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('label.edit')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('label.edit')}
                          disabled={isLabelsReadOnly}
                          onClick={(event) => {
                            event.stopPropagation();
                            setDialog({ key: label.key, initial: label });
                          }}
                          data-testid="label-edit"
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      {level === 'store' && label.origin_id ? null : (
                        <Tooltip label={t('label.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('label.delete')}
                            disabled={isLabelsReadOnly}
                            onClick={(event) => {
                              event.stopPropagation();
                              setLabels((current) =>
                                current.filter((item) => item.key !== label.key),
                              );
                            }}
                            data-testid="label-delete"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {isReadOnly || !isLabelsReadOnly ? null : (
        <Text size="xs" c="dimmed" data-testid="labels-locked">
          {t('element.lock.lockedByDatabase')}
        </Text>
      )}
      {previewLabel ? <LabelPreview label={previewLabel} elementName={draft.values.name} /> : null}
      {dialog ? (
        <LabelDialog
          opened
          initial={dialog.initial}
          isNew={dialog.key === null}
          onClose={() => setDialog(null)}
          onSubmit={handleSubmit}
        />
      ) : null}
    </Stack>
  );
}

import {
  ActionIcon,
  Button,
  Card,
  Group,
  NavLink,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { trainingLimits } from '@mise/shared/trainings/schemas';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import type { SectionDraft } from './training-draft';

type SectionTitleInputProps = {
  value: string;
  onChange: (value: string) => void;
  onCommit: () => void;
  onCancel: () => void;
};

/** Renaming in place: focused and selected at once; Enter or leaving keeps, Escape cancels. */
function SectionTitleInput({ value, onChange, onCommit, onCancel }: SectionTitleInputProps) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);
  return (
    <TextInput
      ref={inputRef}
      label={t('trainings.sections.titleLabel')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onCommit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onCommit();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
      maxLength={trainingLimits.sectionTitleMax}
      data-testid="training-section-title"
    />
  );
}

type SectionRowProps = {
  section: SectionDraft;
  index: number;
  isSelected: boolean;
  isInvalid: boolean;
  canRemove: boolean;
  onSelect: () => void;
  onRename: (title: string) => void;
  onRemove: () => void;
};

function SectionRow({
  section,
  index,
  isSelected,
  isInvalid,
  canRemove,
  onSelect,
  onRename,
  onRemove,
}: SectionRowProps) {
  const { t } = useTranslation();
  const [editedTitle, setEditedTitle] = useState<string | null>(null);
  const names = { title: section.title };

  function commit() {
    const title = editedTitle?.trim() ?? '';
    // An empty title is not a title (the server refuses it): the previous one stays.
    if (title && title !== section.title) onRename(title);
    setEditedTitle(null);
  }

  if (editedTitle !== null) {
    return (
      <li>
        <SectionTitleInput
          value={editedTitle}
          onChange={setEditedTitle}
          onCommit={commit}
          onCancel={() => setEditedTitle(null)}
        />
      </li>
    );
  }

  return (
    <Group
      component="li"
      gap={4}
      wrap="nowrap"
      align="center"
      data-testid="training-section"
      data-section-id={section.id}
    >
      <NavLink
        component="button"
        type="button"
        active={isSelected}
        aria-current={isSelected ? 'true' : undefined}
        color={isInvalid ? 'red' : undefined}
        label={`${index + 1}. ${section.title}`}
        description={[
          section.attachment?.name ?? t('trainings.sections.noAttachment'),
          t('trainings.sections.questionCount', { count: section.quiz.questions.length }),
        ].join(' · ')}
        onClick={onSelect}
        style={{ flex: 1, minWidth: 0 }}
        styles={{ label: { overflowWrap: 'anywhere' } }}
        data-testid="training-section-select"
      />
      <Tooltip label={t('trainings.sections.renameNamed', names)}>
        <ActionIcon
          variant="subtle"
          onClick={() => setEditedTitle(section.title)}
          aria-label={t('trainings.sections.renameNamed', names)}
          data-testid="training-section-rename"
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip
        label={
          canRemove
            ? t('trainings.sections.removeNamed', names)
            : t('trainings.sections.lastSection')
        }
      >
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={onRemove}
          disabled={!canRemove}
          aria-label={t('trainings.sections.removeNamed', names)}
          data-testid="training-section-remove"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

type SectionsPanelProps = {
  sections: readonly SectionDraft[];
  selectedSectionId: string | null;
  /** The section the last save refused. */
  invalidSectionId: string | null;
  onSelect: (sectionId: string) => void;
  onAdd: () => void;
  onRename: (sectionId: string, title: string) => void;
  onRemove: (sectionId: string) => void;
};

/**
 * The training's sections (spec 002 §2): add ('Nouvelle section'), rename in place, delete
 * after confirming (a training keeps one), select.
 */
export function SectionsPanel({
  sections,
  selectedSectionId,
  invalidSectionId,
  onSelect,
  onAdd,
  onRename,
  onRemove,
}: SectionsPanelProps) {
  const { t } = useTranslation();
  const isFull = sections.length >= trainingLimits.sectionsMax;

  function handleRemove(section: SectionDraft) {
    openConfirmDialog({
      title: t('trainings.sections.removeTitle'),
      message: t('trainings.sections.confirmRemove', { title: section.title }),
      confirmLabel: t('dialog.yes'),
      cancelLabel: t('dialog.no'),
      isDanger: true,
      onConfirm: () => onRemove(section.id),
    });
  }

  return (
    <Card withBorder radius="md" data-testid="training-sections">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {t('trainings.sections.title')}
          </Title>
          <Button
            variant="light"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={onAdd}
            disabled={isFull}
            data-testid="training-section-add"
          >
            {t('trainings.sections.add')}
          </Button>
        </Group>
        <Stack
          component="ul"
          gap={4}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={t('trainings.sections.list')}
        >
          {sections.map((section, index) => (
            <SectionRow
              key={section.id}
              section={section}
              index={index}
              isSelected={section.id === selectedSectionId}
              isInvalid={section.id === invalidSectionId}
              canRemove={sections.length > 1}
              onSelect={() => onSelect(section.id)}
              onRename={(title) => onRename(section.id, title)}
              onRemove={() => handleRemove(section)}
            />
          ))}
        </Stack>
        {sections.length <= 1 ? (
          <Text size="xs" c="dimmed">
            {t('trainings.sections.lastSection')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Menu, Text } from '@mantine/core';
import type { AuditSection } from '@mise/shared/audits/schemas';
import { IconChevronDown, IconChevronRight, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { memo, useMemo } from 'react';
import './audit-builder.css';
import { useBuilderActions } from './builder-actions';
import { type DragKind, headerDropId, questionDragId, sectionDragId } from './builder-state';
import { gripIcon, QuestionRow, sectionLabel } from './question-row';
import { RowMenu } from './row-menu';

type SectionItemProps = {
  /** The section with its live questions only. */
  section: AuditSection;
  isExpanded: boolean;
  isSelected: boolean;
  /** The selected question when it is in this section, else null. */
  selectedQuestionId: string | null;
  dragKind: DragKind | null;
  /** The panel's translation function (one hook for the panel, not several per section). */
  t: TFunction;
};

// One element each for every section: React skips them when a header draws again.
const expandedIcon = <IconChevronDown size={16} aria-hidden />;
const collapsedIcon = <IconChevronRight size={16} aria-hidden />;

/**
 * A section of the structure panel: drag handle, expand toggle, title (selects the section),
 * question count and menu; expanded, its questions (sortable) and an add button. A collapsed
 * section draws its header only. As for question rows, the sortable frame and handle draw
 * again on dnd-kit's changes, the header's content and the questions only on their own.
 */
export const SectionItem = memo(function SectionItem({
  section,
  isExpanded,
  isSelected,
  selectedQuestionId,
  dragKind,
  t,
}: SectionItemProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({
    id: sectionDragId(section.id),
    data: { kind: 'section', sectionId: section.id },
    disabled: { draggable: false, droppable: dragKind === 'question' },
  });
  // A dragged question may land on the header: the way into a collapsed or empty section.
  const header = useDroppable({
    id: headerDropId(section.id),
    data: { kind: 'header', sectionId: section.id },
    disabled: dragKind !== 'question',
  });
  // The frame draws again on every dnd-kit change: its texts are kept.
  const label = useMemo(
    () => sectionLabel(section.title, () => t('audits.builder.untitledSection')),
    [section.title, t],
  );
  const handleLabel = useMemo(() => t('audits.dnd.moveSection', { name: label }), [label, t]);
  const bodyId = `audit-section-body-${section.id}`;

  return (
    <div
      ref={setNodeRef}
      className="audit-section"
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="section-item"
      data-section-id={section.id}
      data-expanded={isExpanded}
    >
      <div
        ref={header.setNodeRef}
        className="audit-section-header"
        data-selected={isSelected || undefined}
        data-drop-target={header.isOver || undefined}
      >
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="audit-icon-button audit-drag-handle mantine-focus-auto"
          aria-label={handleLabel}
          data-testid="section-handle"
          {...attributes}
          {...listeners}
        >
          {gripIcon}
        </button>
        <SectionHeader
          section={section}
          label={label}
          bodyId={bodyId}
          isExpanded={isExpanded}
          isSelected={isSelected}
          t={t}
        />
      </div>
      {isExpanded ? (
        <SectionBody
          section={section}
          bodyId={bodyId}
          selectedQuestionId={selectedQuestionId}
          dragKind={dragKind}
          t={t}
        />
      ) : null}
    </div>
  );
});

type SectionHeaderProps = {
  section: AuditSection;
  label: string;
  bodyId: string;
  isExpanded: boolean;
  isSelected: boolean;
  t: TFunction;
};

const SectionHeader = memo(function SectionHeader({
  section,
  label,
  bodyId,
  isExpanded,
  isSelected,
  t,
}: SectionHeaderProps) {
  const actions = useBuilderActions();
  return (
    <>
      <button
        type="button"
        className="audit-icon-button mantine-focus-auto"
        onClick={() => actions.toggleSection(section.id)}
        aria-expanded={isExpanded}
        aria-controls={isExpanded ? bodyId : undefined}
        aria-label={t(isExpanded ? 'audits.builder.collapse' : 'audits.builder.expand', {
          name: label,
        })}
        data-testid="section-toggle"
      >
        {isExpanded ? expandedIcon : collapsedIcon}
      </button>
      <button
        type="button"
        className="audit-row-button mantine-focus-auto"
        onClick={() => actions.selectSection(section.id)}
        aria-current={isSelected ? 'true' : undefined}
        data-testid="section-select"
      >
        <span className="audit-row-text audit-row-title" data-testid="section-title">
          {label}
        </span>
        <span className="audit-row-meta">
          {t('audits.questionCount', { count: section.questions.length })}
        </span>
      </button>
      <RowMenu label={t('audits.builder.sectionMenu', { name: label })} testId="section-menu">
        {() => (
          <>
            <Menu.Item
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => actions.addQuestion(section.id)}
            >
              {t('audits.builder.addQuestion')}
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => actions.removeSection(section.id)}
              data-testid="section-menu-remove"
            >
              {t('audits.builder.removeSection')}
            </Menu.Item>
          </>
        )}
      </RowMenu>
    </>
  );
});

type SectionBodyProps = {
  section: AuditSection;
  bodyId: string;
  selectedQuestionId: string | null;
  dragKind: DragKind | null;
  t: TFunction;
};

/** An expanded section's questions (sortable among themselves) and its add button. */
const SectionBody = memo(function SectionBody({
  section,
  bodyId,
  selectedQuestionId,
  dragKind,
  t,
}: SectionBodyProps) {
  const actions = useBuilderActions();
  const questionIds = useMemo(
    () => section.questions.map((question) => questionDragId(question.id)),
    [section.questions],
  );
  return (
    <div id={bodyId} className="audit-section-body" data-testid="section-body">
      <SortableContext items={questionIds} strategy={verticalListSortingStrategy}>
        {section.questions.map((question) => (
          <QuestionRow
            key={question.id}
            question={question}
            sectionId={section.id}
            isSelected={question.id === selectedQuestionId}
            dragKind={dragKind}
            t={t}
          />
        ))}
      </SortableContext>
      {section.questions.length === 0 ? (
        <Text size="sm" c="dimmed" py={4} data-testid="questions-empty">
          {t('audits.questions-empty')}
        </Text>
      ) : null}
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() => actions.addQuestion(section.id)}
        style={{ alignSelf: 'flex-start' }}
        data-testid="section-add-question"
      >
        {t('audits.builder.addQuestion')}
      </Button>
    </div>
  );
});

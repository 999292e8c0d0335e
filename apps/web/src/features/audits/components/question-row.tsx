import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Menu } from '@mantine/core';
import { auditTruncation, truncate } from '@mise/shared/audits/rules';
import type { AuditQuestion } from '@mise/shared/audits/schemas';
import { IconGripVertical, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuilderActions } from './builder-actions';
import { type DragKind, questionDragId } from './builder-state';
import { RowMenu } from './row-menu';
import './audit-builder.css';

type QuestionRowProps = {
  question: AuditQuestion;
  sectionId: string;
  isSelected: boolean;
  /** What is being dragged: a question row is no drop target for a section. */
  dragKind: DragKind | null;
  /** The panel's translation function (one hook for the panel, not two per row). */
  t: TFunction;
};

/** One element for every handle: React skips it when a row draws again. */
export const gripIcon = <IconGripVertical size={14} aria-hidden />;

/**
 * The text a list shows for a question (35 characters, spec 002 §9); `fallback` (a function
 * read only when needed) for a question without text.
 */
export function questionLabel(text: string, fallback: string | (() => string)): string {
  if (text.trim() !== '') return truncate(text, auditTruncation.questionInList);
  return typeof fallback === 'string' ? fallback : fallback();
}

/**
 * A question in the structure panel: drag handle, truncated text (selects it), type, and a
 * menu to move it to another section or remove it. A large audit draws hundreds: plain
 * elements, and two parts: the sortable frame with its handle, which draws again whenever
 * dnd-kit's state changes (items registered on mount, each move of a drag), and the row's
 * content, drawn again only when the question or its selection changes.
 */
export const QuestionRow = memo(function QuestionRow({
  question,
  sectionId,
  isSelected,
  dragKind,
  t,
}: QuestionRowProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({
    id: questionDragId(question.id),
    data: { kind: 'question', questionId: question.id, sectionId },
    disabled: { draggable: false, droppable: dragKind === 'section' },
  });
  // The frame draws again on every dnd-kit change: its texts are kept.
  const label = useMemo(
    () => questionLabel(question.text, () => t('audits.builder.untitledQuestion')),
    [question.text, t],
  );
  const handleLabel = useMemo(() => t('audits.dnd.moveQuestion', { name: label }), [label, t]);

  return (
    <div
      ref={setNodeRef}
      className="audit-question-row"
      data-selected={isSelected || undefined}
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="question-row"
      data-question-id={question.id}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        className="audit-icon-button audit-drag-handle mantine-focus-auto"
        aria-label={handleLabel}
        data-testid="question-handle"
        {...attributes}
        {...listeners}
      >
        {gripIcon}
      </button>
      <QuestionRowContent
        question={question}
        sectionId={sectionId}
        label={label}
        isSelected={isSelected}
        t={t}
      />
    </div>
  );
});

type QuestionRowContentProps = {
  question: AuditQuestion;
  sectionId: string;
  label: string;
  isSelected: boolean;
  t: TFunction;
};

const QuestionRowContent = memo(function QuestionRowContent({
  question,
  sectionId,
  label,
  isSelected,
  t,
}: QuestionRowContentProps) {
  const actions = useBuilderActions();
  return (
    <>
      <button
        type="button"
        className="audit-row-button mantine-focus-auto"
        onClick={() => actions.selectQuestion(question.id)}
        aria-current={isSelected ? 'true' : undefined}
        data-testid="question-select"
      >
        <span className="audit-row-line">
          <span className="audit-row-text audit-row-truncate" data-testid="question-row-text">
            {label}
          </span>
          {question.required ? (
            <span
              className="audit-row-text audit-row-required"
              role="img"
              aria-label={t('audits.question.required')}
            >
              *
            </span>
          ) : null}
        </span>
        <span className="audit-row-meta">{t(`audits.types.${question.type}`)}</span>
      </button>
      <RowMenu label={t('audits.builder.questionMenu', { name: label })} testId="question-menu">
        {() => <QuestionMenuItems questionId={question.id} sectionId={sectionId} />}
      </RowMenu>
    </>
  );
});

/**
 * Move to another section (the keyboard and phone way to move between sections, the others
 * read when the menu opens), remove.
 */
function QuestionMenuItems({ questionId, sectionId }: { questionId: string; sectionId: string }) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  const targets = actions
    .getSections()
    .filter((section) => !section.archived_at && section.id !== sectionId);
  return (
    <>
      <Menu.Label>{t('audits.builder.moveToSection')}</Menu.Label>
      {targets.length === 0 ? (
        <Menu.Item disabled>{t('audits.builder.noOtherSection')}</Menu.Item>
      ) : (
        targets.map((section) => (
          <Menu.Item
            key={section.id}
            onClick={() => actions.moveQuestionToSection(questionId, section.id)}
            data-testid="question-move-target"
          >
            {sectionLabel(section.title, t('audits.builder.untitledSection'))}
          </Menu.Item>
        ))
      )}
      <Menu.Divider />
      <Menu.Item
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        onClick={() => actions.removeQuestion(questionId)}
        data-testid="question-menu-remove"
      >
        {t('audits.builder.removeQuestion')}
      </Menu.Item>
    </>
  );
}

/** The text a list shows for a section (150 characters, spec 002 §9). */
export function sectionLabel(title: string, fallback: string | (() => string)): string {
  if (title.trim() !== '') return truncate(title, auditTruncation.sectionTitle);
  return typeof fallback === 'string' ? fallback : fallback();
}

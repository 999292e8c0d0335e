import {
  type Announcements,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { Button, Stack } from '@mantine/core';
import type { AuditSection } from '@mise/shared/audits/schemas';
import { IconPlus } from '@tabler/icons-react';
import { memo, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuilderActions } from './builder-actions';
import { type DragKind, isBelow, sectionDragId } from './builder-state';
import { questionLabel, sectionLabel } from './question-row';
import { SectionItem } from './section-item';

type StructurePanelProps = {
  /** Live sections with their live questions. */
  sections: AuditSection[];
  expandedSectionIds: ReadonlySet<string>;
  selectedSectionId: string | null;
  selectedQuestionId: string | null;
};

type DragData = { kind: 'section' | 'header' | 'question'; sectionId: string; questionId?: string };

const dataOf = (item: { data: { current?: Record<string, unknown> } } | null) =>
  (item?.data.current ?? null) as DragData | null;

/**
 * The left panel (spec 002 §2): sections and their questions, reordered by drag and drop with
 * a pointer or the keyboard (Space, arrows, Space), a question moved between sections by
 * dropping it on another section's questions or header. Announced to screen readers.
 */
export const StructurePanel = memo(function StructurePanel({
  sections,
  expandedSectionIds,
  selectedSectionId,
  selectedQuestionId,
}: StructurePanelProps) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  const [dragKind, setDragKind] = useState<DragKind | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const sectionIds = useMemo(
    () => sections.map((section) => sectionDragId(section.id)),
    [sections],
  );

  // Names of the dragged item and its target, for the announcements (read at event time).
  const sectionsRef = useRef(sections);
  sectionsRef.current = sections;
  const nameOf = (id: UniqueIdentifier | undefined): string => {
    const text = String(id ?? '');
    const itemId = text.slice(2);
    if (text.startsWith('q:')) {
      for (const section of sectionsRef.current) {
        const question = section.questions.find((item) => item.id === itemId);
        if (question) {
          return t('audits.dnd.questionName', {
            name: questionLabel(question.text, t('audits.builder.untitledQuestion')),
          });
        }
      }
    }
    const section = sectionsRef.current.find((item) => item.id === itemId);
    return section
      ? t('audits.dnd.sectionName', {
          name: sectionLabel(section.title, t('audits.builder.untitledSection')),
        })
      : '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('audits.dnd.pickedUp', { item: nameOf(active.id) }),
    // Over itself (where it starts): the pick-up announcement stays.
    onDragOver: ({ active, over }) =>
      over?.id === active.id
        ? undefined
        : over
          ? t('audits.dnd.over', { item: nameOf(active.id), target: nameOf(over.id) })
          : t('audits.dnd.overNothing', { item: nameOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id
        ? t('audits.dnd.dropped', { item: nameOf(active.id), target: nameOf(over.id) })
        : t('audits.dnd.droppedNothing', { item: nameOf(active.id) }),
    onDragCancel: ({ active }) => t('audits.dnd.cancelled', { item: nameOf(active.id) }),
  };

  function handleDragStart(event: DragStartEvent) {
    const data = dataOf(event.active);
    setDragKind(data?.kind === 'question' ? 'question' : 'section');
  }

  function handleDragEnd({ active, over }: DragEndEvent) {
    setDragKind(null);
    const from = dataOf(active);
    const to = dataOf(over);
    if (!from || !to || !over || active.id === over.id) return;
    if (from.kind === 'section') {
      actions.moveSection(from.sectionId, to.sectionId);
      return;
    }
    if (!from.questionId) return;
    const isMovingDown = isBelow(sectionsRef.current, String(active.id), String(over.id));
    if (to.kind === 'question' && to.questionId) {
      actions.dropQuestion(from.questionId, {
        kind: 'question',
        questionId: to.questionId,
        isMovingDown,
      });
    } else {
      actions.dropQuestion(from.questionId, {
        kind: 'section',
        sectionId: to.sectionId,
        isMovingDown,
      });
    }
  }

  return (
    <Stack gap="xs" data-testid="audit-structure">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragStart={handleDragStart}
        onDragEnd={handleDragEnd}
        onDragCancel={() => setDragKind(null)}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: t('audits.dnd.instructions') },
        }}
      >
        <SortableContext items={sectionIds} strategy={verticalListSortingStrategy}>
          {sections.map((section) => (
            <SectionItem
              key={section.id}
              section={section}
              isExpanded={expandedSectionIds.has(section.id)}
              isSelected={section.id === selectedSectionId}
              selectedQuestionId={section.id === selectedSectionId ? selectedQuestionId : null}
              dragKind={dragKind}
              t={t}
            />
          ))}
        </SortableContext>
      </DndContext>
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden />}
        onClick={actions.addSection}
        style={{ alignSelf: 'flex-start' }}
        data-testid="section-add"
      >
        {t('audits.builder.addSection')}
      </Button>
    </Stack>
  );
});

import { Tabs } from '@mantine/core';
import type { Quiz } from '@mise/shared/communications/schemas';
import { IconListCheck, IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AttachmentCard, type DraftAttachment } from '../../../shared/content/attachment-card';
import { QuizEditor } from '../../../shared/content/quiz-editor';
import type { SectionDraft, TrainingIssue } from './training-draft';

/** The resumable upload purpose of a training section's attachment. */
export const trainingAttachmentPurpose = 'training-attachment';

export type SectionTab = 'attachment' | 'quiz';

type SectionContentProps = {
  section: SectionDraft;
  tab: SectionTab;
  onTabChange: (tab: SectionTab) => void;
  /** The training's owner for the upload ('global', '<type>:<source>'). */
  uploadOwner: string;
  selectedQuestionId: string | null;
  onSelectQuestion: (questionId: string | null) => void;
  /** The last save's refusal when it is about this section. */
  issue: TrainingIssue | null;
  onAttachment: (attachment: DraftAttachment) => void;
  onQuiz: (change: (quiz: Quiz) => Quiz) => void;
};

/**
 * The selected section (spec 002 §2): its attachment (name and type, download, upload with
 * progress, pause and cancel) and its quiz (questions with their answers), in two tabs.
 */
export function SectionContent({
  section,
  tab,
  onTabChange,
  uploadOwner,
  selectedQuestionId,
  onSelectQuestion,
  issue,
  onAttachment,
  onQuiz,
}: SectionContentProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={tab}
      onChange={(value) => onTabChange(value === 'quiz' ? 'quiz' : 'attachment')}
      keepMounted
    >
      <Tabs.List mb="sm">
        <Tabs.Tab
          value="attachment"
          leftSection={<IconPaperclip size={16} aria-hidden />}
          data-testid="training-tab-attachment"
        >
          {t('trainings.sections.attachmentTab')}
        </Tabs.Tab>
        <Tabs.Tab
          value="quiz"
          leftSection={<IconListCheck size={16} aria-hidden />}
          data-testid="training-tab-quiz"
        >
          {t('trainings.sections.quizTab')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="attachment">
        <AttachmentCard
          key={section.id}
          attachment={section.attachment}
          upload={{ purpose: trainingAttachmentPurpose, owner: uploadOwner }}
          missingMessage={
            issue?.code === 'training/attachment-required'
              ? t('errors.training/attachment-required')
              : null
          }
          onChange={onAttachment}
          testIdPrefix="training-attachment"
        />
      </Tabs.Panel>
      <Tabs.Panel value="quiz">
        <QuizEditor
          key={section.id}
          quiz={section.quiz}
          selectedQuestionId={selectedQuestionId}
          invalid={
            issue?.code === 'training/no-valid-answer' && issue.questionId
              ? { questionId: issue.questionId, message: t('errors.training/no-valid-answer') }
              : null
          }
          onSelect={onSelectQuestion}
          onChange={onQuiz}
          description={t('trainings.quiz.hint')}
          emptyText={t('trainings.quiz.empty')}
          testId="training-quiz"
        />
      </Tabs.Panel>
    </Tabs>
  );
}

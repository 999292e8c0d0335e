import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Grid,
  Group,
  NavLink,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { communicationLimits, type Quiz } from '@mise/shared/communications/schemas';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from '../ui/confirm-dialog';
import {
  addAnswer,
  addQuestion,
  type QuizQuestionDraft,
  removeAnswer,
  removeQuestion,
  updateAnswer,
  updateQuestion,
} from './quiz-edits';

/** Spec 002 §9: question texts are cut to 35 characters in lists. */
const questionListLength = 35;

export function questionLabel(text: string, fallback: string): string {
  const trimmed = text.trim();
  if (!trimmed) return fallback;
  const characters = Array.from(trimmed);
  return characters.length > questionListLength
    ? `${characters.slice(0, questionListLength).join('')}…`
    : trimmed;
}

const newId = () => crypto.randomUUID();

type QuizEditorProps = {
  quiz: Quiz;
  selectedQuestionId: string | null;
  /** The question the last save refused, and the refusal's text. */
  invalid: { questionId: string; message: string } | null;
  onSelect: (questionId: string | null) => void;
  onChange: (change: (quiz: Quiz) => Quiz) => void;
  /** Under the title ("optional: ..."). */
  description: string;
  /** Shown without any question. */
  emptyText: string;
  testId: string;
};

/**
 * The quiz of a communication or a training section (spec 002 §2, §4, §5): questions on the
 * left (add, select), the selected one on the right (text, delete) with its answers (text,
 * correct, delete, add). Deleting a question asks first, then selects the first remaining one
 * or none.
 */
export function QuizEditor({
  quiz,
  selectedQuestionId,
  invalid,
  onSelect,
  onChange,
  description,
  emptyText,
  testId,
}: QuizEditorProps) {
  const { t } = useTranslation();
  const questions = quiz.questions;
  const selected = questions.find((question) => question.id === selectedQuestionId) ?? null;
  const isFull = questions.length >= communicationLimits.questionsMax;

  function handleAddQuestion() {
    const id = newId();
    onChange((current) => addQuestion(current, id));
    onSelect(id);
  }

  function handleRemoveQuestion(questionId: string) {
    openConfirmDialog({
      title: t('content.quiz.removeTitle'),
      message: t('content.quiz.confirmRemoveQuestion'),
      confirmLabel: t('dialog.yes'),
      cancelLabel: t('dialog.no'),
      isDanger: true,
      onConfirm: () => {
        let next: string | null = null;
        onChange((current) => {
          const result = removeQuestion(current, questionId);
          next = result.selectedQuestionId;
          return result.quiz;
        });
        onSelect(next);
      },
    });
  }

  return (
    <Card withBorder radius="md" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Title order={2} size="h4">
              {t('content.quiz.title')}
            </Title>
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          </Stack>
          <Button
            variant="light"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={handleAddQuestion}
            disabled={isFull}
            data-testid="quiz-add-question"
          >
            {t('content.quiz.addQuestion')}
          </Button>
        </Group>
        {questions.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="quiz-empty">
            {emptyText}
          </Text>
        ) : (
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Stack
                gap={2}
                component="nav"
                aria-label={t('content.quiz.questions')}
                data-testid="quiz-questions"
              >
                {questions.map((question, index) => (
                  <NavLink
                    key={question.id}
                    component="button"
                    type="button"
                    active={question.id === selectedQuestionId}
                    aria-current={question.id === selectedQuestionId ? 'true' : undefined}
                    label={`${index + 1}. ${questionLabel(question.text, t('content.quiz.untitled'))}`}
                    color={question.id === invalid?.questionId ? 'red' : undefined}
                    onClick={() => onSelect(question.id)}
                    data-testid="quiz-question-row"
                    data-question-id={question.id}
                  />
                ))}
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>
              {selected ? (
                <QuestionEditor
                  key={selected.id}
                  question={selected}
                  index={questions.indexOf(selected)}
                  invalidMessage={selected.id === invalid?.questionId ? invalid.message : null}
                  onChange={(change) =>
                    onChange((current) => updateQuestion(current, selected.id, change))
                  }
                  onRemove={() => handleRemoveQuestion(selected.id)}
                />
              ) : (
                <Text size="sm" c="dimmed" data-testid="quiz-nothing-selected">
                  {t('content.quiz.nothingSelected')}
                </Text>
              )}
            </Grid.Col>
          </Grid>
        )}
      </Stack>
    </Card>
  );
}

type QuestionEditorProps = {
  question: QuizQuestionDraft;
  index: number;
  /** Why the last save refused this question, or null. */
  invalidMessage: string | null;
  onChange: (change: (question: QuizQuestionDraft) => QuizQuestionDraft) => void;
  onRemove: () => void;
};

function QuestionEditor({
  question,
  index,
  invalidMessage,
  onChange,
  onRemove,
}: QuestionEditorProps) {
  const { t } = useTranslation();
  const isFull = question.answers.length >= communicationLimits.answersMax;
  return (
    <Stack gap="sm" data-testid="quiz-question-editor">
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <Textarea
          label={t('content.quiz.questionLabel', { index: index + 1 })}
          value={question.text}
          onChange={(event) => {
            const text = event.currentTarget.value;
            onChange((current) => ({ ...current, text }));
          }}
          maxLength={communicationLimits.questionTextMax}
          rows={2}
          style={{ flex: 1 }}
          data-testid="quiz-question-text"
        />
        <Tooltip label={t('content.quiz.removeQuestion')}>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            onClick={onRemove}
            aria-label={t('content.quiz.removeQuestion')}
            data-testid="quiz-remove-question"
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Text size="sm" fw={500}>
        {t('content.quiz.answers')}
      </Text>
      {question.answers.length === 0 ? (
        <Text size="sm" c={invalidMessage ? 'red' : 'dimmed'} data-testid="quiz-no-answer">
          {t('content.quiz.noAnswer')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {question.answers.map((answer, answerIndex) => {
            const label = t('content.quiz.answerLabel', { index: answerIndex + 1 });
            return (
              <Group
                key={answer.id}
                component="li"
                gap="xs"
                wrap="nowrap"
                data-testid="quiz-answer"
              >
                <Checkbox
                  checked={answer.correct}
                  onChange={(event) => {
                    const correct = event.currentTarget.checked;
                    onChange((current) => updateAnswer(current, answer.id, { correct }));
                  }}
                  aria-label={t('content.quiz.correctLabel', { index: answerIndex + 1 })}
                  label={t('content.quiz.correct')}
                  data-testid="quiz-answer-correct"
                />
                <TextInput
                  value={answer.text}
                  onChange={(event) => {
                    const text = event.currentTarget.value;
                    onChange((current) => updateAnswer(current, answer.id, { text }));
                  }}
                  aria-label={label}
                  placeholder={label}
                  maxLength={communicationLimits.answerTextMax}
                  style={{ flex: 1, minWidth: 0 }}
                  data-testid="quiz-answer-text"
                />
                <Tooltip label={t('content.quiz.removeAnswer', { index: answerIndex + 1 })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => onChange((current) => removeAnswer(current, answer.id))}
                    aria-label={t('content.quiz.removeAnswer', { index: answerIndex + 1 })}
                    data-testid="quiz-remove-answer"
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            );
          })}
        </Stack>
      )}
      {invalidMessage ? (
        <Text size="sm" c="red" data-testid="quiz-question-issue">
          {invalidMessage}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => onChange((current) => addAnswer(current, newId()))}
          disabled={isFull}
          data-testid="quiz-add-answer"
        >
          {t('content.quiz.addAnswer')}
        </Button>
      </Group>
    </Stack>
  );
}

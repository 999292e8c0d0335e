import { Button, Card, Checkbox, Group, Radio, Slider, Stack, Text, Textarea } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import type { AnswerIssueCode } from '@mise/shared/audits/rules';
import type { AuditAnswerInput, AuditQuestion, AuditQuestionOf } from '@mise/shared/audits/schemas';
import { auditLimits } from '@mise/shared/audits/schemas';
import { IconCalendar, IconCheck, IconMessage, IconX } from '@tabler/icons-react';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import 'dayjs/locale/en';
import 'dayjs/locale/fr';
import 'dayjs/locale/pl';
import { memo, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n/i18n';
import { ErrorText } from '../../../shared/ui/error-text';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { liveChoices, precisionDecimals, yesNoInput } from '../model/answer-values';
import { FileAnswerInput } from './file-answer-input';

export type AnswerUpdate = (previous: AuditAnswerInput) => AuditAnswerInput;

type QuestionCardProps = {
  question: AuditQuestion;
  answer: AuditAnswerInput | undefined;
  resultId: string;
  /** The store's day (YYYY-MM-DD): a date answer's limit. */
  today: string;
  /** Why the answer does not fit its question (answerIssue), if it does not. */
  issue: AnswerIssueCode | null;
  /** A required question left unanswered when the auditor tried to go on. */
  isMissing: boolean;
  onChange: (questionId: string, update: AnswerUpdate) => void;
};

type InputProps<T extends AuditQuestion['type']> = {
  question: AuditQuestionOf<T>;
  answer: AuditAnswerInput;
  label: ReactNode;
  labelId: string;
  isInvalid: boolean;
  update: (update: AnswerUpdate) => void;
};

function TextAnswer({ question, answer, label, isInvalid, update }: InputProps<'text_input'>) {
  const { t } = useTranslation();
  const max = question.options.max_characters;
  const text = answer.text ?? '';
  return (
    <Textarea
      label={label}
      withAsterisk={question.required}
      size="md"
      rows={3}
      resize="vertical"
      value={text}
      maxLength={max ?? auditLimits.textAnswerMax}
      description={
        max === null
          ? undefined
          : t('auditResults.perform.characters', { length: [...text].length, max })
      }
      error={isInvalid}
      onChange={(event) => {
        const value = event.currentTarget.value;
        update((previous) => ({ ...previous, text: value === '' ? null : value }));
      }}
      data-testid="answer-text"
    />
  );
}

function ChoiceAnswer({
  question,
  answer,
  label,
  isInvalid,
  update,
}: InputProps<'multiple_choice'>) {
  const { t } = useTranslation();
  const choices = liveChoices(question);
  const chosen = answer.choices ?? [];
  if (question.options.multiple_selection) {
    return (
      <Checkbox.Group
        label={label}
        withAsterisk={question.required}
        size="md"
        value={chosen}
        error={isInvalid}
        onChange={(values) =>
          update((previous) => ({ ...previous, choices: values.length > 0 ? values : null }))
        }
      >
        <Stack gap="sm" mt="xs">
          {choices.map((choice) => (
            <Checkbox key={choice.id} value={choice.id} label={choice.text} size="md" />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  return (
    <Stack gap={4}>
      <Radio.Group
        label={label}
        withAsterisk={question.required}
        size="md"
        value={chosen[0] ?? null}
        error={isInvalid}
        onChange={(value) => update((previous) => ({ ...previous, choices: [value] }))}
      >
        <Stack gap="sm" mt="xs">
          {choices.map((choice) => (
            <Radio key={choice.id} value={choice.id} label={choice.text} size="md" />
          ))}
        </Stack>
      </Radio.Group>
      {chosen.length > 0 ? (
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => update((previous) => ({ ...previous, choices: null }))}
          >
            {t('auditResults.perform.clear')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function YesNoAnswer({ question, answer, label, labelId, update }: InputProps<'yes_or_no'>) {
  const { t } = useTranslation();
  const choices = liveChoices(question);
  const value =
    typeof answer.answer_yes === 'boolean'
      ? answer.answer_yes
      : (() => {
          const choice = choices.find((item) => answer.choices?.includes(item.id));
          return choice ? choice.text === 'true' : null;
        })();
  const choose = (next: boolean) =>
    update((previous) => ({ ...previous, ...yesNoInput(question, value === next ? null : next) }));
  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      {label}
      <Group grow gap="sm">
        <Button
          size="lg"
          color="teal"
          variant={value === true ? 'filled' : 'default'}
          leftSection={<IconCheck size={20} />}
          aria-pressed={value === true}
          onClick={() => choose(true)}
          data-testid="answer-yes"
        >
          {t('auditResults.yes')}
        </Button>
        <Button
          size="lg"
          color="red"
          variant={value === false ? 'filled' : 'default'}
          leftSection={<IconX size={20} />}
          aria-pressed={value === false}
          onClick={() => choose(false)}
          data-testid="answer-no"
        >
          {t('auditResults.no')}
        </Button>
      </Group>
    </Stack>
  );
}

function RatingAnswer({ question, answer, label, labelId, update }: InputProps<'rating'>) {
  const { t } = useTranslation();
  const { min_rating: min, max_rating: max, precision } = question.options;
  const decimals = precisionDecimals(precision);
  const rating = typeof answer.rating === 'number' ? answer.rating : null;
  const format = (value: number) => value.toFixed(decimals);
  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      {label}
      <Group justify="space-between" gap="xs">
        <Text size="sm" c={rating === null ? 'dimmed' : undefined} fw={rating === null ? 400 : 700}>
          {rating === null
            ? t('auditResults.perform.notRated')
            : t('auditResults.perform.ratingValue', { value: format(rating), max: format(max) })}
        </Text>
        {rating !== null ? (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => update((previous) => ({ ...previous, rating: null }))}
          >
            {t('auditResults.perform.clear')}
          </Button>
        ) : null}
      </Group>
      <Slider
        min={min}
        max={max}
        step={precision}
        precision={decimals}
        value={rating ?? min}
        color={rating === null ? 'gray' : undefined}
        size="lg"
        thumbSize={28}
        label={format}
        marks={[
          { value: min, label: format(min) },
          { value: max, label: format(max) },
        ]}
        thumbLabel={t('auditResults.perform.ratingLabel')}
        onChange={(value) => update((previous) => ({ ...previous, rating: value }))}
        mb="lg"
        data-testid="answer-rating"
      />
    </Stack>
  );
}

function NumberAnswer({ question, answer, label, isInvalid, update }: InputProps<'number'>) {
  const { t } = useTranslation();
  const { min_number: min, max_number: max } = question.options;
  return (
    <NumericInput
      label={label}
      withAsterisk={question.required}
      size="md"
      value={typeof answer.number === 'number' ? answer.number : null}
      min={min}
      max={max}
      clampBehavior="none"
      inputMode="decimal"
      description={t('auditResults.perform.numberRange', { min, max })}
      error={isInvalid}
      onChange={(value) => update((previous) => ({ ...previous, number: value }))}
      data-testid="answer-number"
    />
  );
}

function DateAnswer({
  question,
  answer,
  label,
  isInvalid,
  update,
  today,
}: InputProps<'date'> & { today: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const limit = question.options.date_limit;
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
      <DatePickerInput
        label={label}
        withAsterisk={question.required}
        size="md"
        placeholder={t('auditResults.perform.datePlaceholder')}
        value={answer.date ?? null}
        minDate={limit === 'only_future' ? today : undefined}
        maxDate={limit === 'only_past' ? today : undefined}
        valueFormat="DD/MM/YYYY"
        clearable
        leftSection={<IconCalendar size={18} />}
        error={isInvalid}
        onChange={(value) =>
          update((previous) => ({
            ...previous,
            date: value ? dayjs(value).format('YYYY-MM-DD') : null,
          }))
        }
        data-testid="answer-date"
      />
    </DatesProvider>
  );
}

function CommentField({
  comment,
  update,
}: {
  comment: string;
  update: (update: AnswerUpdate) => void;
}) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(comment !== '');
  if (!isOpen) {
    return (
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconMessage size={16} />}
          onClick={() => setIsOpen(true)}
          data-testid="answer-add-comment"
        >
          {t('auditResults.perform.addComment')}
        </Button>
      </Group>
    );
  }
  return (
    <Textarea
      label={t('auditResults.comment')}
      rows={2}
      resize="vertical"
      maxLength={auditLimits.commentMax}
      value={comment}
      onChange={(event) => {
        const value = event.currentTarget.value;
        update((previous) => ({ ...previous, comment: value === '' ? null : value }));
      }}
      data-testid="answer-comment"
    />
  );
}

/**
 * One question of the perform screen: its text (the input's label), the input of its type,
 * what is wrong with the answer, and a comment.
 */
export const QuestionCard = memo(function QuestionCard({
  question,
  answer,
  resultId,
  today,
  issue,
  isMissing,
  onChange,
}: QuestionCardProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const current = answer ?? { question_id: question.id };
  const update = (change: AnswerUpdate) => onChange(question.id, change);
  const isInvalid = issue !== null || isMissing;
  const label = (
    <Text id={labelId} component="span" fw={600} size="md" style={{ whiteSpace: 'pre-wrap' }}>
      {question.text}
      {question.required ? (
        <Text component="span" c="red" ml={4}>
          *
        </Text>
      ) : null}
    </Text>
  );
  const plainLabel = (
    <span style={{ whiteSpace: 'pre-wrap' }} id={labelId}>
      {question.text}
    </span>
  );

  let input: ReactNode;
  switch (question.type) {
    case 'text_input':
      input = (
        <TextAnswer
          {...{ question, answer: current, labelId, isInvalid, update }}
          label={plainLabel}
        />
      );
      break;
    case 'multiple_choice':
      input = (
        <ChoiceAnswer
          {...{ question, answer: current, labelId, isInvalid, update }}
          label={plainLabel}
        />
      );
      break;
    case 'yes_or_no':
      input = <YesNoAnswer {...{ question, answer: current, labelId, isInvalid, update, label }} />;
      break;
    case 'rating':
      input = (
        <RatingAnswer {...{ question, answer: current, labelId, isInvalid, update, label }} />
      );
      break;
    case 'number':
      input = (
        <NumberAnswer
          {...{ question, answer: current, labelId, isInvalid, update }}
          label={plainLabel}
        />
      );
      break;
    case 'date':
      input = (
        <DateAnswer
          {...{ question, answer: current, labelId, isInvalid, update, today }}
          label={plainLabel}
        />
      );
      break;
    case 'file_upload':
      input = (
        <FileAnswerInput
          {...{ question, answer: current, labelId, isInvalid, update, label, resultId }}
        />
      );
      break;
  }

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="perform-question"
      data-question-id={question.id}
      data-missing={isMissing || undefined}
      style={isInvalid ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="sm">
        {input}
        {isMissing ? (
          <ErrorText testId="answer-required">{t('auditResults.perform.required')}</ErrorText>
        ) : null}
        {issue ? <ErrorText testId="answer-issue">{t(`errors.${issue}`)}</ErrorText> : null}
        <CommentField comment={current.comment ?? ''} update={update} />
      </Stack>
    </Card>
  );
});

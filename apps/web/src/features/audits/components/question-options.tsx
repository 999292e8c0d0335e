import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { withDerivedScore } from '@mise/shared/audits/rules';
import {
  type AuditChoice,
  type AuditFileExtension,
  type AuditQuestion,
  type AuditQuestionOf,
  auditFileExtensions,
  auditLimits,
  type DateLimit,
  dateLimits,
  ratingPrecisions,
} from '@mise/shared/audits/schemas';
import { auditDefaults } from '@mise/shared/audits/scoring';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { useBuilderActions } from './builder-actions';

type OptionsProps<T extends AuditQuestion['type']> = {
  question: AuditQuestionOf<T>;
  onChange: (question: AuditQuestionOf<T>) => void;
};

/** The options of the question's type (spec 002 §3, §5, §9). */
export function QuestionOptions({ question }: { question: AuditQuestion }) {
  const actions = useBuilderActions();
  const handleChange = (next: AuditQuestion) => actions.updateQuestion(question.id, () => next);
  switch (question.type) {
    case 'text_input':
      return <TextInputOptions question={question} onChange={handleChange} />;
    case 'multiple_choice':
    case 'yes_or_no':
      return <ChoiceOptions question={question} onChange={handleChange} />;
    case 'file_upload':
      return <FileUploadOptions question={question} onChange={handleChange} />;
    case 'rating':
      return <RatingOptions question={question} onChange={handleChange} />;
    case 'number':
      return <NumberOptions question={question} onChange={handleChange} />;
    case 'date':
      return <DateOptions question={question} onChange={handleChange} />;
  }
}

/** Max characters: off = unlimited (null), on = 200 by default, at least 1. */
function TextInputOptions({ question, onChange }: OptionsProps<'text_input'>) {
  const { t } = useTranslation();
  const max = question.options.max_characters;
  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      <Switch
        label={t('audits.options.maxCharactersToggle')}
        checked={max !== null}
        onChange={(event) =>
          onChange({
            ...question,
            options: {
              max_characters: event.currentTarget.checked ? auditDefaults.textLimit : null,
            },
          })
        }
        data-testid="option-max-characters-toggle"
      />
      {max !== null ? (
        <NumericInput
          label={t('audits.options.maxCharacters')}
          value={max}
          onChange={(value) => {
            if (value !== null) onChange({ ...question, options: { max_characters: value } });
          }}
          min={1}
          max={auditLimits.textAnswerMax}
          allowDecimal={false}
          w={200}
          data-testid="option-max-characters"
        />
      ) : null}
    </Group>
  );
}

/**
 * Multiple choice: single or multiple selection and choices (text, score ≥ 0), added and
 * removed. Yes/no: the two fixed choices ('true' and 'false', shown Yes and No) and their
 * scores. The question's score follows the choices.
 */
function ChoiceOptions({ question, onChange }: OptionsProps<'multiple_choice' | 'yes_or_no'>) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  const isYesNo = question.type === 'yes_or_no';
  const live = question.options.choices.filter((choice) => !choice.archived_at);

  const setChoices = (choices: AuditChoice[]) =>
    onChange(
      withDerivedScore({
        ...question,
        options: { ...question.options, choices },
      } as AuditQuestion) as AuditQuestionOf<'multiple_choice' | 'yes_or_no'>,
    );
  const updateChoice = (choiceId: string, change: Partial<AuditChoice>) =>
    setChoices(
      question.options.choices.map((choice) =>
        choice.id === choiceId ? { ...choice, ...change } : choice,
      ),
    );
  // Yes first, then No, whatever order they are stored in.
  const shown = isYesNo
    ? [...live].sort((a, b) => (a.text === 'true' ? -1 : b.text === 'true' ? 1 : 0))
    : live;

  return (
    <Stack gap="xs">
      {isYesNo ? null : (
        <Switch
          label={t('audits.options.multipleSelection')}
          checked={question.options.multiple_selection}
          onChange={(event) =>
            onChange(
              withDerivedScore({
                ...question,
                options: { ...question.options, multiple_selection: event.currentTarget.checked },
              } as AuditQuestion) as AuditQuestionOf<'multiple_choice'>,
            )
          }
          data-testid="option-multiple-selection"
        />
      )}
      {shown.map((choice, index) => (
        <Group key={choice.id} gap="xs" align="flex-end" wrap="nowrap" data-testid="choice-row">
          {isYesNo ? (
            <Text size="sm" fw={500} w={120} pb={6} data-testid="choice-label">
              {choice.text === 'true' ? t('audits.options.yes') : t('audits.options.no')}
            </Text>
          ) : (
            <TextInput
              label={t('audits.options.choice', { number: index + 1 })}
              value={choice.text}
              onChange={(event) => updateChoice(choice.id, { text: event.currentTarget.value })}
              maxLength={auditLimits.choiceTextMax}
              style={{ flex: 1 }}
              data-testid="choice-text"
            />
          )}
          <NumericInput
            label={t('audits.options.choiceScore')}
            aria-label={t('audits.options.choiceScoreOf', {
              name: isYesNo
                ? choice.text === 'true'
                  ? t('audits.options.yes')
                  : t('audits.options.no')
                : index + 1,
            })}
            value={choice.score}
            onChange={(score) => {
              if (score !== null) updateChoice(choice.id, { score });
            }}
            min={0}
            max={auditLimits.scoreMax}
            w={110}
            data-testid="choice-score"
          />
          {isYesNo ? null : (
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              onClick={() => actions.removeChoice(question.id, choice.id)}
              aria-label={t('audits.options.removeChoice', { number: index + 1 })}
              data-testid="choice-remove"
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      ))}
      {isYesNo ? null : (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() =>
            setChoices([
              ...question.options.choices,
              { id: actions.newId(), text: '', score: 0, archived_at: null },
            ])
          }
          disabled={question.options.choices.length >= auditLimits.maxChoices}
          style={{ alignSelf: 'flex-start' }}
          data-testid="choice-add"
        >
          {t('audits.options.addChoice')}
        </Button>
      )}
    </Stack>
  );
}

function FileUploadOptions({ question, onChange }: OptionsProps<'file_upload'>) {
  const { t } = useTranslation();
  return (
    <MultiSelect
      label={t('audits.options.extensions')}
      data={auditFileExtensions.map((extension) => ({ value: extension, label: extension }))}
      value={question.options.file_extensions}
      onChange={(values) =>
        onChange({
          ...question,
          options: {
            // Kept in the list's order, whatever the order they were picked in.
            file_extensions: auditFileExtensions.filter((extension) =>
              values.includes(extension),
            ) as AuditFileExtension[],
          },
        })
      }
      searchable
      data-testid="option-extensions"
    />
  );
}

function RatingOptions({ question, onChange }: OptionsProps<'rating'>) {
  const { t } = useTranslation();
  const options = question.options;
  const set = (change: Partial<typeof options>) =>
    onChange({ ...question, options: { ...options, ...change } });
  return (
    <Group gap="md" wrap="wrap" align="flex-end">
      <NumericInput
        label={t('audits.options.minRating')}
        value={options.min_rating}
        onChange={(value) => {
          if (value !== null) set({ min_rating: value });
        }}
        min={auditDefaults.number.lowest}
        max={auditLimits.numberMax}
        w={140}
        data-testid="option-min-rating"
      />
      <NumericInput
        label={t('audits.options.maxRating')}
        value={options.max_rating}
        onChange={(value) => {
          if (value !== null) set({ max_rating: value });
        }}
        min={auditDefaults.number.lowest}
        max={auditLimits.numberMax}
        w={140}
        data-testid="option-max-rating"
      />
      <Select
        label={t('audits.options.precision')}
        data={ratingPrecisions.map((precision) => ({
          value: String(precision),
          label: String(precision),
        }))}
        value={String(options.precision)}
        onChange={(value) => {
          if (value) set({ precision: Number(value) });
        }}
        allowDeselect={false}
        w={140}
        data-testid="option-precision"
      />
    </Group>
  );
}

function NumberOptions({ question, onChange }: OptionsProps<'number'>) {
  const { t } = useTranslation();
  const options = question.options;
  const set = (change: Partial<typeof options>) =>
    onChange({ ...question, options: { ...options, ...change } });
  return (
    <Group gap="md" wrap="wrap" align="flex-end">
      <NumericInput
        label={t('audits.options.minNumber')}
        value={options.min_number}
        onChange={(value) => {
          if (value !== null) set({ min_number: value });
        }}
        min={auditDefaults.number.lowest}
        max={auditLimits.numberMax}
        w={180}
        data-testid="option-min-number"
      />
      <NumericInput
        label={t('audits.options.maxNumber')}
        value={options.max_number}
        onChange={(value) => {
          if (value !== null) set({ max_number: value });
        }}
        min={auditDefaults.number.lowest}
        max={auditLimits.numberMax}
        w={180}
        data-testid="option-max-number"
      />
    </Group>
  );
}

function DateOptions({ question, onChange }: OptionsProps<'date'>) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('audits.options.dateLimit')}
      data={dateLimits.map((limit) => ({ value: limit, label: t(`audits.dateLimits.${limit}`) }))}
      value={question.options.date_limit}
      onChange={(value) => {
        if (value) onChange({ ...question, options: { date_limit: value as DateLimit } });
      }}
      allowDeselect={false}
      w={240}
      data-testid="option-date-limit"
    />
  );
}

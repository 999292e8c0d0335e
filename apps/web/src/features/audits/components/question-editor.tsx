import {
  Button,
  Card,
  Divider,
  Group,
  Select,
  Stack,
  Switch,
  Textarea,
  Title,
} from '@mantine/core';
import { setScoring } from '@mise/shared/audits/rules';
import { type AuditQuestion, type AuditSection, auditLimits } from '@mise/shared/audits/schemas';
import { type AuditQuestionType, auditQuestionTypes } from '@mise/shared/audits/scoring';
import { IconTrash } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { useBuilderActions } from './builder-actions';
import { QuestionConditions } from './question-conditions';
import { QuestionOptions } from './question-options';

type QuestionEditorProps = {
  question: AuditQuestion;
  /** The audit's sections (conditions name questions anywhere in it). */
  sections: AuditSection[];
};

const isChoiceType = (type: AuditQuestionType) =>
  type === 'multiple_choice' || type === 'yes_or_no';

/**
 * The right panel's question editor (spec 002 §2, §4, §5): text, type (a change resets the
 * options), required, scoring and score (a choice question's follows its choices), the type's
 * options and the conditions on yes/no questions.
 */
export const QuestionEditor = memo(function QuestionEditor({
  question,
  sections,
}: QuestionEditorProps) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  const update = (change: (current: AuditQuestion) => AuditQuestion) =>
    actions.updateQuestion(question.id, change);
  const isScoring = question.score !== null;
  const isDerived = isChoiceType(question.type);
  const typeOptions = auditQuestionTypes.map((type) => ({
    value: type,
    label: t(`audits.types.${type}`),
  }));

  return (
    <Card withBorder radius="md" data-testid="question-editor">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {t('audits.question.title')}
          </Title>
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => actions.removeQuestion(question.id)}
            data-testid="question-remove"
          >
            {t('audits.builder.removeQuestion')}
          </Button>
        </Group>
        <Textarea
          label={t('audits.question.text')}
          value={question.text}
          onChange={(event) => {
            const text = event.currentTarget.value;
            update((current) => ({ ...current, text }));
          }}
          rows={3}
          resize="vertical"
          maxLength={auditLimits.questionTextMax}
          withAsterisk
          data-testid="question-text"
        />
        <Select
          label={t('audits.question.type')}
          data={typeOptions}
          value={question.type}
          onChange={(value) => {
            if (value) actions.changeQuestionType(question.id, value as AuditQuestionType);
          }}
          allowDeselect={false}
          data-testid="question-type"
        />
        <Switch
          label={t('audits.question.required')}
          checked={question.required}
          onChange={(event) => {
            const required = event.currentTarget.checked;
            update((current) => ({ ...current, required }));
          }}
          data-testid="question-required"
        />
        <Group align="flex-end" gap="md" wrap="wrap">
          <Switch
            label={t('audits.question.scoring')}
            checked={isScoring}
            onChange={(event) => {
              const isOn = event.currentTarget.checked;
              update((current) => setScoring(current, isOn));
            }}
            data-testid="question-scoring"
          />
          {isScoring ? (
            <NumericInput
              label={t('audits.question.score')}
              description={
                isDerived
                  ? t(
                      question.type === 'multiple_choice' && question.options.multiple_selection
                        ? 'audits.question.scoreSum'
                        : 'audits.question.scoreHighest',
                    )
                  : undefined
              }
              value={question.score}
              onChange={(score) => {
                if (score !== null) update((current) => ({ ...current, score }));
              }}
              readOnly={isDerived}
              min={1}
              max={auditLimits.scoreMax}
              allowDecimal
              w={200}
              data-testid="question-score"
            />
          ) : null}
        </Group>
        <Divider label={t('audits.question.options')} labelPosition="left" />
        <QuestionOptions question={question} />
        <Divider label={t('audits.question.conditions')} labelPosition="left" />
        <QuestionConditions question={question} sections={sections} />
      </Stack>
    </Card>
  );
});

import { ActionIcon, Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { conditionCandidates } from '@mise/shared/audits/rules';
import { type AuditQuestion, type AuditSection, auditLimits } from '@mise/shared/audits/schemas';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuilderActions } from './builder-actions';
import { findQuestion } from './builder-state';
import { questionLabel } from './question-row';

type QuestionConditionsProps = { question: AuditQuestion; sections: AuditSection[] };

/**
 * The question shows only when every condition holds: a yes/no question of the audit answered
 * yes or no (spec 002 §3, §5). Only yes/no questions not already used can be added.
 */
export function QuestionConditions({ question, sections }: QuestionConditionsProps) {
  const { t } = useTranslation();
  const actions = useBuilderActions();
  const [candidateId, setCandidateId] = useState<string | null>(null);
  const [value, setValue] = useState<'true' | 'false'>('true');
  const untitled = t('audits.builder.untitledQuestion');
  const candidates = useMemo(() => conditionCandidates(sections, question), [sections, question]);
  // Hundreds in a large audit: built again only when they change.
  const candidateOptions = useMemo(
    () =>
      candidates.map((candidate) => ({
        value: candidate.id,
        label: questionLabel(candidate.text, untitled),
      })),
    [candidates, untitled],
  );
  const chosen = candidates.some((candidate) => candidate.id === candidateId) ? candidateId : null;
  const yesNo = [
    { value: 'true', label: t('audits.options.yes') },
    { value: 'false', label: t('audits.options.no') },
  ];

  const setConditions = (conditions: AuditQuestion['conditions']) =>
    actions.updateQuestion(question.id, (current) => ({ ...current, conditions }));

  function handleAdd() {
    if (!chosen) return;
    setConditions([...question.conditions, { question_id: chosen, value: value === 'true' }]);
    setCandidateId(null);
  }

  return (
    <Stack gap="xs">
      {question.conditions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audits.conditions.none')}
        </Text>
      ) : null}
      {question.conditions.map((condition, index) => {
        const source = findQuestion(sections, condition.question_id)?.question;
        const name = source ? questionLabel(source.text, untitled) : t('audits.conditions.missing');
        return (
          <Group key={condition.question_id} gap="xs" wrap="wrap" data-testid="condition-row">
            <Text size="sm" style={{ flex: 1, minWidth: 160 }} data-testid="condition-text">
              {t('audits.conditions.shownIf', { name })}
            </Text>
            <SegmentedControl
              size="xs"
              data={yesNo}
              value={condition.value ? 'true' : 'false'}
              onChange={(next) =>
                setConditions(
                  question.conditions.map((item, position) =>
                    position === index ? { ...item, value: next === 'true' } : item,
                  ),
                )
              }
              aria-label={t('audits.conditions.value')}
              data-testid="condition-value"
            />
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() =>
                setConditions(question.conditions.filter((_, position) => position !== index))
              }
              aria-label={t('audits.conditions.remove', { name })}
              data-testid="condition-remove"
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        );
      })}
      {question.conditions.length < auditLimits.maxConditions ? (
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('audits.conditions.question')}
            placeholder={
              candidates.length === 0
                ? t('audits.conditions.noCandidate')
                : t('audits.conditions.choose')
            }
            data={candidateOptions}
            // Its options drawn when it opens, not kept hidden in the page (hundreds).
            comboboxProps={{ keepMounted: false }}
            value={chosen}
            onChange={setCandidateId}
            disabled={candidates.length === 0}
            searchable
            nothingFoundMessage={t('common.nothingFound')}
            style={{ flex: 1, minWidth: 200 }}
            data-testid="condition-candidate"
          />
          <SegmentedControl
            data={yesNo}
            value={value}
            onChange={(next) => setValue(next === 'false' ? 'false' : 'true')}
            aria-label={t('audits.conditions.value')}
            data-testid="condition-new-value"
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={handleAdd}
            disabled={!chosen}
            data-testid="condition-add"
          >
            {t('audits.conditions.add')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

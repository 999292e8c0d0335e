import { Accordion, Anchor, Badge, Group, Image, Stack, Table, Text } from '@mantine/core';
import { auditTruncation, expandedSectionsOnOpen, truncate } from '@mise/shared/audits/rules';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { formatPercent } from '@mise/shared/audits/scoring';
import { IconFile } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { fileNameOfUrl, isImageFile } from '../model/answer-values';
import { sectionPercent } from '../model/result-scores';
import {
  type AnswerCell,
  answerCell,
  indexResult,
  type ResultIndex,
  type ResultsSection,
} from '../model/results-table';
import { resultColor } from './result-colors';

/** A table wider than the screen scrolls: its viewport takes the keyboard focus (axe). */
const keyboardScroll = { viewportProps: { tabIndex: 0 } };

function AnswerFiles({ urls }: { urls: string[] }) {
  return (
    <Group gap="xs">
      {urls.map((url) => {
        const name = fileNameOfUrl(url);
        return (
          <Anchor key={url} href={url} target="_blank" rel="noopener" size="sm">
            {isImageFile(url) ? (
              <Image src={url} alt={name} w={56} h={56} radius="sm" fit="cover" />
            ) : (
              <Group gap={4} wrap="nowrap" maw={200}>
                <IconFile size={16} />
                <Text size="sm" truncate>
                  {name}
                </Text>
              </Group>
            )}
          </Anchor>
        );
      })}
    </Group>
  );
}

function CellContent({ cell }: { cell: AnswerCell }) {
  const { t } = useTranslation();
  if (cell.kind === 'question-missing') {
    return (
      <Text size="sm" c="dimmed" fs="italic" data-testid="results-question-missing">
        {t('auditResults.messages.question-missing')}
      </Text>
    );
  }
  const comment = cell.comment ? (
    <Text size="xs" c="dimmed" data-testid="results-comment" style={{ whiteSpace: 'pre-wrap' }}>
      {t('auditResults.results.commentValue', {
        comment: truncate(cell.comment, auditTruncation.answer),
      })}
    </Text>
  ) : null;
  if (cell.kind === 'answer-missing') {
    return (
      <Stack gap={2}>
        <Text size="sm" c="dimmed" fs="italic" data-testid="results-answer-missing">
          {t('auditResults.messages.answer-missing')}
        </Text>
        {comment}
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      {cell.text ? (
        <Text
          size="sm"
          title={cell.fullText === cell.text ? undefined : cell.fullText}
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="results-answer"
        >
          {cell.text}
        </Text>
      ) : null}
      {cell.files.length > 0 ? <AnswerFiles urls={cell.files} /> : null}
      {comment}
    </Stack>
  );
}

function SectionTable({
  section,
  indexes,
}: {
  section: ResultsSection;
  indexes: readonly ResultIndex[];
}) {
  const { t } = useTranslation();
  if (section.questions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('auditResults.results.sectionEmpty')}
      </Text>
    );
  }
  const hasScores = indexes.some((index) =>
    index.result.section_scores.some((score) => score.section_id === section.id),
  );
  return (
    <Table.ScrollContainer minWidth={260 + 220 * indexes.length} scrollAreaProps={keyboardScroll}>
      <Table verticalSpacing="sm" striped data-testid="results-section-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={260}>{t('auditResults.results.question')}</Table.Th>
            {indexes.map((index, position) => (
              <Table.Th key={index.result.id}>
                <Group gap={6} wrap="nowrap">
                  <Badge size="xs" circle color={resultColor(position)} aria-hidden>
                    {position + 1}
                  </Badge>
                  <Text size="sm" fw={600} truncate>
                    {index.result.store.name}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" fw={400}>
                  {formatDateTime(index.result.end_date)}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {section.questions.map((question) => (
            <Table.Tr key={question.id} data-testid="results-question-row">
              <Table.Td>
                <Text
                  size="sm"
                  fw={500}
                  title={question.text}
                  style={{ overflowWrap: 'anywhere' }}
                  data-testid="results-question"
                >
                  {truncate(question.text, auditTruncation.questionInResults)}
                </Text>
              </Table.Td>
              {indexes.map((index) => (
                <Table.Td key={index.result.id} valign="top">
                  <CellContent cell={answerCell(question.id, index, t)} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {hasScores ? (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t('auditResults.results.sectionScore')}</Table.Th>
              {indexes.map((index) => {
                const percent = sectionPercent(
                  index.result.section_scores.find((score) => score.section_id === section.id),
                );
                return (
                  <Table.Td key={index.result.id} data-testid="results-section-score">
                    <Text size="sm" fw={700}>
                      {percent === null
                        ? '—'
                        : t('auditResults.percent', { value: formatPercent(percent) })}
                    </Text>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </Table>
    </Table.ScrollContainer>
  );
}

type ResultsSectionsProps = {
  sections: readonly ResultsSection[];
  results: readonly AuditResult[];
};

/**
 * Spec 002 §2: per-section expandable tables of questions and answers of the selected results,
 * the first 3 sections open; a section's table renders only while it is open (an audit may
 * hold thousands of questions).
 */
export function ResultsSections({ sections, results }: ResultsSectionsProps) {
  const { t } = useTranslation();
  const indexes = useMemo(() => results.map(indexResult), [results]);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const open = expanded ?? sections.slice(0, expandedSectionsOnOpen).map((section) => section.id);

  if (sections.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {t('auditResults.results.noQuestions')}
      </Text>
    );
  }

  return (
    <Accordion
      multiple
      variant="separated"
      value={open}
      onChange={setExpanded}
      data-testid="results-sections"
    >
      {sections.map((section) => (
        <Accordion.Item key={section.id} value={section.id} data-testid="results-section">
          <Accordion.Control>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="results-section-title">
              {truncate(section.title, auditTruncation.sectionTitle)}
            </Text>
          </Accordion.Control>
          <Accordion.Panel>
            {open.includes(section.id) ? (
              <SectionTable section={section} indexes={indexes} />
            ) : null}
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

import { Card, ColorSwatch, Group, Progress, Spoiler, Stack, Text, Title } from '@mantine/core';
import { auditTruncation, truncate } from '@mise/shared/audits/rules';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { formatPercent } from '@mise/shared/audits/scoring';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { sectionPercent } from '../model/result-scores';
import type { ResultsSection } from '../model/results-table';
import { resultColor } from './result-colors';

type SectionScoreChartProps = {
  sections: readonly ResultsSection[];
  results: readonly AuditResult[];
};

/**
 * Per-section score % of the selected results as horizontal bars (one per result, in the
 * result's colour): which sections pull a score down, at a glance, even on a phone.
 */
export function SectionScoreChart({ sections, results }: SectionScoreChartProps) {
  const { t } = useTranslation();
  const rows = sections
    .map((section) => ({
      section,
      percents: results.map((result) =>
        sectionPercent(result.section_scores.find((score) => score.section_id === section.id)),
      ),
    }))
    .filter((row) => row.percents.some((percent) => percent !== null));
  if (rows.length === 0) return null;

  return (
    <Card withBorder radius="md" padding="md" data-testid="results-section-chart">
      <Title order={2} size="h4" mb="xs">
        {t('auditResults.results.scoresBySection')}
      </Title>
      {results.length > 1 ? (
        <Group gap="md" mb="sm">
          {results.map((result, index) => (
            <Group key={result.id} gap={6} wrap="nowrap">
              <ColorSwatch
                color={`var(--mantine-color-${resultColor(index)}-6)`}
                size={12}
                withShadow={false}
              />
              <Text size="xs">
                {result.store.name} · {formatDateTime(result.end_date)}
              </Text>
            </Group>
          ))}
        </Group>
      ) : null}
      <Spoiler
        maxHeight={360}
        showLabel={t('auditResults.results.showMore')}
        hideLabel={t('auditResults.results.showLess')}
      >
        <Stack gap="sm">
          {rows.map(({ section, percents }) => (
            <Stack key={section.id} gap={4} data-testid="results-chart-row">
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {truncate(section.title, auditTruncation.sectionTitle)}
              </Text>
              {percents.map((percent, index) => {
                const result = results[index];
                if (!result) return null;
                return (
                  <Group key={result.id} gap="xs" wrap="nowrap">
                    <Progress
                      value={percent ?? 0}
                      color={resultColor(index)}
                      size="lg"
                      radius="sm"
                      style={{ flex: 1 }}
                      aria-label={`${section.title} — ${result.store.name}`}
                    />
                    <Text size="xs" fw={600} w={64} ta="right" data-testid="results-chart-value">
                      {percent === null
                        ? '—'
                        : t('auditResults.percent', { value: formatPercent(percent) })}
                    </Text>
                  </Group>
                );
              })}
            </Stack>
          ))}
        </Stack>
      </Spoiler>
    </Card>
  );
}

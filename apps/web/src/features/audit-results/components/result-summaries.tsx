import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { formatPercent } from '@mise/shared/audits/scoring';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { resultPercent } from '../model/result-scores';
import { resultColor } from './result-colors';

/** One card per selected result: store, date, auditor and score (%). */
export function ResultSummaries({ results }: { results: readonly AuditResult[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
      {results.map((result, index) => {
        const percent = resultPercent(result);
        return (
          <Card
            key={result.id}
            withBorder
            radius="md"
            padding="sm"
            data-testid="results-summary"
            style={{ borderLeft: `4px solid var(--mantine-color-${resultColor(index)}-6)` }}
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Stack gap={0} miw={0}>
                <Text fw={600} truncate>
                  {result.store.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(result.end_date)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('auditResults.results.by', { name: result.auditor.name })}
                </Text>
              </Stack>
              <Stack gap={0} align="flex-end">
                <Text size="xl" fw={700} data-testid="results-score">
                  {percent === null
                    ? '—'
                    : t('auditResults.percent', { value: formatPercent(percent) })}
                </Text>
                {result.score !== null && result.max_score !== null ? (
                  <Text size="xs" c="dimmed">
                    {t('auditResults.results.points', {
                      score: result.score,
                      max: result.max_score,
                    })}
                  </Text>
                ) : null}
              </Stack>
            </Group>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

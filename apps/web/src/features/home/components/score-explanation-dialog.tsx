import { Button, Group, List, Modal, Stack, Table, Text } from '@mantine/core';
import { scoreWeights, scoreWindowDays } from '@mise/shared/history/constants';
import type { ScoreClass } from '@mise/shared/history/rules';
import type { StoreScore } from '@mise/shared/history/schemas';
import { useTranslation } from 'react-i18next';
import { formatCalendarDay } from '../../../shared/format/store-clock';
import { currentLanguage } from '../../../shared/i18n/i18n';

type ScoreExplanationDialogProps = {
  opened: boolean;
  onClose: () => void;
  score: StoreScore;
};

/** Credit of one task of each score class, from the shared weights. */
const creditOf: Record<ScoreClass, number> = {
  onTime: scoreWeights.onTime,
  onTimeWithAnomaly: scoreWeights.onTime * scoreWeights.anomalyFactor,
  late: scoreWeights.late,
  lateWithAnomaly: scoreWeights.late * scoreWeights.anomalyFactor,
  missed: scoreWeights.missed,
};
const scoreClasses = Object.keys(creditOf) as ScoreClass[];

/**
 * How the restaurant score is computed (spec 000 §2), with this store's figures: the window,
 * the credit of each outcome, what halves or does not count, and the counts behind the value.
 */
export function ScoreExplanationDialog({ opened, onClose, score }: ScoreExplanationDialogProps) {
  const { t, i18n } = useTranslation();
  const numberFormat = new Intl.NumberFormat(i18n.resolvedLanguage ?? currentLanguage(), {
    maximumFractionDigits: 2,
  });
  const format = (value: number) => numberFormat.format(value);
  const due = scoreClasses.reduce((total, scoreClass) => total + score.counts[scoreClass], 0);
  const totalCredit = scoreClasses.reduce(
    (total, scoreClass) => total + score.counts[scoreClass] * creditOf[scoreClass],
    0,
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('homeDashboard.score.explanation.title')}
      size="lg"
      centered
    >
      <Stack gap="sm" data-testid="home-score-explanation">
        <Text size="sm">
          {t('homeDashboard.score.explanation.window', {
            days: scoreWindowDays,
            start: formatCalendarDay(score.window_start),
            end: formatCalendarDay(score.window_end),
          })}
        </Text>
        <Text size="sm">{t('homeDashboard.score.explanation.credits')}</Text>
        <List size="sm" spacing={4} withPadding>
          <List.Item data-testid="home-score-weight-onTime">
            {t('homeDashboard.score.explanation.onTime', { credit: format(scoreWeights.onTime) })}
          </List.Item>
          <List.Item data-testid="home-score-weight-late">
            {t('homeDashboard.score.explanation.late', { credit: format(scoreWeights.late) })}
          </List.Item>
          <List.Item data-testid="home-score-weight-missed">
            {t('homeDashboard.score.explanation.missed', { credit: format(scoreWeights.missed) })}
          </List.Item>
        </List>
        <Text size="sm" data-testid="home-score-weight-anomaly">
          {t('homeDashboard.score.explanation.anomaly', {
            factor: format(scoreWeights.anomalyFactor),
          })}
        </Text>
        <Text size="sm">{t('homeDashboard.score.explanation.notCounted')}</Text>
        <Text size="sm" fw={500}>
          {t('homeDashboard.score.explanation.formula')}
        </Text>

        <Table withTableBorder striped mt="xs" data-testid="home-score-counts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('homeDashboard.score.counts.outcome')}</Table.Th>
              <Table.Th ta="right">{t('homeDashboard.score.counts.tasks')}</Table.Th>
              <Table.Th ta="right">{t('homeDashboard.score.counts.credit')}</Table.Th>
              <Table.Th ta="right">{t('homeDashboard.score.counts.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {scoreClasses.map((scoreClass) => (
              <Table.Tr key={scoreClass} data-testid={`home-score-count-${scoreClass}`}>
                <Table.Td>{t(`homeDashboard.score.classes.${scoreClass}`)}</Table.Td>
                <Table.Td ta="right">{score.counts[scoreClass]}</Table.Td>
                <Table.Td ta="right">{format(creditOf[scoreClass])}</Table.Td>
                <Table.Td ta="right">
                  {format(score.counts[scoreClass] * creditOf[scoreClass])}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t('homeDashboard.score.counts.due')}</Table.Th>
              <Table.Th ta="right" data-testid="home-score-due">
                {due}
              </Table.Th>
              <Table.Th />
              <Table.Th ta="right">{format(totalCredit)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
        <Text size="sm" data-testid="home-score-result">
          {score.value === null
            ? t('homeDashboard.score.explanation.noDueTask')
            : t('homeDashboard.score.explanation.result', {
                credit: format(totalCredit),
                due,
                value: score.value,
              })}
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose} data-autofocus data-testid="home-score-explanation-close">
          {t('common.close')}
        </Button>
      </Group>
    </Modal>
  );
}

import {
  Anchor,
  Button,
  Card,
  Center,
  Group,
  RingProgress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { scoreWindowDays } from '@mise/shared/history/constants';
import type { StoreScore } from '@mise/shared/history/schemas';
import { IconGauge, IconHistory, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCalendarDay } from '../../../shared/format/store-clock';
import { scoreColor } from './score-color';
import { ScoreExplanationDialog } from './score-explanation-dialog';

type ScorePanelProps = {
  storeId: string;
  score: StoreScore;
};

/**
 * Restaurant score panel (spec 000 §2): a circular gauge out of 100 over the store's last
 * 30 days, and a learn-more button explaining how it is computed.
 */
export function ScorePanel({ storeId, score }: ScorePanelProps) {
  const { t } = useTranslation();
  const [isExplanationOpen, setIsExplanationOpen] = useState(false);
  const hasScore = score.value !== null;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-score">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconGauge size={20} stroke={1.6} />
          <Title order={2} size="h4">
            {t('homeDashboard.score.title')}
          </Title>
        </Group>
        <Anchor
          component={Link}
          to={`/history?store=${encodeURIComponent(storeId)}`}
          size="sm"
          data-testid="home-see-history"
        >
          <Group gap={4} wrap="nowrap">
            <IconHistory size={16} />
            {t('homeDashboard.seeHistory')}
          </Group>
        </Anchor>
      </Group>
      <Text size="xs" c="dimmed" mt={4} data-testid="home-score-window">
        {t('homeDashboard.score.window', {
          days: scoreWindowDays,
          start: formatCalendarDay(score.window_start),
          end: formatCalendarDay(score.window_end),
        })}
      </Text>
      <Center my="md">
        <RingProgress
          size={160}
          thickness={14}
          roundCaps
          sections={hasScore ? [{ value: score.value ?? 0, color: scoreColor(score.value) }] : []}
          aria-label={t('homeDashboard.score.title')}
          label={
            hasScore ? (
              <Stack gap={0} align="center">
                <Text fz={36} fw={700} lh={1} data-testid="home-score-value">
                  {score.value}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('homeDashboard.score.outOf')}
                </Text>
              </Stack>
            ) : (
              <Text size="sm" c="dimmed" ta="center" px="md" data-testid="home-score-empty">
                {t('homeDashboard.score.noScore')}
              </Text>
            )
          }
        />
      </Center>
      <Group justify="center">
        <Button
          variant="light"
          leftSection={<IconInfoCircle size={16} />}
          onClick={() => setIsExplanationOpen(true)}
          data-testid="home-score-learn-more"
        >
          {t('homeDashboard.score.learnMore')}
        </Button>
      </Group>
      <ScoreExplanationDialog
        opened={isExplanationOpen}
        onClose={() => setIsExplanationOpen(false)}
        score={score}
      />
    </Card>
  );
}

import {
  Card,
  Group,
  RingProgress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The colour of a share of employees who saw or completed something. */
export function shareColor(percent: number): string {
  if (percent >= 80) return 'teal';
  if (percent >= 40) return 'yellow';
  return 'orange';
}

type ContentHomeItemProps = {
  /** Where the card leads (its statistics). */
  to: string;
  name: string;
  /** The line under the name (dates, a type). */
  detail: ReactNode;
  percentage: number;
  /** The share in words ("85 % saw it"). */
  shareText: string;
  /** The card's accessible name. */
  label: string;
  /** Test ids of the card and of its name, detail and share lines. */
  testIds: { item: string; name: string; detail: string; share: string };
  id: string;
};

/**
 * A card of the home's communication and training panel (spec 000 §2): a ring with the share
 * of the employees aimed at who saw or completed it, the name and a detail; it opens its
 * statistics.
 */
export function ContentHomeItem({
  to,
  name,
  detail,
  percentage,
  shareText,
  label,
  testIds,
  id,
}: ContentHomeItemProps) {
  const { t } = useTranslation();
  const percent = Math.max(0, Math.min(100, percentage));
  return (
    <li>
      <UnstyledButton
        component={Link}
        to={to}
        w="100%"
        p="xs"
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
        }}
        aria-label={label}
        data-testid={testIds.item}
        data-id={id}
      >
        <Group gap="sm" wrap="nowrap">
          <RingProgress
            size={56}
            thickness={6}
            roundCaps
            sections={[{ value: percent, color: shareColor(percent) }]}
            label={
              <Text ta="center" size="xs" fw={700}>
                {t('content.percent', { value: percentage })}
              </Text>
            }
            aria-hidden
          />
          <Stack gap={0} miw={0}>
            <Text fw={600} size="sm" truncate data-testid={testIds.name}>
              {name}
            </Text>
            <Text size="xs" c="dimmed" data-testid={testIds.detail}>
              {detail}
            </Text>
            <Text size="xs" fw={600} c={shareColor(percent)} data-testid={testIds.share}>
              {shareText}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
    </li>
  );
}

type ContentHomePanelProps = {
  icon: ReactNode;
  title: string;
  testId: string;
  children: ReactNode;
};

/** One half of the home's communication and training panel: its title, then its cards. */
export function ContentHomePanel({ icon, title, testId, children }: ContentHomePanelProps) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Group gap="xs" wrap="nowrap" mb="md">
        <ThemeIcon variant="light" size="md" radius="xl">
          {icon}
        </ThemeIcon>
        <Title order={2} size="h4">
          {title}
        </Title>
      </Group>
      {children}
    </Card>
  );
}

/** The cards of a panel, as a list. */
export function ContentHomeList({ children }: { children: ReactNode }) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}
